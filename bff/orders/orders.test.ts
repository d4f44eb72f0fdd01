import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { OrderLookupResponseSchema } from '../../shared/order-lookup.ts';
import { makeS10 } from '../../shared/s10.ts';
import { Clocks, issueLabel, orderLabel } from '../notifications/testing/harness.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { TrackingLinks } from './links.ts';
import { NOT_FOUND_FLOOR_MS } from './routes.ts';

let sandbox: RunningSandbox;
let bff: RunningBff;
let clocks: Clocks;
/** Each floor wait the route asked for, and when (the route's clock is `Date.now`, as here). */
const waits: { ms: number; at: number }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.control('reset');
  clocks = new Clocks(sandbox);
  waits.length = 0;
  bff = await startBff(
    sandbox.url,
    { BFF_TRUST_PROXY: '1' },
    {
      now: clocks.now,
      notifications: { timers: false },
      lookupWait: async (ms) => void waits.push({ ms, at: Date.now() }),
    },
  );
});
afterEach(() => bff.stop());

/** `POST /api/orders/lookup` from a visitor (their address as the trusted proxy wrote it). */
const lookup = (body: unknown, visitor = '203.0.113.7') =>
  fetch(`${bff.url}/api/orders/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': visitor },
    body: JSON.stringify(body),
  });

describe('POST /api/orders/lookup', () => {
  it('finds an order by its number and the destination CEP, with one result per volume in volume order', async () => {
    const second = await issueLabel(bff.url, orderLabel('PED-7007', { volume: 2, weightGrams: 1200 }));
    const first = await issueLabel(bff.url, orderLabel('PED-7007'));
    const res = await lookup({ orderId: 'PED-7007', cep: '20040-020' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = OrderLookupResponseSchema.parse(await res.json());
    expect(body.orderId).toBe('PED-7007');
    expect(body.results.map((result) => result.code)).toEqual([first.trackingCode, second.trackingCode]);
    expect(body.results.every((result) => result.found)).toBe(true);
    // The CEP as the shopper types it: with or without the dash and spaces.
    expect((await lookup({ orderId: 'PED-7007', cep: ' 20040020' })).status).toBe(200);
  }, 30_000);

  it('answers an unknown order and a wrong CEP alike: the same 404 body, after the same time floor', async () => {
    await issueLabel(bff.url, orderLabel('PED-8008'));
    const sent: number[] = [];
    const timed = (body: unknown) => {
      sent.push(Date.now());
      return lookup(body);
    };
    const wrongCep = await timed({ orderId: 'PED-8008', cep: '20040-021' });
    const unknown = await timed({ orderId: 'PED-0000', cep: '20040-020' });
    // A look-alike: the right CEP of another order.
    const otherOrders = await timed({ orderId: 'PED-8009', cep: '20040-020' });
    const bodies = await Promise.all([wrongCep, unknown, otherOrders].map((res) => res.text()));
    for (const res of [wrongCep, unknown, otherOrders]) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-length')).toBe(wrongCep.headers.get('content-length'));
    }
    expect(new Set(bodies).size).toBe(1);
    expect(ErrorBodySchema.safeParse(JSON.parse(bodies[0] ?? '')).success).toBe(false);
    expect(JSON.parse(bodies[0] ?? '')).toEqual({
      error: {
        code: 'order_not_found',
        message: 'No order with this number and CEP. Check both and try again.',
      },
    });
    // Each failure waited for what was left of the floor: none was answered before the floor had passed since it
    // was sent. Stated on when the wait ends, not on how long the lookup took: it holds on a busy machine too (a
    // lookup slower than the floor waits 0 ms and still ends after it).
    expect(waits).toHaveLength(3);
    waits.forEach(({ ms, at }, i) => {
      expect(ms).toBeLessThanOrEqual(NOT_FOUND_FLOOR_MS);
      expect(at + ms).toBeGreaterThanOrEqual((sent[i] ?? Number.NaN) + NOT_FOUND_FLOOR_MS);
    });
  }, 30_000);

  it('refuses a malformed body with the field named, before looking anything up', async () => {
    const res = await lookup({ orderId: 'PED-1', cep: '123' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_body' } });
    expect((await lookup({ orderId: '', cep: '20040-020' })).status).toBe(400);
    expect((await lookup({ orderId: 'PED-1', cep: '20040-020', email: 'x' })).status).toBe(400);
    // A NUL or another control character: a clear 400 (PostgreSQL cannot even store a NUL: it was a 500 there).
    for (const orderId of ['PED\u00001', 'PED\n1', 'PED\u007f']) {
      const controlled = await lookup({ orderId, cep: '20040-020' });
      expect(controlled.status).toBe(400);
      expect(await controlled.json()).toMatchObject({ error: { code: 'invalid_body' } });
    }
    expect(waits).toHaveLength(0);
  });

  it('throttles failed attempts per visitor: the 11th try within 15 minutes is 429, a right answer included', async () => {
    await issueLabel(bff.url, orderLabel('PED-9009'));
    for (let i = 0; i < 10; i++) {
      expect((await lookup({ orderId: `GUESS-${i}`, cep: '20040-020' })).status).toBe(404);
    }
    const blocked = await lookup({ orderId: 'PED-9009', cep: '20040-020' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
    // Another visitor is not held back.
    expect((await lookup({ orderId: 'PED-9009', cep: '20040-020' }, '198.51.100.9')).status).toBe(200);
  }, 30_000);

  it('throttles failed attempts per order: after 5 wrong CEPs from 5 visitors, a 6th visitor waits too', async () => {
    await issueLabel(bff.url, orderLabel('PED-1010'));
    for (let i = 0; i < 5; i++) {
      expect((await lookup({ orderId: 'PED-1010', cep: `3004002${i}` }, `198.51.100.${i + 1}`)).status).toBe(
        404,
      );
    }
    expect((await lookup({ orderId: 'PED-1010', cep: '20040-020' }, '198.51.100.99')).status).toBe(429);
    // The same counting for an order that does not exist: a 429 tells nothing about existence.
    for (let i = 0; i < 5; i++) await lookup({ orderId: 'NOPE-1', cep: '20040-020' }, `192.0.2.${i + 1}`);
    expect((await lookup({ orderId: 'NOPE-1', cep: '20040-020' }, '192.0.2.99')).status).toBe(429);
  }, 30_000);

  it("takes the visitor's fair share of the tracking budget, as /api/tracking does; a right answer refused so is no failure", async () => {
    await issueLabel(bff.url, orderLabel('PED-1313'));
    const visitor = '203.0.113.13';
    // The share (a tenth of SHIPPING_RATE_LIMIT 60/60): 6 lookups a minute of codes not in the cache.
    for (let i = 0; i < 6; i++) {
      const res = await bff.track([makeS10('QB', 76_000_000 + i)], { 'x-forwarded-for': visitor });
      expect(res.status).toBe(200);
    }
    const spent = await lookup({ orderId: 'PED-1313', cep: '20040-020' }, visitor);
    expect(spent.status).toBe(429);
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await spent.json()).toMatchObject({
      error: { code: 'rate_limited', message: expect.stringMatching(/codes not seen recently/) },
    });
    // Another visitor is served, which fills the cache: a cache hit is free, for the first visitor too.
    expect((await lookup({ orderId: 'PED-1313', cep: '20040-020' }, '198.51.100.13')).status).toBe(200);
    expect((await lookup({ orderId: 'PED-1313', cep: '20040-020' }, visitor)).status).toBe(200);
    // The refused right answer was not counted against the order: 5 wrong CEPs are still to come before a 429.
    for (let i = 0; i < 5; i++) {
      expect((await lookup({ orderId: 'PED-1313', cep: `3004002${i}` }, `192.0.2.${i + 30}`)).status).toBe(
        404,
      );
    }
    expect((await lookup({ orderId: 'PED-1313', cep: '20040-020' }, visitor)).status).toBe(429);
  }, 30_000);
});

describe('signed links /track/s/<token>', () => {
  it('open the order page; carry no personal data; a tampered, expired or foreign token gets one 404 page', async () => {
    const label = await issueLabel(bff.url, orderLabel('PED-1111'));
    const url = bff.links.url(label.attemptId ?? '');
    const token = url.split('/track/s/')[1] ?? '';
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(ok.headers.get('referrer-policy')).toBe('no-referrer');
    const page = await ok.text();
    expect(page).toContain('<h1>Pedido PED-1111</h1>');
    expect(page).toContain(`codes="${label.trackingCode}"`);

    const decoded = Buffer.from(token.split('.')[0] ?? '', 'base64url').toString();
    expect(decoded).toMatch(/^[0-9a-f-]{36}\.\d+$/);
    for (const personal of ['Maria', 'maria@cliente.example', '20040', 'PED-1111', label.trackingCode]) {
      expect(token).not.toContain(personal);
      expect(decoded).not.toContain(personal);
    }

    const bad = async (path: string) => {
      const res = await fetch(`${bff.url}/track/s/${path}`);
      return { status: res.status, body: await res.text() };
    };
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const otherKey = new TrackingLinks({ secret: Buffer.alloc(32, 1), publicUrl: bff.url }).token(
      label.attemptId ?? '',
    );
    const [payload, tag] = token.split('.');
    const longer = Buffer.from(
      `${
        Buffer.from(payload ?? '', 'base64url')
          .toString()
          .split('.')[0]
      }.9999999999`,
    ).toString('base64url');
    const answers = [
      await bad(flipped),
      await bad(otherKey),
      await bad(`${longer}.${tag}`),
      await bad('x'.repeat(5000)),
    ];
    clocks.offsetMs += 91 * 86_400_000;
    answers.push(await bad(token));
    for (const answer of answers) expect(answer.status).toBe(404);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(answers[0]?.body).toContain('<h1>Link inválido ou expirado</h1>');
    expect(answers[0]?.body).not.toContain('PED-1111');
  }, 30_000);

  it('keeps the generated key across restarts (in the ledger database); a configured key wins', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bff-links-'));
    const first = await startBff(
      sandbox.url,
      { BFF_DATA_DIR: dataDir },
      { notifications: { timers: false } },
    );
    const label = await issueLabel(first.url, orderLabel('PED-1212'));
    const url = first.links.url(label.attemptId ?? '');
    await first.stop();
    const again = await startBff(
      sandbox.url,
      { BFF_DATA_DIR: dataDir },
      { notifications: { timers: false } },
    );
    try {
      expect((await fetch(url.replace(first.url, again.url))).status).toBe(200);
    } finally {
      await again.stop();
    }
    const configured = await startBff(
      sandbox.url,
      { BFF_DATA_DIR: dataDir, BFF_LINK_SECRET: 'z'.repeat(40) },
      { notifications: { timers: false } },
    );
    try {
      // A configured key wins: links signed with the generated one no longer open.
      expect((await fetch(url.replace(first.url, configured.url))).status).toBe(404);
    } finally {
      await configured.stop();
    }
  }, 30_000);
});

describe('the tracking page speaks the visitor language', () => {
  it('picks ?lang=, else Accept-Language, else pt-BR, and tells caches so', async () => {
    const page = async (query: string, language?: string) => {
      const res = await fetch(`${bff.url}/track${query}`, {
        headers: language ? { 'accept-language': language } : {},
      });
      expect(res.headers.get('vary')).toMatch(/Accept-Language/);
      return res.text();
    };
    expect(await page('')).toContain('<html lang="pt-BR">');
    const en = await page('', 'en-US,en;q=0.9');
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('<h1>Track your order</h1>');
    expect(en).toContain('<shipping-tracking lang="en">');
    const es = await page('?lang=es', 'en');
    expect(es).toContain('<h1>Seguir tu pedido</h1>');
    expect(es).toContain('<shipping-tracking lang="es">');
    expect(await page('?lang=xx', 'fr')).toContain('<html lang="pt-BR">');
  });
});
