import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AgentLimitError,
  AlreadyCreatedError,
  BindingConflictError,
  IdempotencyConflictError,
  OpenAttemptConflictError,
  OrderVolumeConflictError,
  SendWindowError,
  TransitionError,
} from '../ledger.ts';
import type { LedgerStore } from '../ledger-store.ts';

/** Two stores over one storage (two processes, or two BFF instances), on a clock the test moves. */
export interface StorePair {
  a: LedgerStore;
  b: LedgerStore;
  close(): Promise<void>;
}

export type OpenLedgerPair = (now: () => number, keyWindowMs: number) => Promise<StorePair>;

const DAY = 86_400_000;
const request = (n: number) => JSON.stringify({ order: n });

/**
 * The guarantees the `LedgerStore` gives, run on each database it supports (node:sqlite and PostgreSQL): they come
 * from the storage, so they hold between two stores sharing it.
 */
export function describeLedgerStore(name: string, open: OpenLedgerPair): void {
  describe(`LedgerStore contract: ${name}`, () => {
    let now = 1_763_800_000_000;
    let pair: StorePair;
    let a: LedgerStore;
    let b: LedgerStore;
    let n = 0;
    /** A fingerprint no other test uses (the storage may be shared by the whole file). */
    const fingerprint = () => `fp-${name}-${++n}-${now}`;

    beforeEach(async () => {
      now += DAY * 30;
      pair = await open(() => now, 7 * DAY);
      ({ a, b } = pair);
    });
    afterEach(async () => {
      await pair.close();
    });

    it('writes a pending attempt that the other store reads back whole', async () => {
      const fp = fingerprint();
      const attempt = await a.begin({ fingerprint: fp, idempotencyKey: `key-${fp}`, request: request(1) });
      expect(await b.get(attempt.id)).toEqual({
        id: attempt.id,
        fingerprint: fp,
        idempotencyKey: `key-${fp}`,
        state: 'pending',
        prepostagemId: null,
        trackingCode: null,
        reason: null,
        status: null,
        supportCode: null,
        settledBy: null,
        createdAt: now,
        settledAt: null,
        request: request(1),
        note: null,
        unknownWhy: null,
        orderId: null,
        volume: null,
        issuedBy: null,
        recipient: null,
        serviceCode: null,
        declaredValueCents: null,
        leaseUntil: null,
        locale: null,
      });
      expect(await b.openAttempt(fp)).toMatchObject({ id: attempt.id });
      const spoken = await a.begin({ fingerprint: `${fp}-es`, request: request(2), locale: 'es' });
      expect(await b.get(spoken.id)).toMatchObject({ locale: 'es' });
      expect(await b.byKey(`key-${fp}`)).toMatchObject({ id: attempt.id });
    });

    it('refuses a second open attempt of one request, from either store, until the first is settled', async () => {
      const fp = fingerprint();
      const first = await a.begin({ fingerprint: fp, request: request(1) });
      await expect(b.begin({ fingerprint: fp, request: request(1) })).rejects.toBeInstanceOf(
        OpenAttemptConflictError,
      );
      await a.settle(first.id, { state: 'unknown', settledBy: 'answer' });
      await expect(b.begin({ fingerprint: fp, request: request(1) })).rejects.toBeInstanceOf(
        OpenAttemptConflictError,
      );
      await b.settle(first.id, { state: 'created', settledBy: 'diagnosis', prepostagemId: `PP-${fp}` });
      expect((await b.begin({ fingerprint: fp, request: request(1) })).state).toBe('pending');
    });

    it('sends an unkeyed request once: of many racing to begin and settle it, one goes; the rest see it created', async () => {
      const fp = fingerprint();
      let sent = 0;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, async (_, i) => {
          const attempt = await (i % 2 ? a : b).begin({
            fingerprint: fp,
            request: request(1),
            createdSince: 0,
          });
          sent += 1;
          await (i % 2 ? b : a).settle(attempt.id, {
            state: 'created',
            settledBy: 'answer',
            prepostagemId: `PP-${attempt.id}`,
          });
        }),
      );
      expect(sent).toBe(1);
      for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
        expect(outcome.reason).toSatisfy(
          (reason) => reason instanceof AlreadyCreatedError || reason instanceof OpenAttemptConflictError,
        );
      }
      await expect(a.begin({ fingerprint: fp, request: request(1), createdSince: 0 })).rejects.toBeInstanceOf(
        AlreadyCreatedError,
      );
      // A window that starts after the label lets the request go again (the issuer's dedupe window).
      expect((await b.begin({ fingerprint: fp, request: request(1), createdSince: now + 1 })).state).toBe(
        'pending',
      );
    });

    it('lets exactly one of many concurrent begins with one idempotency key through', async () => {
      const key = `key-${fingerprint()}`;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? a : b).begin({ fingerprint: fingerprint(), idempotencyKey: key, request: request(i) }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
        expect(outcome.reason).toBeInstanceOf(IdempotencyConflictError);
      }
    });

    it('forgets a key after the window, and releases the key of an attempt that was never sent', async () => {
      const key = `key-${fingerprint()}`;
      const first = await a.begin({ fingerprint: fingerprint(), idempotencyKey: key, request: request(1) });
      await a.settle(first.id, { state: 'not_sent', settledBy: 'answer', reason: 'not_sent' });
      const second = await b.begin({ fingerprint: fingerprint(), idempotencyKey: key, request: request(1) });
      await b.settle(second.id, { state: 'created', settledBy: 'answer', prepostagemId: `PP-${key}` });
      await expect(
        a.begin({ fingerprint: fingerprint(), idempotencyKey: key, request: request(2) }),
      ).rejects.toBeInstanceOf(IdempotencyConflictError);
      now += 7 * DAY - 1;
      expect(await a.byKey(key)).toMatchObject({ id: second.id });
      now += 2;
      expect(await a.byKey(key)).toBeUndefined();
      const third = await a.begin({ fingerprint: fingerprint(), idempotencyKey: key, request: request(3) });
      expect(await b.byKey(key)).toMatchObject({ id: third.id });
    });

    it('binds a prepostagemId to one attempt only, even when many settle at once, and leaves the losers unchanged', async () => {
      const attempts = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).begin({ fingerprint: fingerprint(), request: request(i) }),
        ),
      );
      for (const attempt of attempts) await a.settle(attempt.id, { state: 'unknown', settledBy: 'answer' });
      const prepostagemId = `PP-${fingerprint()}`;
      const outcomes = await Promise.allSettled(
        attempts.map((attempt, i) =>
          (i % 2 ? a : b).settle(attempt.id, { state: 'created', settledBy: 'diagnosis', prepostagemId }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
        expect(outcome.reason).toBeInstanceOf(BindingConflictError);
      }
      const states = await Promise.all(attempts.map(async (attempt) => (await b.get(attempt.id))?.state));
      expect(states.filter((state) => state === 'created')).toHaveLength(1);
      expect(states.filter((state) => state === 'unknown')).toHaveLength(9);
      expect(await a.isBound({ prepostagemId })).toBe(true);
      expect(await a.isBound({ prepostagemId: `${prepostagemId}-other` })).toBe(false);
    });

    it('binds a platform supportCode to one attempt only', async () => {
      const supportCode = `0b9f${fingerprint()}`;
      const first = await a.begin({ fingerprint: fingerprint(), request: request(1) });
      const second = await b.begin({ fingerprint: fingerprint(), request: request(2) });
      await a.settle(first.id, {
        state: 'rejected',
        settledBy: 'answer',
        supportCode,
        reason: 'prepostagem_rejected',
      });
      await expect(
        b.settle(second.id, { state: 'rejected', settledBy: 'answer', supportCode }),
      ).rejects.toBeInstanceOf(BindingConflictError);
      expect((await a.get(second.id))?.state).toBe('pending');
      expect(await b.isBound({ supportCode })).toBe(true);
    });

    it('moves only along the state machine: a settled attempt never changes again', async () => {
      const attempt = await a.begin({ fingerprint: fingerprint(), request: request(1) });
      await a.settle(attempt.id, {
        state: 'created',
        settledBy: 'answer',
        prepostagemId: `PP-${attempt.id}`,
      });
      for (const state of ['rejected', 'unknown', 'not_sent', 'created'] as const) {
        await expect(b.settle(attempt.id, { state, settledBy: 'operator' })).rejects.toBeInstanceOf(
          TransitionError,
        );
      }
      expect(await a.get(attempt.id)).toMatchObject({
        state: 'created',
        settledBy: 'answer',
        settledAt: now,
      });
    });

    it('turns pending attempts left by a crash into unknown at start-up, and no others', async () => {
      const crashed = await a.begin({ fingerprint: fingerprint(), request: request(1) });
      now += 1_000;
      const fresh = await a.begin({ fingerprint: fingerprint(), request: request(2) });
      const recovered = await b.recoverPending(now);
      expect(recovered.map((attempt) => attempt.id)).toContain(crashed.id);
      expect(recovered.map((attempt) => attempt.id)).not.toContain(fresh.id);
      expect(await a.get(crashed.id)).toMatchObject({ state: 'unknown', settledBy: 'restart' });
      expect((await a.get(fresh.id))?.state).toBe('pending');
    });

    it('lists attempts most recent first, by state, and finds the last created one of a request', async () => {
      const fp = fingerprint();
      const older = await a.begin({ fingerprint: fp, request: request(1) });
      await a.settle(older.id, { state: 'created', settledBy: 'answer', prepostagemId: `PP-${older.id}` });
      now += 1_000;
      const newer = await b.begin({ fingerprint: fp, request: request(1) });
      await b.settle(newer.id, { state: 'created', settledBy: 'answer', prepostagemId: `PP-${newer.id}` });
      expect((await a.lastCreated(fp, now - 10_000))?.id).toBe(newer.id);
      expect(await a.lastCreated(fp, now + 1)).toBeUndefined();
      const created = await b.list({ state: 'created' });
      expect(created.every((attempt) => attempt.state === 'created')).toBe(true);
      expect(created.findIndex((x) => x.id === newer.id)).toBeLessThan(
        created.findIndex((x) => x.id === older.id),
      );
      expect(await a.list({ limit: 1 })).toHaveLength(1);
      expect(await a.healthy()).toBe(true);
    });

    it('binds an order volume to one open or created attempt; a rejected or unsent one frees it', async () => {
      const order = `order-${fingerprint()}`;
      const first = await a.begin({
        fingerprint: fingerprint(),
        request: request(1),
        orderId: order,
        volume: 1,
      });
      expect(first).toMatchObject({ orderId: order, volume: 1 });
      // Another request for the same volume, from either store, is refused while the first is open…
      await expect(
        b.begin({ fingerprint: fingerprint(), request: request(2), orderId: order, volume: 1 }),
      ).rejects.toBeInstanceOf(OrderVolumeConflictError);
      // …while the order's second volume is its own label, even with the identical box.
      const second = await b.begin({
        fingerprint: fingerprint(),
        request: request(1),
        orderId: order,
        volume: 2,
      });
      expect((await a.byOrderVolume(order, 2))?.id).toBe(second.id);
      await a.settle(first.id, { state: 'rejected', settledBy: 'answer', reason: 'prepostagem_rejected' });
      const again = await b.begin({
        fingerprint: fingerprint(),
        request: request(3),
        orderId: order,
        volume: 1,
      });
      expect((await a.byOrderVolume(order, 1))?.id).toBe(again.id);
      await b.settle(again.id, { state: 'created', settledBy: 'answer', prepostagemId: `PP-${again.id}` });
      await expect(
        a.begin({ fingerprint: fingerprint(), request: request(4), orderId: order, volume: 1 }),
      ).rejects.toBeInstanceOf(OrderVolumeConflictError);
      expect((await b.byOrder(order)).map((attempt) => attempt.volume)).toEqual([1, 1, 2]);
    });

    it("lets exactly an issuer's daily label limit through when two instances race, and counts declared value", async () => {
      const issuedBy = `agent-${fingerprint()}`;
      const limits = { issuedBy, dayStart: now - 1000, dayEnd: now + 1000, maxLabels: 3 };
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? a : b).begin({ fingerprint: fingerprint(), request: request(i), issuedBy, limits }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
      for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
        expect(outcome.reason).toBeInstanceOf(AgentLimitError);
        expect(outcome.reason).toMatchObject({ limit: 'maxLabelsPerDay', resetsAt: now + 1000 });
      }
      // Another issuer, or the next day, has its own count.
      await a.begin({
        fingerprint: fingerprint(),
        request: request(1),
        issuedBy: 'someone-else',
        limits: { ...limits, issuedBy: 'someone-else' },
      });
      expect(await b.spentToday(issuedBy, now - 1000, now + 1000)).toEqual({ labels: 3, cents: 0 });
      const money = {
        issuedBy: `${issuedBy}-v`,
        dayStart: now - 1000,
        dayEnd: now + 1000,
        maxDeclaredValueCents: 10_000,
      };
      await a.begin({
        fingerprint: fingerprint(),
        request: request(1),
        issuedBy: money.issuedBy,
        limits: money,
        declaredValueCents: 6_000,
      });
      await expect(
        b.begin({
          fingerprint: fingerprint(),
          request: request(2),
          issuedBy: money.issuedBy,
          limits: money,
          declaredValueCents: 4_001,
        }),
      ).rejects.toMatchObject({ limit: 'maxDeclaredValuePerDay' });
      await b.begin({
        fingerprint: fingerprint(),
        request: request(2),
        issuedBy: money.issuedBy,
        limits: money,
        declaredValueCents: 4_000,
      });
    });

    it('keeps at most maxInFlight attempts in the air across both stores, and never lets an unsettled one fall out of reach', async () => {
      // A clean slate of attempts for this test: everything earlier is settled.
      for (const attempt of await a.list({ state: 'pending' }))
        await a.settle(attempt.id, { state: 'not_sent', settledBy: 'answer' });
      for (const attempt of await a.list({ state: 'unknown' })) await a.lease(attempt.id, null);
      const window = { maxInFlight: 3, recentReach: 5, now };
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? a : b).begin({
            fingerprint: fingerprint(),
            request: request(i),
            window,
            leaseUntil: now + 10_000,
          }),
        ),
      );
      const begun = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      expect(begun).toHaveLength(3);
      for (const outcome of outcomes.filter((o) => o.status === 'rejected'))
        expect(outcome.reason).toBeInstanceOf(SendWindowError);
      // The oldest stays unsettled (its answer lost, being reconciled: a live lease); the others settle.
      const [oldest, ...rest] = begun.sort((x, y) => x.createdAt - y.createdAt || (x.id < y.id ? -1 : 1));
      now += 1;
      await a.settle(oldest?.id ?? '', { state: 'unknown', settledBy: 'answer' });
      for (const attempt of rest)
        await b.settle(attempt.id, {
          state: 'created',
          settledBy: 'answer',
          prepostagemId: `PP-${attempt.id}`,
        });
      // Newer attempts may go only while the oldest unsettled one keeps fewer than recentReach attempts after it.
      let sent = 0;
      for (let i = 0; i < 6; i++) {
        now += 1;
        const attempt = await a
          .begin({ fingerprint: fingerprint(), request: request(i), window: { ...window, now } })
          .catch((error: unknown) => error);
        if (attempt instanceof SendWindowError) break;
        sent += 1;
        await a.settle((attempt as { id: string }).id, { state: 'not_sent', settledBy: 'answer' });
      }
      expect(sent).toBe(window.recentReach - 1 - rest.length);
      // Once its reconciliation lets go (lease ended), the window moves on.
      await b.lease(oldest?.id ?? '', null);
      expect(
        (await a.begin({ fingerprint: fingerprint(), request: request(9), window: { ...window, now } }))
          .state,
      ).toBe('pending');
    });

    it('takes a pending attempt for an orphan when its lease ran out, and gives it a reconciliation lease', async () => {
      const live = await a.begin({
        fingerprint: fingerprint(),
        request: request(1),
        leaseUntil: now + 5_000,
      });
      const dead = await a.begin({
        fingerprint: fingerprint(),
        request: request(2),
        leaseUntil: now + 1_000,
      });
      expect(await b.lease(live.id, now + 10_000)).toBe(true);
      now += 2_000;
      const recovered = (await b.recoverPending(now - 90_000, now + 30_000)).map((attempt) => attempt.id);
      expect(recovered).toContain(dead.id);
      expect(recovered).not.toContain(live.id);
      expect(await a.get(dead.id)).toMatchObject({
        state: 'unknown',
        settledBy: 'restart',
        leaseUntil: now + 30_000,
      });
      expect((await a.get(live.id))?.state).toBe('pending');
      await a.settle(live.id, { state: 'created', settledBy: 'answer', prepostagemId: `PP-${live.id}` });
      expect(await b.lease(live.id, now + 10_000)).toBe(false);
    });

    it('finds attempts by order, tracking code or recipient, any case, page by page', async () => {
      const tag = fingerprint().replace(/\W/g, '');
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        now += 1;
        const attempt = await a.begin({
          fingerprint: fingerprint(),
          request: request(i),
          orderId: `PED-${tag}-${i}`,
          recipient: i === 3 ? `Conceição ${tag}` : 'Ana',
        });
        ids.push(attempt.id);
      }
      await a.settle(ids[1] ?? '', {
        state: 'created',
        settledBy: 'answer',
        prepostagemId: `PP-${tag}`,
        trackingCode: `DG${tag}BR`,
      });
      expect((await b.list({ q: `ped-${tag}` })).map((x) => x.id)).toEqual([...ids].reverse());
      expect((await b.list({ q: `dg${tag}` })).map((x) => x.id)).toEqual([ids[1]]);
      expect((await b.list({ q: `conceição ${tag}`.toUpperCase().toLowerCase() })).map((x) => x.id)).toEqual([
        ids[3],
      ]);
      // A literal % or _ is not a wildcard.
      expect(await b.list({ q: '%' })).toEqual([]);
      const page1 = await b.list({ q: tag, limit: 2 });
      const last = page1.at(-1);
      const page2 = await b.list({
        q: tag,
        limit: 2,
        before: last && { createdAt: last.createdAt, id: last.id },
      });
      expect([...page1, ...page2].map((x) => x.id)).toEqual([ids[4], ids[3], ids[2], ids[1]]);
    });

    it('keeps why an attempt is unknown as a column, cleared when it is settled', async () => {
      const attempt = await a.begin({ fingerprint: fingerprint(), request: request(1) });
      await a.settle(attempt.id, { state: 'unknown', settledBy: 'answer', unknownWhy: 'binding_conflict' });
      expect((await b.get(attempt.id))?.unknownWhy).toBe('binding_conflict');
      await b.explain(attempt.id, 'ambiguous', 'two platform attempts match');
      expect(await a.get(attempt.id)).toMatchObject({
        unknownWhy: 'ambiguous',
        note: 'two platform attempts match',
      });
      await a.settle(attempt.id, { state: 'not_sent', settledBy: 'operator' });
      expect((await b.get(attempt.id))?.unknownWhy).toBeNull();
    });
  });
}
