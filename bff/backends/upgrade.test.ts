import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH_MIGRATIONS } from '../../shared/oauth/migrations.ts';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { parseConfig } from '../config.ts';
import { LEDGER_MIGRATIONS } from '../labels/migrations.ts';
import { createLogger } from '../logger.ts';
import { NOTIFICATION_MIGRATIONS } from '../notifications/migrations.ts';
import { SECRET_MIGRATIONS } from '../orders/link-secret.ts';
import { ORDER_MIGRATIONS } from '../orders/order-migrations.ts';
import { APPROVAL_MIGRATIONS } from '../policies/approval-store.ts';
import { PROMISE_MIGRATIONS } from '../promise/migrations.ts';
import { CONNECTION_MIGRATIONS } from '../stores/connection-store.ts';
import { type Backends, openBackends } from './backends.ts';
import { COUNTER_MIGRATIONS } from './sql-counter.ts';

/**
 * Databases written by release 0.2.0's own code (commit e9442ef: its node:sqlite and PostgreSQL stores, before the one
 * SQL layer), as fixtures/release-0.2.0/README.md says. The current code must open them in place and keep every row.
 */
const FIXTURES = new URL('./fixtures/release-0.2.0/', import.meta.url).pathname;
const IDS = JSON.parse(readFileSync(join(FIXTURES, 'ids.json'), 'utf8')) as Record<
  'sqlite' | 'postgres',
  Record<'created' | 'rejected' | 'ambiguous' | 'notSent', string>
>;
const T0 = 1_763_800_000_000;

function configFor(env: Record<string, string>) {
  return parseConfig({
    SHIPPING_SECRET_KEY: 'mk_test_demo',
    BFF_ADMIN_PASSWORD: 'a merchant password',
    ...env,
  });
}

/** What every release-0.2.0 database holds, read and written through today's stores. */
async function expectUpgraded(backends: Backends, ids: (typeof IDS)['sqlite']): Promise<void> {
  const { ledger, oauth } = backends;
  expect(await ledger.get(ids.created)).toMatchObject({
    state: 'created',
    prepostagemId: 'PP1000000001',
    trackingCode: 'DG049186226BR',
    idempotencyKey: 'order-1-label-1',
    createdAt: T0,
    unknownWhy: null,
  });
  expect(await ledger.get(ids.rejected)).toMatchObject({
    state: 'rejected',
    reason: 'prepostagem_rejected',
    // The desk's columns, read from the request each attempt kept.
    recipient: 'Bruno Lima',
    serviceCode: '03298',
    orderId: null,
  });
  // Why it is unknown was only the first word of its note then; now it is a column of its own.
  expect(await ledger.get(ids.ambiguous)).toMatchObject({ state: 'unknown', unknownWhy: 'ambiguous' });
  expect(await ledger.list({ state: 'pending' })).toHaveLength(1);
  // The guarantees hold on the old rows: the key is still held, the open attempt still blocks its request.
  expect((await ledger.byKey('order-1-label-1'))?.id).toBe(ids.created);
  await expect(ledger.begin({ fingerprint: 'fp-ambiguous', request: '{}' })).rejects.toThrow(/open attempt/);
  await expect(
    ledger.settle((await ledger.begin({ fingerprint: 'fp-new', request: '{}' })).id, {
      state: 'created',
      settledBy: 'answer',
      prepostagemId: 'PP1000000001',
    }),
  ).rejects.toThrow(/already bound/);
  // A key released by a not_sent attempt goes to the next one.
  expect(
    (await ledger.begin({ fingerprint: 'fp-retry', idempotencyKey: 'order-4-label-1', request: '{}' })).state,
  ).toBe('pending');
  // OAuth: the connected client, its live tokens and the admin session survive.
  const clients = (await oauth?.listClients()) ?? [];
  expect(clients.map((client) => client.metadata.client_name)).toEqual(['Claude']);
  const scopes = await oauth?.activeScopesOf(['a'.repeat(64)], T0);
  expect(scopes?.get('a'.repeat(64))?.sort()).toEqual(['labels', 'rates']);
  expect(await oauth?.spendToken('c'.repeat(64))).toMatchObject({ state: 'fresh' });
  expect(await oauth?.getSession('d'.repeat(64), 'admin', T0)).toBe('{"csrf":"x"}');
}

describe('opening the databases of release 0.2.0', () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.close();
  });

  it('migrates node:sqlite files in place (labels.sqlite and oauth.sqlite), twice without harm', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'upgrade-sqlite-'));
    for (const file of ['labels.sqlite', 'oauth.sqlite'])
      copyFileSync(join(FIXTURES, file), join(dataDir, file));
    const logger = createLogger({ level: 'silent' });
    const backends = await openBackends(configFor({ BFF_DATA_DIR: dataDir }), { logger, now: () => T0 });
    try {
      await expectUpgraded(backends, IDS.sqlite);
    } finally {
      await backends.close();
    }
    const again = await openBackends(configFor({ BFF_DATA_DIR: dataDir }), { logger, now: () => T0 });
    expect((await again.ledger.get(IDS.sqlite.created))?.state).toBe('created');
    await again.close();
  });

  it('migrates a PostgreSQL database in place, keeping its migration ledger', async () => {
    const url = await postgres.createDatabase('release_020');
    const dump = readFileSync(join(FIXTURES, 'postgres.sql'), 'utf8')
      .split('\n')
      // pg_dump's psql meta-commands (\restrict) are for psql, not the server.
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(dump);
    await client.end();
    const logger = createLogger({ level: 'silent' });
    const backends = await openBackends(configFor({ BFF_DATABASE_URL: url }), { logger, now: () => T0 });
    try {
      await expectUpgraded(backends, IDS.postgres);
      const applied = (await backends.sql.all('SELECT id FROM bff_migrations ORDER BY id')).map(
        (row) => row.id,
      );
      // 0.2.0's two steps kept (not applied again), every step of today's stores recorded once.
      const today = [
        ...LEDGER_MIGRATIONS,
        ...OAUTH_MIGRATIONS,
        ...COUNTER_MIGRATIONS,
        ...APPROVAL_MIGRATIONS,
        ...NOTIFICATION_MIGRATIONS,
        ...SECRET_MIGRATIONS,
        ...PROMISE_MIGRATIONS,
        ...ORDER_MIGRATIONS,
        ...CONNECTION_MIGRATIONS,
      ]
        .map((m) => m.id)
        .sort();
      expect(applied).toEqual(today);
      expect(applied).toEqual(expect.arrayContaining(['001-label-attempts', '101-oauth']));
    } finally {
      await backends.close();
    }
  });
});

describe('the store of the orders taken before store_orders kept it (migration 503)', () => {
  it('is filled at start from the store connection, for that platform only and never over a kept store', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'upgrade-order-stores-'));
    const logger = createLogger({ level: 'silent' });
    const first = await openBackends(configFor({ BFF_DATA_DIR: dataDir }), { logger, now: () => T0 });
    // Rows as the orders before 503 were written: no store.
    for (const [id, source, store] of [
      ['#1', 'nuvemshop', null],
      ['#2', 'shopify', null],
      ['#3', 'nuvemshop', '2002'],
    ] as const)
      await first.sql.run(
        `INSERT INTO store_orders (order_id, source, store, external_id, body, received_at, updated_at)
         VALUES (?, ?, ?, ?, '{}', ?, ?)`,
        [id, source, store, id, T0, T0],
      );
    await first.connections.markDisconnected('nuvemshop', '1001', 'nuvemshop', T0);
    await first.close();
    const again = await openBackends(configFor({ BFF_DATA_DIR: dataDir }), { logger, now: () => T0 });
    try {
      const rows = await again.sql.all('SELECT order_id, store FROM store_orders ORDER BY order_id');
      expect(rows.map((row) => [row.order_id, row.store])).toEqual([
        ['#1', '1001'],
        ['#2', null],
        ['#3', '2002'],
      ]);
    } finally {
      await again.close();
    }
  });
});
