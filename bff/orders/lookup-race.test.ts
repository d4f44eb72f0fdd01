import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { type RedisServer, startRedis } from '../../testing/servers.ts';
import { redisConnection } from '../backends/testing.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';
import { issueLabel, orderLabel } from '../notifications/testing/harness.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { LOOKUP_FAILURES } from './lookup-throttle.ts';

/**
 * Concurrent guesses against the order lookup's throttle (issue 27's attacker review): every guess is in flight before
 * any of them has failed. The order store is held shut by a gate until each request has either been answered or is
 * waiting inside the store, so what got through does not depend on timing.
 */

const RIGHT_CEP = '20040-020';
const AnyErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

let sandbox: RunningSandbox;
let redis: RedisServer;
beforeAll(async () => {
  [sandbox, redis] = await Promise.all([startSandbox({ labelPdfDelayMs: 0 }), startRedis()]);
});
afterAll(async () => {
  await sandbox?.close();
  await redis?.close();
});

/** Reads of orders from the ledgers of the BFFs: counted, and held until `open()`. */
class StoreGate {
  reads = 0;
  /** Called on every read (the race below waits on it). */
  onRead: () => void = () => undefined;
  readonly open: () => void;
  private readonly opened: Promise<void>;
  /** Reads fail with this while set (a ledger that went away). */
  failure: Error | undefined;

  constructor(ledgers: readonly LedgerStore[]) {
    const { promise, resolve } = Promise.withResolvers<void>();
    this.opened = promise;
    this.open = resolve;
    for (const ledger of ledgers) {
      const byOrder = ledger.byOrder.bind(ledger);
      ledger.byOrder = async (orderId) => {
        this.reads += 1;
        this.onRead();
        await this.opened;
        if (this.failure) throw this.failure;
        return byOrder(orderId);
      };
    }
  }
}

interface Answer {
  status: number;
  retryAfter: string | null;
  code: string | undefined;
}

/**
 * Sends the requests of each wave at once, the next wave once every request sent so far is answered or held in the
 * store; after the last wave notes how many reached the store, then opens it and collects the answers, in order.
 * While the store is shut no guess has failed yet: every failure counted by then was counted before the order was read.
 */
async function race(gate: StoreGate, waves: readonly (readonly (() => Promise<Response>)[])[]) {
  let answered = 0;
  let sent = 0;
  let settle: () => void = () => undefined;
  const check = () => {
    if (answered + gate.reads === sent) settle();
  };
  gate.onRead = check;
  const pending: Promise<Answer>[] = [];
  for (const wave of waves) {
    const settled = new Promise<void>((resolve) => {
      settle = () => resolve();
    });
    sent += wave.length;
    for (const send of wave) {
      pending.push(
        send().then(async (res) => {
          answered += 1;
          check();
          return { status: res.status, retryAfter: res.headers.get('retry-after'), code: await codeOf(res) };
        }),
      );
    }
    await settled;
  }
  const readsWhileShut = gate.reads;
  gate.open();
  return { readsWhileShut, answers: await Promise.all(pending) };
}

async function codeOf(res: Response): Promise<string | undefined> {
  if (res.status === 200) return undefined;
  // The envelope of every error; its codes include the server's own (`order_not_found`, `internal_error`).
  return AnyErrorSchema.parse(await res.json()).error.code;
}

/** `POST /api/orders/lookup` to `bff` from a visitor (their address as the trusted proxy wrote it). */
const lookup = (bff: RunningBff, body: unknown, visitor: string) =>
  fetch(`${bff.url}/api/orders/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': visitor },
    body: JSON.stringify(body),
  });

const count = (answers: readonly Answer[], status: number, code?: string) =>
  answers.filter((answer) => answer.status === status && answer.code === code).length;

const setups: { name: string; env: () => Record<string, string>; instances: number }[] = [
  { name: 'one BFF, failures counted in its memory', env: () => ({}), instances: 1 },
  { name: 'two BFFs counting in one Redis', env: () => ({ BFF_REDIS_URL: redis.url }), instances: 2 },
];

describe.each(setups)('order lookups at once: $name', (setup) => {
  let bffs: RunningBff[] = [];
  /** Order numbers and visitors of their own in each test. */
  let run = 0;
  beforeEach(async () => {
    run += 1;
    if (setup.instances > 1) {
      // Each test on an empty Redis: an instance stopped by the test before may have left the tracking sender lock
      // behind (held until it expires, 15 s), which would hold this test's first tracking lookup.
      const connection = await redisConnection(redis.url);
      await connection.commands.flushall();
      connection.close();
    }
    bffs = await Promise.all(
      Array.from({ length: setup.instances }, () =>
        startBff(
          sandbox.url,
          { BFF_TRUST_PROXY: '1', ...setup.env() },
          // Redis commands get startBff's 5 s (bff/testing.ts says why): a late answer would count on one instance only.
          { notifications: { timers: false }, lookupWait: async () => undefined },
        ),
      ),
    );
  });
  afterEach(async () => {
    await Promise.all(bffs.map((bff) => bff.stop()));
  });

  /** One order whose label every instance's ledger holds (each instance has a ledger of its own here). */
  const issueOrder = async (orderId: string) => {
    for (const bff of bffs) await issueLabel(bff.url, orderLabel(orderId));
  };
  const instance = (i: number): RunningBff => {
    const bff = bffs[i % bffs.length];
    if (!bff) throw new Error('no BFF');
    return bff;
  };

  it('lets 5 of 59 wrong CEPs for one order reach the store, and answers the right CEP sent next with the lockout', async () => {
    const orderId = `RACE-ORDER-${setup.instances}-${run}`;
    await issueOrder(orderId);
    const gate = new StoreGate(bffs.map((bff) => bff.backends.ledger));
    const guesses = Array.from(
      { length: 59 },
      (_, i) => () =>
        lookup(instance(i), { orderId, cep: `3${String(i).padStart(7, '0')}` }, `198.51.${run}.${i + 1}`),
    );
    // The right CEP, from a visitor of its own, once the 59 are refused or reading (none has failed yet).
    const right = () => lookup(instance(59), { orderId, cep: RIGHT_CEP }, `198.51.${run}.100`);
    const { readsWhileShut, answers } = await race(gate, [guesses, [right]]);
    const limit = LOOKUP_FAILURES.perOrder.calls;
    expect(answers.at(-1)).toMatchObject({ status: 429, code: 'rate_limited' });
    // All but the order's 5 were refused before any had failed: none of them, and not the right CEP, read the order.
    expect(readsWhileShut).toBe(limit);
    expect(count(answers, 404, 'order_not_found')).toBe(limit);
    expect(count(answers, 429, 'rate_limited')).toBe(60 - limit);
    for (const answer of answers.filter((answer) => answer.status === 429)) {
      expect(Number(answer.retryAfter)).toBeGreaterThan(800);
    }
    // The right CEP again, on every instance, from a new visitor and from a guesser: the lockout, never the order.
    for (const [i, bff] of bffs.entries()) {
      for (const visitor of [`192.0.2.${run * 10 + i}`, `198.51.${run}.1`]) {
        const res = await lookup(bff, { orderId, cep: RIGHT_CEP }, visitor);
        expect(res.status).toBe(429);
        expect(await codeOf(res)).toBe('rate_limited');
      }
    }
    expect(gate.reads).toBe(limit);
  }, 60_000);

  it('lets 10 of 59 guesses of one visitor reach the store, and answers its right CEP sent next with the lockout', async () => {
    const orderId = `RACE-VISITOR-${setup.instances}-${run}`;
    await issueOrder(orderId);
    const gate = new StoreGate(bffs.map((bff) => bff.backends.ledger));
    const visitor = `203.0.${run}.7`;
    const guesses = Array.from(
      { length: 59 },
      (_, i) => () => lookup(instance(i), { orderId: `GUESS-${run}-${i}`, cep: RIGHT_CEP }, visitor),
    );
    const right = () => lookup(instance(59), { orderId, cep: RIGHT_CEP }, visitor);
    const { readsWhileShut, answers } = await race(gate, [guesses, [right]]);
    const limit = LOOKUP_FAILURES.perVisitor.calls;
    expect(answers.at(-1)).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(readsWhileShut).toBe(limit);
    expect(count(answers, 404, 'order_not_found')).toBe(limit);
    expect(count(answers, 429, 'rate_limited')).toBe(60 - limit);
    for (const bff of bffs) {
      expect((await lookup(bff, { orderId, cep: RIGHT_CEP }, visitor)).status).toBe(429);
    }
    expect(gate.reads).toBe(limit);
    // The refused attempts counted against no order: another visitor finds this one at once.
    expect((await lookup(instance(1), { orderId, cep: RIGHT_CEP }, `192.0.2.${200 + run}`)).status).toBe(200);
  }, 60_000);

  it('takes a right answer back: 9 failures, 3 right answers, 1 failure, and only then the lockout', async () => {
    const orderId = `REFUND-${setup.instances}-${run}`;
    await issueOrder(orderId);
    const visitor = `203.0.${run}.9`;
    for (let i = 0; i < 9; i++) {
      expect(
        (await lookup(instance(i), { orderId: `MISS-${run}-${i}`, cep: RIGHT_CEP }, visitor)).status,
      ).toBe(404);
    }
    for (let i = 0; i < 3; i++) {
      expect((await lookup(instance(i), { orderId, cep: RIGHT_CEP }, visitor)).status).toBe(200);
    }
    expect((await lookup(instance(0), { orderId, cep: '30040020' }, visitor)).status).toBe(404);
    expect((await lookup(instance(1), { orderId, cep: RIGHT_CEP }, visitor)).status).toBe(429);
  }, 60_000);

  it('counts no failure when the ledger fails: 12 errors, and the right CEP still finds the order', async () => {
    const orderId = `LEDGER-${setup.instances}-${run}`;
    await issueOrder(orderId);
    const gate = new StoreGate(bffs.map((bff) => bff.backends.ledger));
    gate.failure = new Error('the database went away');
    gate.open();
    const visitor = `203.0.${run}.11`;
    for (let i = 0; i < 12; i++) {
      const res = await lookup(instance(i), { orderId, cep: RIGHT_CEP }, visitor);
      expect(res.status).toBe(500);
      expect(await codeOf(res)).not.toBe('order_not_found');
    }
    gate.failure = undefined;
    expect((await lookup(instance(0), { orderId, cep: RIGHT_CEP }, visitor)).status).toBe(200);
  }, 60_000);
});
