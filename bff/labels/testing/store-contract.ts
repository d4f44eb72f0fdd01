import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AlreadyCreatedError,
  BindingConflictError,
  IdempotencyConflictError,
  OpenAttemptConflictError,
  TransitionError,
} from '../ledger.ts';
import type { LedgerStore } from '../ledger-store.ts';

/** Two stores over one storage (two processes, or two BFF instances), on a clock the test moves. */
export interface StorePair {
  a: LedgerStore;
  b: LedgerStore;
  close(): Promise<void>;
}

export type OpenPair = (now: () => number, keyWindowMs: number) => Promise<StorePair>;

const DAY = 86_400_000;
const request = (n: number) => JSON.stringify({ order: n });

/**
 * The guarantees the `LedgerStore` gives, run on each database it supports (node:sqlite and PostgreSQL): they come
 * from the storage, so they hold between two stores sharing it.
 */
export function describeLedgerStore(name: string, open: OpenPair): void {
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
      });
      expect(await b.openAttempt(fp)).toMatchObject({ id: attempt.id });
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
      await a.note(older.id, 'checked by the operator');
      expect((await b.get(older.id))?.note).toBe('checked by the operator');
      expect(await a.healthy()).toBe(true);
    });
  });
}
