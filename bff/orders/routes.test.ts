import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { OrderLookupResponseSchema } from '../../shared/order-lookup.ts';
import type { TrackingLookupResult } from '../../shared/tracking-lookup.ts';
import { CounterPolicy, type KeyedLimit, MemoryCounter } from '../../shared/windowed-counter.ts';
import { parseConfig } from '../config.ts';
import { errorHandler, notFound } from '../http/errors.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';
import { sqliteLedger, type TestLedger } from '../labels/testing/ledgers.ts';
import { createLogger } from '../logger.ts';
import type { TrackingService } from '../tracking/service.ts';
import { ShareSpent } from '../tracking/visitor-share.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { OrderLookup } from './lookup.ts';
import { LookupThrottle } from './lookup-throttle.ts';
import { NOT_FOUND_FLOOR_MS, orderRoutes } from './routes.ts';

/**
 * `POST /api/orders/lookup` in process: the route over a real ledger (node:sqlite in memory), the real throttle and
 * visitor limit in memory, and a scripted tracking service (its answers, or its refusals). orders.test.ts and
 * lookup-race.test.ts state the same through a started BFF and the sandbox.
 */
const ORIGIN = 'https://loja.example';
const config = parseConfig({ SHIPPING_SECRET_KEY: 'mk_test_demo', BFF_ALLOWED_ORIGINS: ORIGIN });

let ledger: TestLedger;
let server: Server;
let url: string;
/** Each floor wait the route asked for, and when (on `Date.now`, the route's clock). */
let waits: { ms: number; at: number }[];
/** What the tracking service was asked (codes, visitor), and what it answers. */
let asked: { codes: readonly string[]; visitor: string | undefined }[];
let trackingAnswer: (codes: readonly string[]) => Promise<TrackingLookupResult[]>;
let limits: { perVisitor: number; perOrder: number };
let visitorLimiter: KeyedLimit;
let orderLedger: Pick<LedgerStore, 'byOrder' | 'get'>;

/** The spec 7.1 envelope, with the codes of our own (`order_not_found`) too. */
const ErrorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

const found = (code: string): TrackingLookupResult => ({ code, found: true, delivered: false, events: [] });

beforeEach(() => {
  ledger = sqliteLedger({ dataDir: ':memory:' });
  orderLedger = ledger;
  waits = [];
  asked = [];
  trackingAnswer = async (codes) => codes.map(found);
  limits = { perVisitor: 10, perOrder: 5 };
  visitorLimiter = new CounterPolicy(new MemoryCounter(), 'visitor', { calls: 100, seconds: 60 });
});
afterEach(async () => {
  // a request left hanging (by a broken route) must not hold the test up: its connection is closed with the server
  server?.closeAllConnections();
  if (server?.listening) await new Promise((done) => server.close(done));
  await ledger.close();
});

/** Starts the route on port 0 with the test's deps as they are now (the floor recorded in `waits`, unless `realWait`). */
async function start(
  promised?: <T extends TrackingLookupResult>(results: T[]) => Promise<T[]>,
  realWait = false,
): Promise<void> {
  const tracking: Pick<TrackingService, 'lookup'> = {
    lookup: async (codes, visitor) => {
      asked.push({ codes, visitor });
      return trackingAnswer(codes);
    },
  };
  const app = express();
  app.set('trust proxy', true);
  app.use(
    orderRoutes({
      config,
      orders: new OrderLookup({ byOrder: (id) => orderLedger.byOrder(id), get: (id) => orderLedger.get(id) }),
      tracking,
      limiter: visitorLimiter,
      throttle: new LookupThrottle({
        visitors: new CounterPolicy(new MemoryCounter(), 'lookup-visitor', {
          calls: limits.perVisitor,
          seconds: 900,
        }),
        orders: new CounterPolicy(new MemoryCounter(), 'lookup-order', {
          calls: limits.perOrder,
          seconds: 900,
        }),
      }),
      ...(realWait ? {} : { wait: async (ms: number) => void waits.push({ ms, at: Date.now() }) }),
      ...(promised ? { promised } : {}),
    }),
  );
  app.use(notFound);
  app.use(errorHandler(createLogger({ level: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/orders/lookup`;
}

const lookup = (body: unknown, visitor = '203.0.113.7', headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': visitor, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

let n = 0;
async function label(orderId: string, volume: number, cep = '20040-020') {
  const attempt = await ledger.begin({
    fingerprint: `fp-${++n}`,
    orderId,
    volume,
    request: JSON.stringify({ recipient: { endereco: { cep } } }),
  });
  return ledger.settle(attempt.id, {
    state: 'created',
    settledBy: 'answer',
    prepostagemId: `PP${n}`,
    trackingCode: `QB${String(n).padStart(8, '0')}5BR`,
  });
}

describe('POST /api/orders/lookup, in process', () => {
  it("answers the order's parcels in volume order, tracked for this visitor, never cached", async () => {
    const second = await label('PED-1', 2);
    const first = await label('PED-1', 1);
    await start();
    const res = await lookup({ orderId: ' PED-1 ', cep: '20040020' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(OrderLookupResponseSchema.parse(await res.json())).toEqual({
      orderId: 'PED-1',
      results: [found(first.trackingCode ?? ''), found(second.trackingCode ?? '')],
    });
    expect(asked).toEqual([{ codes: [first.trackingCode, second.trackingCode], visitor: '203.0.113.7' }]);
    expect(waits).toEqual([]);
  });

  it('adds the delivery promise of the parcels when the store keeps them', async () => {
    const only = await label('PED-2', 1);
    const promise = { from: '2026-12-03', to: '2026-12-05', basis: 'history' as const, parcels: 40 };
    await start(async (results) => results.map((result) => ({ ...result, promise })));
    const body = OrderLookupResponseSchema.parse(
      await (await lookup({ orderId: 'PED-2', cep: '20040020' })).json(),
    );
    expect(body.results).toEqual([{ ...found(only.trackingCode ?? ''), promise }]);
  });

  it('answers an unknown order and a wrong CEP with the same 404, each no sooner than the floor', async () => {
    await label('PED-3', 1);
    await start();
    const sent = [Date.now()];
    const unknown = await lookup({ orderId: 'PED-404', cep: '20040020' });
    sent.push(Date.now());
    const wrong = await lookup({ orderId: 'PED-3', cep: '20040021' });
    expect(unknown.status).toBe(404);
    expect(wrong.status).toBe(404);
    const bodies = [await unknown.json(), await wrong.json()];
    expect(ErrorBodySchema.parse(bodies[0]).error.code).toBe('order_not_found');
    expect(bodies[1]).toEqual(bodies[0]);
    // What is left of the floor after the work, never more than it: each wait ends no sooner than the floor after
    // the request was sent (on a busy machine a lookup slower than the floor waits 0 ms, and this still holds).
    expect(waits).toHaveLength(2);
    waits.forEach(({ ms, at }, i) => {
      expect(ms).toBeLessThanOrEqual(NOT_FOUND_FLOOR_MS);
      expect(at + ms).toBeGreaterThanOrEqual((sent[i] ?? Number.NaN) + NOT_FOUND_FLOOR_MS);
    });
    expect(asked).toEqual([]);
  });

  it('waits out the floor on the clock when no wait is given', async () => {
    await start(undefined, true);
    const started = performance.now();
    expect((await lookup({ orderId: 'PED-404', cep: '20040020' })).status).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(NOT_FOUND_FLOOR_MS - 1);
  });

  it('refuses a malformed body naming the field, before it counts or looks anything up', async () => {
    limits.perVisitor = 1;
    await label('PED-4', 1);
    await start();
    for (const body of [
      { orderId: '', cep: '20040020' },
      { orderId: 'PED-4', cep: 'x' },
      { orderId: 'PED-4' },
    ]) {
      const res = await lookup(body);
      expect(res.status).toBe(400);
      expect(ErrorBodySchema.parse(await res.json()).error).toMatchObject({ code: 'invalid_body' });
    }
    const named = await (await lookup({ orderId: 'PED-4', cep: 'x' })).json();
    expect(ErrorBodySchema.parse(named).error.message).toContain('cep');
    // nothing was counted: the one failure this visitor may make is still there
    expect((await lookup({ orderId: 'PED-404', cep: '20040020' })).status).toBe(404);
    expect((await lookup({ orderId: 'PED-405', cep: '20040020' })).status).toBe(429);
  });

  it('answers 429 with Retry-After once the failures are spent, and counts a right answer as none', async () => {
    limits.perVisitor = 2;
    await label('PED-5', 1);
    await start();
    for (let i = 0; i < 3; i++)
      expect((await lookup({ orderId: 'PED-5', cep: '20040020' })).status).toBe(200);
    expect((await lookup({ orderId: 'PED-6', cep: '20040020' })).status).toBe(404);
    expect((await lookup({ orderId: 'PED-7', cep: '20040020' })).status).toBe(404);
    const refused = await lookup({ orderId: 'PED-5', cep: '20040020' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('900');
    expect(ErrorBodySchema.parse(await refused.json()).error).toEqual({
      code: 'rate_limited',
      message: 'Too many failed lookups; retry in 900 s.',
    });
    // another visitor still may
    expect((await lookup({ orderId: 'PED-5', cep: '20040020' }, '198.51.100.9')).status).toBe(200);
  });

  it('takes the attempt back when the ledger failed, not the guess', async () => {
    limits.perVisitor = 1;
    orderLedger = {
      byOrder: async () => {
        throw new Error('the ledger is away');
      },
      get: async () => undefined,
    };
    await start();
    expect((await lookup({ orderId: 'PED-8', cep: '20040020' })).status).toBe(500);
    orderLedger = ledger;
    await label('PED-8', 1);
    expect((await lookup({ orderId: 'PED-8', cep: '20040020' })).status).toBe(200);
    expect((await lookup({ orderId: 'PED-404', cep: '20040020' })).status).toBe(404);
  });

  it('answers 429 when the visitor’s share of tracking is spent and 502 when tracking fails, neither a failed guess', async () => {
    limits.perVisitor = 1;
    await label('PED-9', 1);
    await start();
    trackingAnswer = async () => {
      throw new ShareSpent(7);
    };
    const spent = await lookup({ orderId: 'PED-9', cep: '20040020' });
    expect(spent.status).toBe(429);
    expect(spent.headers.get('retry-after')).toBe('7');
    trackingAnswer = async () => {
      throw new UpstreamError('unavailable', 'the platform is down', { status: 503 });
    };
    const failed = await lookup({ orderId: 'PED-9', cep: '20040020' });
    expect(failed.status).toBe(502);
    expect(ErrorBodySchema.parse(await failed.json()).error.code).toBe('track_failed');
    trackingAnswer = async (codes) => codes.map(found);
    expect((await lookup({ orderId: 'PED-9', cep: '20040020' })).status).toBe(200);
  });

  it("answers 429 when the visitor's limit of lookups is spent, before reading the body", async () => {
    visitorLimiter = { take: async () => ({ ok: false, retryAfterSeconds: 12 }) };
    await start();
    const res = await lookup('not even json');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('12');
  });

  it('takes JSON of at most 2 kB, by POST only, and answers the store’s origin', async () => {
    await start();
    const text = await lookup('{"orderId":"PED-1"', undefined, { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
    expect(ErrorBodySchema.parse(await text.json()).error.code).toBe('invalid_json');
    const large = await lookup({ orderId: 'PED-1', cep: '20040020', pad: 'x'.repeat(2_100) });
    expect(large.status).toBe(413);
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const preflight = await fetch(url, { method: 'OPTIONS', headers: { origin: ORIGIN } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    // its rules stay on its own path: another route's preflight and body are not its business
    const elsewhere = url.replace('/api/orders/lookup', '/api/elsewhere');
    expect((await fetch(elsewhere, { method: 'OPTIONS', headers: { origin: ORIGIN } })).status).toBe(404);
    const plain = await fetch(elsewhere, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(plain.status).toBe(404);
    const root = await fetch(url.replace('/api/orders/lookup', '/'), { method: 'POST', body: 'x' });
    expect(root.status).toBe(404);
  });
});
