import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
} from '../../sandbox/checkouts/accounts.ts';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { shopifyHmac } from '../../shared/checkouts/shopify.ts';
import { errorHandler } from '../http/errors.ts';
import { createLogger } from '../logger.ts';
import { type OrderStack, SHOPIFY_SHOP, shopifyOrder, startOrderStack } from '../orders/testing.ts';
import { BODY_CAPS, signedBody, UNVERIFIED_BYTES, UnverifiedBytes } from './signed-body.ts';

const CALLBACK_SECRET = 'shopify-callback-secret-0123456789abcdef';

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack({ BFF_SHOPIFY_CALLBACK_SECRET: CALLBACK_SECRET });
}, 30_000);
afterAll(async () => {
  await stack?.close();
});

/** The order body the sandbox's Shopify signs, for a new order number (so each test's order is its own). */
let next = 90_000;
function shopifyOrderBody(): string {
  next += 1;
  return JSON.stringify({
    id: next,
    name: `#${next}`,
    financial_status: 'paid',
    updated_at: '2026-12-01T10:00:00-03:00',
    email: 'bruno@example.com',
    shipping_address: {
      name: 'Bruno Lima',
      address1: 'Rua da Assembleia, 10',
      city: 'Rio de Janeiro',
      province_code: 'RJ',
      zip: '20040-020',
      country_code: 'BR',
    },
    shipping_lines: [{ code: 'correios-pac', title: 'PAC' }],
    line_items: [{ name: 'Camiseta', sku: 'CAM-01', quantity: 1, grams: 300, price: '59.90' }],
  });
}

function post(path: string, body: string, headers: Record<string, string>) {
  return fetch(`${stack.bff.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

async function deskOrderIds(): Promise<string[]> {
  const res = await stack.desk.get('/admin/api/orders');
  return ((await res.json()) as { orders: { orderId: string }[] }).orders.map((o) => o.orderId);
}

/** The `shopify-*` family, as shopify-app-js's WEBHOOK_HEADER_NAMES.events names it. */
function eventsHeaders(body: string, change: Record<string, string> = {}) {
  return {
    'shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body),
    'shopify-topic': 'orders/paid',
    'shopify-shop-domain': SHOPIFY_SHOP,
    'shopify-event-id': crypto.randomUUID(),
    'shopify-api-version': '2026-10',
    ...change,
  };
}

describe('Shopify webhooks in both header families', () => {
  it('takes an order signed in the shopify-* family, and one signed in both (as events send them)', async () => {
    const alone = shopifyOrderBody();
    const res = await post('/stores/shopify/webhooks', alone, eventsHeaders(alone));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: 'created' });
    const both = shopifyOrderBody();
    const headers = {
      ...eventsHeaders(both),
      'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, both),
      'x-shopify-topic': 'orders/paid',
      'x-shopify-shop-domain': SHOPIFY_SHOP,
      'x-shopify-webhook-id': crypto.randomUUID(),
    };
    expect((await post('/stores/shopify/webhooks', both, headers)).status).toBe(200);
    const ids = await deskOrderIds();
    expect(ids).toEqual(expect.arrayContaining([JSON.parse(alone).name, JSON.parse(both).name]));
  });

  it('reads the shopify-* signature first when both are sent: a forged one there is refused though the old one verifies', async () => {
    const body = shopifyOrderBody();
    const res = await post('/stores/shopify/webhooks', body, {
      ...eventsHeaders(body, { 'shopify-hmac-sha256': shopifyHmac('another-app-secret-000', body) }),
      'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect(await deskOrderIds()).not.toContain(JSON.parse(body).name);
  });

  it('takes the same delivery once whichever family carries its id (shopify-event-id, shopify-webhook-id)', async () => {
    const body = shopifyOrderBody();
    const id = crypto.randomUUID();
    const first = await post(
      '/stores/shopify/webhooks',
      body,
      eventsHeaders(body, { 'shopify-event-id': id }),
    );
    const again = await post(
      '/stores/shopify/webhooks',
      body,
      eventsHeaders(body, { 'shopify-event-id': id }),
    );
    expect(await first.json()).toEqual({ received: 'created' });
    expect(await again.json()).toEqual({ received: 'duplicate' });
  });

  it('stores nothing from a signed webhook that does not name its shop, or names a shop not connected', async () => {
    const body = shopifyOrderBody();
    const { 'shopify-shop-domain': _dropped, ...unnamed } = eventsHeaders(body);
    const none = await post('/stores/shopify/webhooks', body, unnamed);
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({
      error: { code: 'invalid_body', message: expect.stringContaining('shopify-shop-domain') },
    });
    const legacy = await post('/stores/shopify/webhooks', body, {
      'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body),
      'x-shopify-topic': 'orders/paid',
      'x-shopify-webhook-id': crypto.randomUUID(),
    });
    expect(legacy.status).toBe(400);
    for (const shop of ['outra-loja.myshopify.com', `${SHOPIFY_SHOP}.evil.com`, ' ']) {
      const foreign = await post(
        '/stores/shopify/webhooks',
        body,
        eventsHeaders(body, { 'shopify-shop-domain': shop }),
      );
      expect([200, 400]).toContain(foreign.status);
      if (foreign.status === 200) expect(await foreign.json()).toEqual({ received: 'ignored' });
    }
    expect(await deskOrderIds()).not.toContain(JSON.parse(body).name);
  });

  it("still takes the sandbox's own x-shopify-* deliveries", async () => {
    const { sent } = await stack.paid('shopify', shopifyOrder({ customer: { name: 'Elisa Prado' } }));
    expect(sent).toEqual([expect.objectContaining({ status: 200 })]);
  });
});

describe('Nuvemshop webhooks through the same check', () => {
  it('refuses an unsigned or wrongly signed body with 401 and answers a signed one', async () => {
    const body = JSON.stringify({ store_id: 1001, event: 'product/created', id: 1 });
    expect((await post('/stores/nuvemshop/webhooks', body, {})).status).toBe(401);
    const wrong = await post('/stores/nuvemshop/webhooks', body, {
      'x-linkedstore-hmac-sha256': nuvemshopHmac('another-app-secret-000', body),
    });
    expect(wrong.status).toBe(401);
    const signed = await post('/stores/nuvemshop/webhooks', body, {
      'x-linkedstore-hmac-sha256': nuvemshopHmac(SANDBOX_NUVEMSHOP_APP_SECRET, body),
    });
    expect(signed.status).toBe(200);
  });
});

describe('the Shopify carrier callback, signed or on its secret URL', () => {
  const rateRequest = JSON.stringify({
    rate: {
      origin: { country: 'BR', postal_code: '01310-100' },
      destination: { country: 'BR', postal_code: '20040-020' },
      items: [{ name: 'Camiseta', quantity: 1, grams: 300, price: 5990, requires_shipping: true }],
      currency: 'BRL',
      locale: 'pt-BR',
    },
  });
  const secretUrl = `/checkout/shopify/rates/${CALLBACK_SECRET}`;

  it('quotes an unsigned call on the secret URL, and refuses it on the plain URL', async () => {
    const plain = await post('/checkout/shopify/rates', rateRequest, {});
    expect(plain.status).toBe(401);
    const res = await post(secretUrl, rateRequest, {});
    expect(res.status).toBe(200);
    expect(((await res.json()) as { rates: unknown[] }).rates.length).toBeGreaterThan(0);
  });

  it('on the secret URL, a signature that is sent must verify; a right one is taken', async () => {
    const forged = await post(secretUrl, rateRequest, {
      'x-shopify-hmac-sha256': shopifyHmac('another-app-secret-000', rateRequest),
    });
    expect(forged.status).toBe(401);
    const newFamily = await post(secretUrl, rateRequest, {
      'shopify-hmac-sha256': shopifyHmac('another-app-secret-000', rateRequest),
    });
    expect(newFamily.status).toBe(401);
    const signed = await post(secretUrl, rateRequest, {
      'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, rateRequest),
    });
    expect(signed.status).toBe(200);
  });

  it('answers a wrong segment 404 on its headers, the announced body never read', async () => {
    const port = Number(new URL(stack.bff.url).port);
    const socket = await openRequest(port, `/checkout/shopify/rates/${'y'.repeat(40)}`, {
      'content-type': 'application/json',
      'content-length': String(1024 * 1024),
    });
    expect(await statusOf(socket)).toBe(404);
    socket.destroy();
  });

  it('answers another secret segment 404, as an unknown route, the secret in no answer', async () => {
    for (const segment of [
      CALLBACK_SECRET.slice(0, -1),
      `${CALLBACK_SECRET}x`,
      CALLBACK_SECRET.toUpperCase(),
      'x'.repeat(40),
    ]) {
      const res = await post(`/checkout/shopify/rates/${segment}`, rateRequest, {});
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain(CALLBACK_SECRET.slice(0, 12));
    }
    // Neither the right secret nor a near miss is in any log line of this BFF's run so far.
    expect(stack.bff.logs.join('\n')).not.toContain(CALLBACK_SECRET.slice(0, 12));
  });
});

/** A raw HTTP request's head, and the socket it was written to (the body is the test's to send, or not). */
async function openRequest(port: number, path: string, headers: Record<string, string>): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const head = [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  return socket;
}

/** The status line of the first answer on a socket (or `closed` when it closes without one). */
function statusOf(socket: Socket): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    socket.on('close', () => resolve('closed'));
    socket.on('error', () => resolve('closed'));
  });
}

describe('unsigned bodies bounded per connection before the signature (issue 48, finding 6)', () => {
  it('answers 250 slow connections with a megabyte each without reading their bodies, and still takes a signed order', async () => {
    const port = Number(new URL(stack.bff.url).port);
    const sockets: Socket[] = [];
    const unsigned: Promise<number | 'closed'>[] = [];
    const tooLarge: Promise<number | 'closed'>[] = [];
    for (let i = 0; i < 125; i++) {
      // No signature: refused on its headers, the megabyte never read.
      const a = await openRequest(port, '/stores/shopify/webhooks', {
        'content-type': 'application/json',
        'content-length': String(1024 * 1024),
      });
      a.write('{"id":');
      // A (bogus) signature and a megabyte: over the route's cap, refused on its headers.
      const b = await openRequest(port, '/stores/shopify/webhooks', {
        'content-type': 'application/json',
        'content-length': String(1024 * 1024),
        'x-shopify-hmac-sha256': 'AAAA',
      });
      b.write('{"id":');
      sockets.push(a, b);
      unsigned.push(statusOf(a));
      tooLarge.push(statusOf(b));
    }
    expect(new Set(await Promise.all(unsigned))).toEqual(new Set([401]));
    expect(new Set(await Promise.all(tooLarge))).toEqual(new Set([413]));
    // Refused connections are closed by the BFF, not kept to drain the megabyte.
    await Promise.all(sockets.map((s) => (s.closed ? undefined : once(s, 'close'))));
    const { sent } = await stack.paid('shopify', shopifyOrder({ customer: { name: 'Fabio Rocha' } }));
    expect(sent).toEqual([expect.objectContaining({ status: 200 })]);
  }, 60_000);

  it('holds at most UNVERIFIED_BYTES for bodies under the cap with a bogus signature: the rest wait outside (429)', async () => {
    const port = Number(new URL(stack.bff.url).port);
    const each = 100 * 1024;
    const fit = Math.floor(UNVERIFIED_BYTES / each);
    const sockets: Socket[] = [];
    const answers: Promise<number | 'closed'>[] = [];
    for (let i = 0; i < 250; i++) {
      const socket = await openRequest(port, '/stores/shopify/webhooks', {
        'content-type': 'application/json',
        'content-length': String(each),
        'x-shopify-hmac-sha256': 'AAAA',
      });
      socket.write('x'.repeat(1024));
      sockets.push(socket);
      answers.push(statusOf(socket));
    }
    // The ones beyond the bound are answered at once; the first `fit` are still being read (no answer yet).
    const refused = answers.slice(fit);
    expect(new Set(await Promise.all(refused))).toEqual(new Set([429]));
    // Finishing the held bodies: each is read, then refused for its signature, and its bytes given back.
    for (const socket of sockets.slice(0, fit)) socket.write('x'.repeat(each - 1024));
    expect(new Set(await Promise.all(answers.slice(0, fit)))).toEqual(new Set([401]));
    for (const socket of sockets) socket.destroy();
    const { sent } = await stack.paid('shopify', shopifyOrder({ customer: { name: 'Gil Mota' } }));
    expect(sent).toEqual([expect.objectContaining({ status: 200 })]);
  }, 60_000);

  it("sizes the caps from the platforms' payloads: the sandbox's 50-line Shopify order fits with room", async () => {
    const items = Array.from({ length: 50 }, (_, i) => ({
      name: `Produto ${i} com um nome comprido como as lojas dão`,
      sku: `SKU-${i}`,
      quantity: 1,
      grams: 300,
      price: 59.9,
    }));
    const { sent } = await stack.paid('shopify', shopifyOrder({ items }));
    const delivered = stack.sandbox.state.checkouts.orders.sent.find((w) => w.id === sent[0]?.id);
    const size = Buffer.byteLength(delivered?.body ?? '');
    expect(size).toBeGreaterThan(1000);
    expect(size * 4).toBeLessThan(BODY_CAPS.shopifyWebhook);
  });
});

describe('a chunked body (no declared length)', () => {
  it('reserves the cap, is refused 413 once it passes it, and gives the bytes back', async () => {
    const pool = new UnverifiedBytes(1024 * 1024);
    const app = express();
    const route = { platform: 'nuvemshop', secret: 'x'.repeat(32), cap: 8 * 1024, pool } as const;
    app.post('/hook', signedBody(route), (_req, res) => void res.json({}));
    app.use(errorHandler(createLogger({ level: 'silent' })));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const socket = await openRequest((server.address() as AddressInfo).port, '/hook', {
        'transfer-encoding': 'chunked',
        'x-linkedstore-hmac-sha256': 'ab',
      });
      const answer = statusOf(socket);
      const chunk = 'x'.repeat(4096);
      for (let i = 0; i < 4; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      expect(await answer).toBe(413);
      expect(pool.held).toBe(0);
      socket.destroy();
    } finally {
      server.close();
    }
  });
});

describe('a body that trickles', () => {
  it('is dropped after the read deadline and its bytes given back', async () => {
    const pool = new UnverifiedBytes(1024 * 1024);
    const app = express();
    app.post(
      '/hook',
      signedBody({ platform: 'nuvemshop', secret: 'x'.repeat(32), cap: 64 * 1024, pool, readTimeoutMs: 200 }),
      (_req, res) => void res.json({}),
    );
    app.use(errorHandler(createLogger({ level: 'silent' })));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const socket = await openRequest((server.address() as AddressInfo).port, '/hook', {
        'content-length': '1000',
        'x-linkedstore-hmac-sha256': 'ab',
      });
      const answer = statusOf(socket);
      socket.write('{');
      expect(await answer).toBe(400);
      expect(pool.held).toBe(0);
      await once(socket, 'close');
    } finally {
      server.close();
    }
  });
});

describe("through the sandbox's emulated Shopify", () => {
  const quote = (signature: 'x-shopify' | 'shopify' | 'none', postalCode: string) =>
    stack.sandbox.control(`checkouts/shopify/${SHOPIFY_SHOP}/quote`, {
      cart: { items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 59.9, weightKg: 0.3 }] },
      destination: { postalCode },
      signature,
    });
  type View = { source: string; callback?: { status: number } };

  it('signs webhooks in the shopify-* family, or both, and the BFF takes each', async () => {
    for (const family of ['shopify', 'both', 'x-shopify'] as const) {
      const set = await stack.sandbox.control('stores/shopify/headers', { family });
      expect(await set.json()).toEqual({ family });
      const { sent } = await stack.paid('shopify', shopifyOrder({ customer: { name: `Iara ${family}` } }));
      expect(sent, family).toEqual([expect.objectContaining({ status: 200 })]);
      const delivered = stack.sandbox.state.checkouts.orders.sent.find((w) => w.id === sent[0]?.id);
      expect('shopify-hmac-sha256' in (delivered?.headers ?? {})).toBe(family !== 'x-shopify');
      expect('x-shopify-hmac-sha256' in (delivered?.headers ?? {})).toBe(family !== 'shopify');
    }
  });

  it('sends unsigned rate requests on request: quoted on the secret URL the BFF registers, refused on the plain URL (backup rates)', async () => {
    const services = stack.sandbox.state.checkouts.carrierServices.get(SHOPIFY_SHOP) ?? [];
    const service = services.find((s) => s.active);
    if (!service) throw new Error('no carrier service registered');
    // The BFF registers the secret URL when BFF_SHOPIFY_CALLBACK_SECRET is set (bff/checkout/registration.ts).
    const registered = service.callbackUrl;
    expect(registered.endsWith(`/checkout/shopify/rates/${CALLBACK_SECRET}`)).toBe(true);
    const viaSecret = (await (await quote('none', '22041-001')).json()) as View;
    expect(viaSecret).toMatchObject({ source: 'callback', callback: { status: 200 } });
    const newFamily = (await (await quote('shopify', '20040-020')).json()) as View;
    expect(newFamily).toMatchObject({ source: 'callback', callback: { status: 200 } });
    // A merchant who registered the plain URL: an unsigned call there is refused.
    service.callbackUrl = registered.slice(0, -(CALLBACK_SECRET.length + 1));
    try {
      const unsigned = (await (await quote('none', '20040-021')).json()) as View;
      expect(unsigned).toMatchObject({ source: 'backup', callback: { status: 401 } });
    } finally {
      service.callbackUrl = registered;
    }
  });
});

describe('one signed-body check (issue 49)', () => {
  /** Every product file of bff/ (tests and test helpers apart) that computes a store platform's signature. */
  const verifiers = (files: { path: string; text: string }[]) =>
    files.filter((f) => /\b(shopifyHmac|nuvemshopHmac)\(/.test(f.text)).map((f) => f.path);

  it('is the only place in bff/ that computes a Shopify or Nuvemshop signature', () => {
    const root = new URL('..', import.meta.url);
    const files = (readdirSync(root, { recursive: true }) as string[])
      .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !/testing/.test(path))
      .map((path) => ({ path, text: readFileSync(new URL(path, root), 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(verifiers(files)).toEqual(['stores/signed-body.ts']);
    // The check above can fail: a second verifier is found.
    expect(verifiers([...files, { path: 'x.ts', text: 'shopifyHmac(secret, body)' }])).toHaveLength(2);
  });
});
