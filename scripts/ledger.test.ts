import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresLedger, sqliteLedger, type TestLedger } from '../bff/labels/testing/ledgers.ts';
import { type PostgresServer, startPostgres } from '../testing/servers.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'ledger-cli-'));
// Held open for the whole file, as a running BFF holds it.
let bffStore: TestLedger;
const ids: Record<string, string> = {};

async function ledger(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/ledger.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BFF_DATA_DIR: dataDir },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const request = (nome: string, numero: string) =>
  JSON.stringify({ recipient: { nome, endereco: { cep: '20040020', numero } }, weightGrams: 800 });

beforeAll(async () => {
  bffStore = sqliteLedger({ dataDir });
  const created = await bffStore.begin({ fingerprint: 'f1', request: request('Ana Souza', '10') });
  await bffStore.settle(created.id, { state: 'created', settledBy: 'answer', prepostagemId: 'PP1000000001' });
  const unknown = await bffStore.begin({ fingerprint: 'f2', request: request('Ana Sousa', '11') });
  await bffStore.settle(unknown.id, { state: 'unknown', settledBy: 'answer', note: 'no_match: …' });
  const other = await bffStore.begin({ fingerprint: 'f3', request: request('Bia Lima', '12') });
  await bffStore.settle(other.id, { state: 'unknown', settledBy: 'restart' });
  Object.assign(ids, { created: created.id, unknown: unknown.id, other: other.id });
});
afterAll(async () => {
  await bffStore.close();
});

describe('npm run ledger', () => {
  it('lists attempts with their recipient, and filters by state, while the BFF holds the file open', async () => {
    const all = await ledger('list');
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('3 attempt(s)');
    expect(all.stdout).toContain('Ana Sousa, nº 11');
    const unknown = await ledger('list', '--state', 'unknown');
    expect(unknown.stdout).toContain(ids.unknown);
    expect(unknown.stdout).not.toContain(ids.created);
  });

  it('refuses a bad state, a bad id and a bad command with a plain message and a non-zero exit', async () => {
    const badState = await ledger('list', '--state', 'lost');
    expect(badState).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown state "lost"') });
    const badId = await ledger('show', 'no-such-id');
    expect(badId).toMatchObject({ code: 1, stderr: expect.stringContaining('no attempt no-such-id') });
    expect((await ledger('explode')).code).toBe(2);
    expect((await ledger('resolve', ids.unknown as string)).code).toBe(2);
  });

  it('shows one attempt with the request as sent and, when unknown, what to do', async () => {
    const shown = await ledger('show', ids.unknown as string);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('"nome": "Ana Sousa"');
    expect(shown.stdout).toContain(`npm run ledger -- resolve ${ids.unknown} --created <prepostagemId>`);
  });

  it('resolves an unknown attempt as created, seen at once by the open store; never a pre-posting held elsewhere', async () => {
    const taken = await ledger('resolve', ids.unknown as string, '--created', 'PP1000000001');
    expect(taken).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('already bound to another attempt'),
    });
    const done = await ledger('resolve', ids.unknown as string, '--created', 'PP2000000002');
    expect(done.code).toBe(0);
    expect(await bffStore.get(ids.unknown as string)).toMatchObject({
      state: 'created',
      prepostagemId: 'PP2000000002',
      settledBy: 'operator',
    });
    const again = await ledger('resolve', ids.unknown as string, '--not-created');
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('already created') });
  });

  it('resolves an unknown attempt as not created, which lets the same request go again', async () => {
    const done = await ledger('resolve', ids.other as string, '--not-created');
    expect(done.code).toBe(0);
    expect((await bffStore.get(ids.other as string))?.state).toBe('not_sent');
    expect(await bffStore.openAttempt('f3')).toBeUndefined();
  });

  it('says plainly when there is no ledger at the data directory', async () => {
    const { stderr, code } = await run(process.execPath, ['scripts/ledger.ts', 'list'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BFF_DATA_DIR: join(dataDir, 'nowhere') },
    }).then(
      (ok) => ({ ...ok, code: 0 }),
      (e: { stderr: string; code: number }) => e,
    );
    expect(code).toBe(1);
    expect(stderr).toContain('no label ledger at');
  });
});

describe('npm run ledger with BFF_DATABASE_URL (several instances)', () => {
  let postgres: PostgresServer;
  let url: string;
  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createDatabase('ledger_cli');
  });
  afterAll(async () => {
    await postgres?.close();
  });

  const cli = (...args: string[]) =>
    run(process.execPath, ['scripts/ledger.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BFF_DATABASE_URL: url, BFF_DATA_DIR: join(dataDir, 'nowhere') },
    }).then(
      (ok) => ({ ...ok, code: 0 }),
      (e: { stdout: string; stderr: string; code: number }) => e,
    );

  it('reads and settles the PostgreSQL ledger the instances share, not the embedded one', async () => {
    const store = postgresLedger({ url });
    try {
      const attempt = await store.begin({ fingerprint: 'pg-1', request: request('Caio Prado', '7') });
      await store.settle(attempt.id, { state: 'unknown', settledBy: 'answer' });
      const listed = await cli('list', '--state', 'unknown');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(attempt.id);
      expect(listed.stdout).toContain('Caio Prado');
      expect(listed.stdout).not.toContain(ids.unknown);
      const resolved = await cli('resolve', attempt.id, '--created', 'PP2000000002');
      expect(resolved.code).toBe(0);
      expect(await store.get(attempt.id)).toMatchObject({ state: 'created', prepostagemId: 'PP2000000002' });
    } finally {
      await store.close();
    }
  });

  it('says plainly when PostgreSQL cannot be reached', async () => {
    const down = await run(process.execPath, ['scripts/ledger.ts', 'list'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BFF_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    }).then(
      (ok) => ({ ...ok, code: 0 }),
      (e: { stderr: string; code: number }) => e,
    );
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^BFF_DATABASE_URL: PostgreSQL cannot be reached/);
  });
});
