import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AlreadyCreatedError,
  BindingConflictError,
  IdempotencyConflictError,
  OpenAttemptConflictError,
  TRANSITIONS,
  TransitionError,
} from './ledger.ts';
import { sqliteLedger, type TestLedger } from './testing/ledgers.ts';
import { describeLedgerStore } from './testing/store-contract.ts';

const DAY = 86_400_000;
// Far from 0, so no rule can pass by comparing against an epoch that never moved.
let clock = 1.7e12;
const now = () => clock;
let store: TestLedger;

beforeEach(() => {
  clock = 1.7e12;
  store = sqliteLedger({ dataDir: ':memory:', now, keyWindowMs: 7 * DAY });
});
afterEach(async () => {
  await store.close();
});

const begin = (fingerprint = 'fp-a', idempotencyKey?: string) =>
  store.begin({ fingerprint, idempotencyKey, request: `{"order":"${fingerprint}"}` });

/** A data directory holding the first ledger's table (`attempts`, without the UNIQUE bindings), to migrate. */
function legacyLedger() {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-legacy-'));
  const legacy = new DatabaseSync(join(dir, 'labels.sqlite'));
  legacy.exec(`CREATE TABLE attempts (id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, idempotency_key TEXT UNIQUE,
    state TEXT NOT NULL, prepostagem_id TEXT, tracking_code TEXT, reason TEXT, status TEXT, support_code TEXT,
    created_at INTEGER NOT NULL, settled_at INTEGER, request TEXT NOT NULL)`);
  return { dir, legacy };
}

describe('the ledger state machine', () => {
  it('writes an attempt pending, with the clock time, before anything is sent', async () => {
    const attempt = await begin();
    expect(attempt).toMatchObject({
      state: 'pending',
      createdAt: 1.7e12,
      settledAt: null,
      prepostagemId: null,
    });
  });

  it('settles pending into each final state, and unknown into created, rejected or not_sent only', async () => {
    for (const state of ['created', 'rejected', 'unknown', 'not_sent'] as const) {
      const attempt = await begin(`fp-${state}`);
      clock += 1000;
      const settled = await store.settle(attempt.id, {
        state,
        settledBy: 'answer',
        ...(state === 'created' ? { prepostagemId: `PP-${state}`, supportCode: `sc-${state}` } : {}),
      });
      expect(settled).toMatchObject({ state, settledAt: clock, settledBy: 'answer' });
    }
    expect(TRANSITIONS.unknown).toEqual(['created', 'rejected', 'not_sent']);
  });

  it('refuses every transition the state machine does not allow, and changes nothing', async () => {
    const states = ['created', 'rejected', 'not_sent'] as const;
    for (const from of states) {
      const attempt = await begin(`fp-from-${from}`);
      await store.settle(attempt.id, {
        state: from,
        settledBy: 'answer',
        ...(from === 'created' ? { prepostagemId: `PP-${from}` } : {}),
      });
      for (const to of ['created', 'rejected', 'unknown', 'not_sent'] as const) {
        await expect(store.settle(attempt.id, { state: to, settledBy: 'operator' })).rejects.toBeInstanceOf(
          TransitionError,
        );
      }
      expect((await store.get(attempt.id))?.state).toBe(from);
    }
  });

  it('binds a prepostagemId to one attempt only: a second binding is refused by the storage', async () => {
    const a = await begin('fp-a');
    const b = await begin('fp-b');
    await store.settle(a.id, {
      state: 'created',
      settledBy: 'answer',
      prepostagemId: 'PP1',
      supportCode: 'sc1',
    });
    await expect(
      store.settle(b.id, {
        state: 'created',
        settledBy: 'diagnosis',
        prepostagemId: 'PP1',
        supportCode: 'sc2',
      }),
    ).rejects.toBeInstanceOf(BindingConflictError);
    await expect(
      store.settle(b.id, { state: 'rejected', settledBy: 'diagnosis', supportCode: 'sc1' }),
    ).rejects.toBeInstanceOf(BindingConflictError);
    expect((await store.get(b.id))?.state).toBe('pending');
    expect(await store.isBound({ prepostagemId: 'PP1' })).toBe(true);
    expect(await store.isBound({ supportCode: 'sc1' })).toBe(true);
    expect(await store.isBound({ prepostagemId: 'PP2', supportCode: 'sc9' })).toBe(false);
  });

  it('enforces the binding even against a writer that skips this code (a raw UPDATE on the same file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-raw-'));
    const onDisk = sqliteLedger({ dataDir: dir, now });
    const a = await onDisk.begin({ fingerprint: 'x', request: '{}' });
    const b = await onDisk.begin({ fingerprint: 'y', request: '{}' });
    await onDisk.settle(a.id, { state: 'created', settledBy: 'answer', prepostagemId: 'PP7' });
    const raw = new DatabaseSync(join(dir, 'labels.sqlite'));
    expect(() =>
      raw
        .prepare(`UPDATE label_attempts SET prepostagem_id = 'PP7', state = 'created' WHERE id = ?`)
        .run(b.id),
    ).toThrow(/UNIQUE/);
    raw.close();
    await onDisk.close();
  });

  it('keeps one open attempt per request: a second pending or unknown attempt of it is refused', async () => {
    const a = await begin('same');
    await expect(begin('same')).rejects.toBeInstanceOf(OpenAttemptConflictError);
    await store.settle(a.id, { state: 'unknown', settledBy: 'answer' });
    await expect(begin('same')).rejects.toBeInstanceOf(OpenAttemptConflictError);
    expect((await store.openAttempt('same'))?.id).toBe(a.id);
    await store.settle(a.id, { state: 'not_sent', settledBy: 'operator' });
    expect(await store.openAttempt('same')).toBeUndefined();
    expect((await begin('same')).state).toBe('pending');
  });

  it('refuses, in the same transaction as the insert, an unkeyed request already created within the window', async () => {
    const a = await begin('dup');
    await store.settle(a.id, { state: 'created', settledBy: 'answer', prepostagemId: 'PPd' });
    clock += 1000;
    await expect(
      store.begin({ fingerprint: 'dup', request: '{}', createdSince: clock - 60_000 }),
    ).rejects.toBeInstanceOf(AlreadyCreatedError);
    expect((await store.begin({ fingerprint: 'dup', request: '{}', createdSince: clock - 500 })).state).toBe(
      'pending',
    );
  });

  it('remembers an idempotency key for the window, then forgets it', async () => {
    const a = await begin('fp-a', 'key-1');
    await store.settle(a.id, { state: 'created', settledBy: 'answer', prepostagemId: 'PP1' });
    clock += 7 * DAY - 1;
    expect((await store.byKey('key-1'))?.id).toBe(a.id);
    await expect(begin('fp-b', 'key-1')).rejects.toBeInstanceOf(IdempotencyConflictError);
    clock += 2;
    expect(await store.byKey('key-1')).toBeUndefined();
    const b = await begin('fp-b', 'key-1');
    expect((await store.byKey('key-1'))?.id).toBe(b.id);
    // The old attempt keeps its pre-posting; only the key moved on.
    expect(await store.get(a.id)).toMatchObject({
      state: 'created',
      prepostagemId: 'PP1',
      idempotencyKey: null,
    });
  });

  it('releases the key of an attempt that never reached the platform to the next attempt', async () => {
    const a = await begin('fp-a', 'key-ns');
    await store.settle(a.id, { state: 'not_sent', settledBy: 'answer' });
    const b = await begin('fp-a', 'key-ns');
    expect((await store.byKey('key-ns'))?.id).toBe(b.id);
  });

  it('does not release the key of a pending or unknown attempt, however often it is asked', async () => {
    const a = await begin('fp-a', 'key-u');
    await expect(begin('fp-y', 'key-u')).rejects.toBeInstanceOf(IdempotencyConflictError);
    await store.settle(a.id, { state: 'unknown', settledBy: 'answer' });
    await expect(begin('fp-z', 'key-u')).rejects.toBeInstanceOf(IdempotencyConflictError);
  });

  it('turns attempts left pending by a stop into unknown at start, and leaves settled ones alone', async () => {
    const pending = await begin('p1');
    const created = await begin('p2');
    await store.settle(created.id, { state: 'created', settledBy: 'answer', prepostagemId: 'PP2' });
    clock += 5000;
    const recovered = await store.recoverPending(clock);
    expect(recovered.map((a) => a.id)).toEqual([pending.id]);
    expect(await store.get(pending.id)).toMatchObject({ state: 'unknown', settledBy: 'restart' });
    expect((await store.get(created.id))?.state).toBe('created');
  });

  it('lists by state, most recent first', async () => {
    const a = await begin('l1');
    clock += 1;
    const b = await begin('l2');
    clock += 1;
    await begin('l3');
    await store.settle(a.id, { state: 'unknown', settledBy: 'answer' });
    await store.settle(b.id, { state: 'unknown', settledBy: 'answer' });
    expect((await store.list({ state: 'unknown' })).map((x) => x.id)).toEqual([b.id, a.id]);
    expect(await store.list()).toHaveLength(3);
  });

  it('keeps everything across a reopen of the same data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-reopen-'));
    const first = sqliteLedger({ dataDir: dir, now });
    const a = await first.begin({ fingerprint: 'r', idempotencyKey: 'k', request: '{}' });
    await first.settle(a.id, {
      state: 'created',
      settledBy: 'answer',
      prepostagemId: 'PP9',
      supportCode: 's',
    });
    await first.close();
    const second = sqliteLedger({ dataDir: dir, now });
    expect(await second.byKey('k')).toMatchObject({ id: a.id, prepostagemId: 'PP9' });
    await expect(
      second.begin({ fingerprint: 'q', idempotencyKey: 'k', request: '{}' }),
    ).rejects.toBeInstanceOf(IdempotencyConflictError);
    await second.close();
  });

  it('migrates the first ledger, keeping a pre-posting bound to its first attempt only', async () => {
    const { dir, legacy } = legacyLedger();
    const insert = legacy.prepare(
      `INSERT INTO attempts (id, fingerprint, state, prepostagem_id, support_code, created_at, settled_at, request)
       VALUES (?, ?, ?, ?, ?, ?, ?, '{}')`,
    );
    insert.run('a', 'fa', 'created', 'PP1', 'sc1', 1, 2);
    insert.run('b', 'fb', 'created', 'PP1', 'sc1', 3, 4);
    insert.run('c', 'fc', 'unknown', null, null, 5, 6);
    legacy.close();
    const migrated = sqliteLedger({ dataDir: dir, now });
    expect(await migrated.get('a')).toMatchObject({ state: 'created', prepostagemId: 'PP1' });
    expect(await migrated.get('b')).toMatchObject({ state: 'unknown', prepostagemId: null });
    expect((await migrated.get('b'))?.note).toContain('also bound to an earlier attempt');
    expect((await migrated.get('c'))?.state).toBe('unknown');
    await migrated.close();
  });

  it('migrates every field of the first ledger, and keeps only the first open attempt of one request', async () => {
    const { dir, legacy } = legacyLedger();
    const insert = legacy.prepare(
      `INSERT INTO attempts (id, fingerprint, idempotency_key, state, prepostagem_id, tracking_code, reason, status,
         support_code, created_at, settled_at, request) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run(
      'a',
      'fa',
      'key-a',
      'created',
      'PP1',
      'AB123456785BR',
      null,
      'criada',
      'sc-a',
      10,
      20,
      '{"o":1}',
    );
    insert.run(
      'r',
      'fr',
      null,
      'rejected',
      null,
      null,
      'prepostagem_rejected',
      'recusada',
      'sc-r',
      30,
      40,
      '{"o":2}',
    );
    insert.run('u1', 'fu', null, 'unknown', null, null, null, null, null, 50, null, '{"o":3}');
    insert.run('u2', 'fu', null, 'pending', null, null, null, null, null, 60, null, '{"o":3}');
    legacy.close();
    const migrated = sqliteLedger({ dataDir: dir, now });
    expect(await migrated.get('a')).toMatchObject({
      fingerprint: 'fa',
      idempotencyKey: 'key-a',
      state: 'created',
      prepostagemId: 'PP1',
      trackingCode: 'AB123456785BR',
      reason: null,
      status: 'criada',
      supportCode: 'sc-a',
      settledBy: 'answer',
      createdAt: 10,
      settledAt: 20,
      request: '{"o":1}',
      note: null,
    });
    expect(await migrated.get('r')).toMatchObject({
      state: 'rejected',
      reason: 'prepostagem_rejected',
      status: 'recusada',
      supportCode: 'sc-r',
      idempotencyKey: null,
      settledAt: 40,
    });
    expect(await migrated.get('u1')).toMatchObject({ state: 'unknown', settledBy: null, settledAt: null });
    // the second open attempt of the same request is not carried over: the first one keeps blocking it
    expect(await migrated.get('u2')).toBeUndefined();
    await migrated.close();
    // the old table is gone: opening again migrates nothing twice
    const again = sqliteLedger({ dataDir: dir, now });
    expect(await again.get('a')).toMatchObject({ state: 'created', prepostagemId: 'PP1' });
    await again.close();
  });
});

// PostgreSQL runs the same contract in ledger-store.postgres.test.ts.
describeLedgerStore('node:sqlite (two connections to one file)', async (now, keyWindowMs) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-contract-'));
  const a = sqliteLedger({ dataDir, now, keyWindowMs });
  const b = sqliteLedger({ dataDir, now, keyWindowMs });
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
});
