import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import type { TrackingResult } from '../../shared/tracking.ts';
import { createLogger } from '../logger.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { createRestClient } from '../upstream/rest-client.ts';
import { TrackingCache } from './cache.ts';
import { TrackingService, type TrackingServiceOptions } from './service.ts';

// The service against a real sandbox through the real REST client: what a visitor gets from the cache, the
// coalescer and the deadline, and what the merchant reads in the log. Clocks start far from 0 (an epoch in 2026).
const T0 = 1_795_000_000_000;
const DELIVERED = 'DG049186226BR';
const MOVING = 'SW371675211BR';
const CREATED = 'QB123456785BR';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 10_000, seconds: 60 } });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.control('reset');
});

async function upstreamCalls(): Promise<number> {
  const stats = (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
    stores: Record<string, Record<string, number>>;
  };
  return stats.stores['loja-demo']?.['POST /v1/tracking'] ?? 0;
}

function setUp(options: { key?: string; deadlineMs?: number; extra?: Partial<TrackingServiceOptions> } = {}) {
  const lines: { level: number; msg: string; [field: string]: unknown }[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger({ level: 'info', destination });
  const clock = { now: T0 };
  const cache = new TrackingCache({ now: () => clock.now });
  const client = createRestClient({
    apiUrl: sandbox.url,
    secretKey: options.key ?? 'mk_test_demo',
    logger,
    retries: 0,
    timeoutMs: 2_000,
    totalTimeoutMs: 2_000,
  });
  const service = new TrackingService({
    client,
    cache,
    logger,
    windowMs: 1,
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
    ...options.extra,
  });
  return { service, cache, clock, lines };
}

const codes = (results: { code: string }[]) => results.map((r) => r.code);

describe('TrackingService.lookup', () => {
  it('answers one result per code in the order asked, duplicates answered again, codes normalized', async () => {
    const { service } = setUp();
    const results = await service.lookup([MOVING.toLowerCase(), DELIVERED, ` ${MOVING} `]);
    expect(codes(results)).toEqual([MOVING, DELIVERED, MOVING]);
    expect(results[1]).toMatchObject({ found: true, delivered: true });
    expect(results[0]).toEqual(results[2]);
    expect(await upstreamCalls()).toBe(1);
  });

  it('answers from the cache while fresh: no upstream call', async () => {
    const { service, clock } = setUp();
    await service.lookup([MOVING]);
    clock.now += 4 * 60_000; // moving results are fresh for 5 minutes
    const again = await service.lookup([MOVING]);
    expect(again[0]).toMatchObject({ code: MOVING, found: true });
    expect(again[0]).not.toHaveProperty('stale');
    expect(await upstreamCalls()).toBe(1);
  });

  it('serves a result due for revalidation at once and refreshes the cache behind it', async () => {
    const { service, cache, clock } = setUp();
    await service.lookup([MOVING]);
    clock.now += 6 * 60_000;
    const answer = await service.lookup([MOVING]);
    expect(answer[0]).toMatchObject({ code: MOVING, found: true });
    await expect.poll(upstreamCalls).toBe(2);
    await expect.poll(() => cache.get(MOVING)?.freshness).toBe('fresh');
  });

  it('asks the platform again once a result has expired', async () => {
    const { service, clock } = setUp();
    await service.lookup([CREATED]);
    clock.now += 11 * 60_000; // past twice the 5-minute TTL
    await service.lookup([CREATED]);
    expect(await upstreamCalls()).toBe(2);
  });

  it('serves the last known result marked stale when the platform fails, and never marks a fresh one', async () => {
    const { service, clock, lines } = setUp();
    await service.lookup([MOVING, DELIVERED]);
    clock.now += 11 * 60_000; // moving expired; delivered still fresh (24 h)
    await sandbox.control('faults', { target: 'tracking', mode: 'error502', times: 5 });
    const results = await service.lookup([MOVING, DELIVERED]);
    expect(results[0]).toMatchObject({ code: MOVING, found: true, stale: true });
    expect(results[1]).toMatchObject({ code: DELIVERED, delivered: true });
    expect(results[1]).not.toHaveProperty('stale');
    const warnings = lines.filter((line) => line.msg === 'tracking: upstream lookup failed');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, codes: 1 });
  });

  it('fails with an UpstreamError when a code has no answer at all, one warning per failed call', async () => {
    const { service, lines } = setUp();
    await sandbox.control('faults', { target: 'tracking', mode: 'error502', times: 5 });
    const failure = await service.lookup([MOVING, CREATED]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ failure: 'unavailable' });
    const warnings = lines.filter((line) => line.msg === 'tracking: upstream lookup failed');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, codes: 2 });
    expect(String(warnings[0]?.error)).toMatch(/502|track_failed|unavailable/i);
  });

  it('tells the merchant, as an error, that the platform refused the key, without the key', async () => {
    const { service, lines } = setUp({ key: 'mk_test_unknown_key' });
    const failure = await service.lookup([MOVING]).catch((error: unknown) => error);
    expect(failure).toMatchObject({ failure: 'config', status: 401 });
    const errors = lines.filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      msg: 'tracking: the platform refused the BFF; check SHIPPING_SECRET_KEY and the plan',
      status: 401,
      codes: 1,
    });
    expect(typeof errors[0]?.code).toBe('string');
    expect(JSON.stringify(lines)).not.toContain('mk_test_unknown_key');
    expect(lines.some((line) => line.msg === 'tracking: upstream lookup failed')).toBe(false);
  });

  it('answers within its deadline when the platform is slow: stale with a last result, an error without', async () => {
    const { service, clock } = setUp({ deadlineMs: 300 });
    await service.lookup([MOVING]);
    clock.now += 11 * 60_000;
    // The platform answers after 20 s, past the client's own 2 s: only the deadline can answer these lookups, so what
    // they answer proves it — no stopwatch (a 1.4 s bound on two 300 ms deadlines raced a busy machine).
    await sandbox.control('faults', { target: 'tracking', mode: 'latency', latencyMs: 20_000, times: 2 });
    const [stale] = await service.lookup([MOVING]);
    expect(stale).toMatchObject({ code: MOVING, stale: true });
    const failure = await service.lookup([CREATED]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ failure: 'unavailable', message: 'no upstream answer within 300 ms' });
  });

  it('refuses a code that is not S10 before any upstream call, so it cannot fail a shared batch', async () => {
    const { service } = setUp();
    await expect(service.lookup(['DG049186225BR'])).rejects.toThrow();
    expect(await upstreamCalls()).toBe(0);
  });

  it('turns an unexpected failure of the loader into UpstreamError unavailable', async () => {
    const broken: TrackingServiceOptions['shared'] = () => ({
      load: async () => {
        throw new TypeError('socket hang up');
      },
    });
    const { service } = setUp({ extra: { shared: broken } });
    const failure = await service.lookup([MOVING]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ failure: 'unavailable', message: 'tracking lookup failed' });
  });

  it('hands the batch and its own coalescer to a shared loader, which fills the cache', async () => {
    const loaded: string[] = [];
    const shared: TrackingServiceOptions['shared'] = (batch, local) => ({
      load: async (code) => {
        loaded.push(code);
        const viaBatch = (await batch([code])).get(code) as TrackingResult;
        const viaLocal = await local.load(code);
        expect(viaLocal).toEqual(viaBatch);
        return viaBatch;
      },
    });
    const { service, cache } = setUp({ extra: { shared } });
    const [result] = await service.lookup([DELIVERED]);
    expect(result).toMatchObject({ code: DELIVERED, delivered: true });
    expect(loaded).toEqual([DELIVERED]);
    expect(cache.get(DELIVERED)?.freshness).toBe('fresh');
  });

  it('does not keep a visitor waiting on a slow platform for a result due for revalidation', async () => {
    const { service, clock } = setUp({ deadlineMs: 1_000 });
    await service.lookup([MOVING]);
    clock.now += 6 * 60_000;
    // The platform answers after 20 s (the client gives up at 2 s): a lookup that waited for it would get its result
    // only at the 1 s deadline, marked stale. Not stale is the proof, with no stopwatch racing a busy machine.
    await sandbox.control('faults', { target: 'tracking', mode: 'latency', latencyMs: 20_000, times: 1 });
    const [answer] = await service.lookup([MOVING]);
    expect(answer).toMatchObject({ code: MOVING, found: true });
    expect(answer).not.toHaveProperty('stale');
  });

  it('leaves no deadline timer running once it has answered (they would pile up under load)', async () => {
    const { service } = setUp({ deadlineMs: 60_000 });
    await service.lookup([DELIVERED]);
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    for (let i = 0; i < 50; i++) await service.lookup([DELIVERED]);
    expect(timers() - before).toBeLessThan(10);
  });

  it('gathers the lookups of its whole coalescing window into one platform call', async () => {
    // The window on the test's clock and scheduler: a 60 ms sleep inside a real 300 ms window let a starved machine
    // end the window before the second lookup (two calls).
    let at = T0;
    const pending: (() => void)[] = [];
    const { service } = setUp({
      extra: { windowMs: 300, coalesceNow: () => at, schedule: (send) => void pending.push(send) },
    });
    const first = service.lookup([DELIVERED]);
    at += 60;
    const second = service.lookup([MOVING]);
    // Both have read the (in-memory) cache and joined the batch once the pending callbacks have run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await upstreamCalls()).toBe(0);
    // The window counts from the first lookup, and keeps waiting while lookups still come (the last within a
    // window): over once no lookup came for 300 ms.
    at += 300;
    for (const send of pending.splice(0)) send();
    expect(codes(await first)).toEqual([DELIVERED]);
    expect(codes(await second)).toEqual([MOVING]);
    expect(await upstreamCalls()).toBe(1);
  });

  it('waits for the coalescing window it is given before calling the platform', async () => {
    const pending: (() => void)[] = [];
    const { service } = setUp({ extra: { schedule: (send) => void pending.push(send) } });
    const answer = service.lookup([DELIVERED, MOVING]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await upstreamCalls()).toBe(0);
    for (const send of pending.splice(0)) send();
    expect(codes(await answer)).toEqual([DELIVERED, MOVING]);
    expect(await upstreamCalls()).toBe(1);
  });
});
