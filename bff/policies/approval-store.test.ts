import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sql, UniqueViolation } from '../../shared/sql/sql.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { ApprovalStore } from './approval-store.ts';

/**
 * The approvals' storage on node:sqlite in memory, with a clock the test moves: one pending approval per agent and
 * label, a cap per agent, a decision taken once, expiry at the deadline, and the list the desk shows.
 */
const MINUTE = 60_000;
// Far from 0, so no rule passes by comparing with an epoch that never moved.
let clock = 1.7e12;
let sql: Sql;
let store: ApprovalStore;

beforeEach(async () => {
  clock = 1.7e12;
  sql = new SqliteSql({ dataDir: ':memory:', file: 'approvals.sqlite' });
  store = new ApprovalStore(sql, { now: () => clock });
  await store.ready;
});
afterEach(() => sql.close());

const ask = (intent: string, more: Partial<Parameters<ApprovalStore['request']>[0]> = {}) =>
  store.request({
    intent,
    request: `{"orderId":"${intent}"}`,
    issuedBy: 'agent-a',
    declaredValueCents: 9_000,
    ttlMs: 10 * MINUTE,
    maxPending: 3,
    ...more,
  });

describe('ApprovalStore.request', () => {
  it('stores a pending approval with what the card shows, absent price and policy as null', async () => {
    const approval = await ask('order:PED-1#1', { quotedPriceCents: 2_350, policy: '{"approval":50}' });
    expect(approval).toEqual({
      id: expect.any(String),
      state: 'pending',
      intent: 'order:PED-1#1',
      request: '{"orderId":"order:PED-1#1"}',
      issuedBy: 'agent-a',
      quotedPriceCents: 2_350,
      declaredValueCents: 9_000,
      createdAt: clock,
      expiresAt: clock + 10 * MINUTE,
      decidedAt: null,
      attemptId: null,
      expiryReported: false,
      policy: '{"approval":50}',
      overLimit: false,
    });
    expect(await ask('order:PED-2#1')).toMatchObject({ quotedPriceCents: null, policy: null });
  });

  it("answers the agent's pending approval when it asks again, and gives another agent its own", async () => {
    const first = await ask('order:PED-1#1');
    clock += MINUTE;
    expect((await ask('order:PED-1#1'))?.id).toBe(first?.id);
    const other = await ask('order:PED-1#1', { issuedBy: 'agent-b' });
    expect(other?.id).not.toBe(first?.id);
    expect(other?.issuedBy).toBe('agent-b');
  });

  it('refuses a new approval once the agent has maxPending waiting; another agent and a repeat still pass', async () => {
    await ask('a');
    await ask('b');
    await ask('c');
    expect(await ask('d')).toBeUndefined();
    expect(await ask('a')).toMatchObject({ intent: 'a', state: 'pending' });
    expect(await ask('d', { issuedBy: 'agent-b' })).toMatchObject({ state: 'pending' });
    expect(await ask('e', { maxPending: 0, issuedBy: 'agent-c' })).toBeUndefined();
    expect((await store.list()).map((a) => a.intent).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('counts only pending approvals against the cap: a decided or expired one frees a place', async () => {
    const a = await ask('a');
    await ask('b');
    await ask('c');
    await store.decide(a?.id as string, 'rejected');
    expect(await ask('d')).toMatchObject({ state: 'pending' });
    clock += 10 * MINUTE;
    expect(await ask('e')).toMatchObject({ state: 'pending' });
  });

  it('a new approval once the previous one for the same label expired', async () => {
    const first = await ask('a');
    clock += 10 * MINUTE;
    const again = await ask('a');
    expect(again?.id).not.toBe(first?.id);
    expect(await store.get(first?.id as string)).toMatchObject({ state: 'expired' });
  });
});

/**
 * The real database behind a port whose next transaction reports what PostgreSQL would when another instance's insert
 * of the same row won: a unique violation (after that instance's row is in, when `insertFirst`).
 */
async function racingStore(lost: { column: string; insertFirst: boolean }): Promise<ApprovalStore> {
  let armed = false;
  const racing: Sql = {
    ...sql,
    dialect: sql.dialect,
    label: sql.label,
    all: (text, params) => sql.all(text, params),
    one: (text, params) => sql.one(text, params),
    run: (text, params) => sql.run(text, params),
    healthy: () => sql.healthy(),
    close: () => sql.close(),
    async transaction(work) {
      if (!armed) return sql.transaction(work);
      armed = false;
      if (lost.insertFirst)
        await sql.run(
          `INSERT INTO label_approvals (id, state, intent, request, issued_by, declared_value_cents, created_at,
             expires_at) VALUES ('other-instance', 'pending', 'a', '{}', 'agent-a', 1, ?, ?)`,
          [clock, clock + MINUTE],
        );
      throw new UniqueViolation(lost.column);
    },
  };
  const store = new ApprovalStore(racing, { now: () => clock });
  await store.ready;
  armed = true;
  return store;
}

describe('ApprovalStore.request, two instances at once', () => {
  const fields = {
    intent: 'a',
    request: '{}',
    issuedBy: 'agent-a',
    declaredValueCents: 1,
    ttlMs: MINUTE,
    maxPending: 3,
  };

  it('answers the approval the other instance inserted for the same agent and label', async () => {
    const racing = await racingStore({ column: 'intent', insertFirst: true });
    expect(await racing.request(fields)).toMatchObject({ id: 'other-instance', state: 'pending' });
  });

  it('rethrows when nothing is pending after all, or when another constraint refused', async () => {
    const empty = await racingStore({ column: 'intent', insertFirst: false });
    await expect(empty.request(fields)).rejects.toThrow('unique constraint on intent');
    const other = await racingStore({ column: 'id', insertFirst: true });
    await expect(other.request(fields)).rejects.toThrow('unique constraint on id');
  });
});

describe('ApprovalStore expiry', () => {
  it('expires a pending approval exactly at its deadline, not a millisecond before', async () => {
    const approval = await ask('a');
    const id = approval?.id as string;
    clock += 10 * MINUTE - 1;
    expect(await store.get(id)).toMatchObject({ state: 'pending' });
    clock += 1;
    expect(await store.get(id)).toMatchObject({ state: 'expired' });
    expect(await store.decide(id, 'approved')).toMatchObject({
      decided: false,
      approval: { state: 'expired' },
    });
  });

  it('marks expiry before answering latest, list and decide, and never expires a decided approval', async () => {
    const a = await ask('a');
    const b = await ask('b');
    await store.decide(b?.id as string, 'approved');
    clock += 10 * MINUTE;
    expect(await store.latest('a')).toMatchObject({ state: 'expired' });
    expect(await store.get(b?.id as string)).toMatchObject({ state: 'approved' });
    expect((await store.list({ state: 'expired' })).map((x) => x.id)).toEqual([a?.id]);
  });

  it('records that the agent was told of the expiry', async () => {
    const a = await ask('a');
    await store.expiryTold(a?.id as string);
    expect(await store.get(a?.id as string)).toMatchObject({ expiryReported: true });
  });
});

describe('ApprovalStore.latest', () => {
  it('answers the most recent approval of a label, or of the one an agent asked for', async () => {
    const old = await ask('a');
    await store.decide(old?.id as string, 'rejected');
    clock += MINUTE;
    const mine = await ask('a');
    clock += MINUTE;
    const theirs = await ask('a', { issuedBy: 'agent-b' });
    expect((await store.latest('a'))?.id).toBe(theirs?.id);
    expect((await store.latest('a', 'agent-a'))?.id).toBe(mine?.id);
    expect(await store.latest('a', 'agent-c')).toBeUndefined();
    expect(await store.latest('b')).toBeUndefined();
    expect(await store.get('no-such-id')).toBeUndefined();
  });
});

describe('ApprovalStore.decide', () => {
  it('changes a pending approval once: the first decision wins, the second reports it', async () => {
    const a = await ask('a');
    const id = a?.id as string;
    clock += MINUTE;
    const first = await store.decide(id, 'approved');
    expect(first).toMatchObject({
      decided: true,
      approval: { state: 'approved', decidedAt: clock, overLimit: false },
    });
    const second = await store.decide(id, 'rejected');
    expect(second).toMatchObject({ decided: false, approval: { state: 'approved' } });
    expect(await store.decide('no-such-id', 'approved')).toEqual({ decided: false, approval: undefined });
  });

  it('records an approval over the limits only when the merchant confirmed it so', async () => {
    const a = await ask('a');
    const b = await ask('b');
    expect((await store.decide(a?.id as string, 'approved', { overLimit: true })).approval?.overLimit).toBe(
      true,
    );
    expect((await store.decide(b?.id as string, 'approved', { overLimit: false })).approval?.overLimit).toBe(
      false,
    );
  });
});

describe('ApprovalStore.reopen and issued', () => {
  it('reopens an approved label the limits refused, so it waits undecided again', async () => {
    const a = await ask('a');
    const id = a?.id as string;
    await store.decide(id, 'approved');
    expect(await store.reopen(id)).toBe(true);
    expect(await store.get(id)).toMatchObject({ state: 'pending', decidedAt: null });
    expect(await store.reopen(id)).toBe(false);
  });

  it('never reopens a rejected approval, one already issued, or one approved over the limits', async () => {
    const rejected = (await ask('a'))?.id as string;
    const issued = (await ask('b'))?.id as string;
    const over = (await ask('c'))?.id as string;
    await store.decide(rejected, 'rejected');
    await store.decide(issued, 'approved');
    await store.issued(issued, 'attempt-1');
    await store.decide(over, 'approved', { overLimit: true });
    expect(await store.reopen(rejected)).toBe(false);
    expect(await store.reopen(issued)).toBe(false);
    expect(await store.reopen(over)).toBe(false);
    expect((await store.get(over))?.state).toBe('approved');
  });

  it('keeps the first attempt an approval was issued as', async () => {
    const id = (await ask('a'))?.id as string;
    await store.decide(id, 'approved');
    await store.issued(id, 'attempt-1');
    await store.issued(id, 'attempt-2');
    expect(await store.get(id)).toMatchObject({ attemptId: 'attempt-1' });
  });
});

describe('ApprovalStore.list', () => {
  it('lists every pending approval first, however old, then the most recent decided ones up to the limit', async () => {
    const pending = (await ask('p', { issuedBy: 'agent-p' }))?.id;
    const decided: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock += MINUTE;
      const id = (await ask(`d${i}`))?.id as string;
      await store.decide(id, i % 2 ? 'approved' : 'rejected');
      decided.unshift(id);
    }
    clock += MINUTE;
    const newest = (await ask('n'))?.id;
    expect((await store.list({ limit: 2 })).map((a) => a.id)).toEqual([
      newest,
      pending,
      ...decided.slice(0, 2),
    ]);
    expect((await store.list()).map((a) => a.id)).toEqual([newest, pending, ...decided]);
    expect((await store.list({ state: 'pending' })).map((a) => a.id)).toEqual([newest, pending]);
    expect((await store.list({ state: 'approved' })).map((a) => a.id)).toEqual([decided[0], decided[2]]);
    expect((await store.list({ state: 'rejected', limit: 1 })).map((a) => a.id)).toEqual([decided[1]]);
  });
});
