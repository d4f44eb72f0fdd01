import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { NuvemshopRateRequestSchema } from '../../shared/checkouts/nuvemshop.ts';
import {
  SHOPIFY_ADMIN_API_VERSION,
  ShopifyRateRequestSchema,
  shopifyHmac,
} from '../../shared/checkouts/shopify.ts';
import { type RunningSandbox, startSandbox } from '../testing.ts';
import { SANDBOX_SHOPIFY_APP_SECRET } from './accounts.ts';

/**
 * The sandbox plays a shopper's checkout on Shopify and on Nuvemshop: it calls the registered callback (here a test
 * server standing for a merchant's app) as the platform does, and shows what the platform would show. The sandbox's
 * clock is the test's, so the platforms' cache lifetimes are crossed without waiting.
 */
let now = Date.parse('2026-11-23T10:00:00-03:00');
let sandbox: RunningSandbox;
let callback: Server;
let callbackUrl = '';
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let reply: () => { status: number; body: unknown; delayMs?: number } = () => ({
  status: 200,
  body: { rates: [] },
});

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => now });
  callback = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const { status, body: answer, delayMs = 0 } = reply();
      setTimeout(
        () => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer)),
        delayMs,
      );
    });
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/rates`;
});
afterAll(async () => {
  callback?.closeAllConnections();
  await new Promise((resolve) => callback?.close(resolve));
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.control('reset');
  received.length = 0;
});

const ViewSchema = z.looseObject({
  source: z.enum(['callback', 'cache', 'backup', 'failed']),
  callback: z.optional(z.looseObject({ status: z.union([z.int(), z.string()]), readTimeoutMs: z.int() })),
  options: z.array(
    z.looseObject({
      name: z.string(),
      code: z.string(),
      amountCents: z.int(),
      price: z.string(),
      maxDeliveryDate: z.optional(z.string()),
    }),
  ),
});

async function checkout(platform: string, storeId: string, body: unknown) {
  const res = await sandbox.post(`/_sandbox/checkouts/${platform}/${storeId}/quote`, body);
  return { status: res.status, view: res.status === 200 ? ViewSchema.parse(await res.json()) : undefined };
}

const cart = {
  cart: { items: [{ name: 'Camiseta', quantity: 3, unitPriceBRL: 19.9, weightKg: 0.3 }] },
  destination: { postalCode: '20040-020' },
};

describe('the emulated Shopify checkout', () => {
  const register = () =>
    fetch(
      `${sandbox.url}/shopify/loja-demo.myshopify.com/admin/api/${SHOPIFY_ADMIN_API_VERSION}/graphql.json`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-access-token': 'shpat_test_demo_0000000001',
        },
        body: JSON.stringify({
          query:
            'mutation C($input: DeliveryCarrierServiceCreateInput!) { carrierServiceCreate(input: $input) { userErrors { message } } }',
          variables: {
            input: { name: 'Correios', callbackUrl, active: true, supportsServiceDiscovery: true },
          },
        }),
      },
    );
  const pac = {
    service_name: 'Correios PAC',
    service_code: 'correios-pac',
    currency: 'BRL',
    total_price: '2150',
  };

  it('calls the callback with the cart in centavos and grams, signed with the app’s secret, and shows its rates', async () => {
    await register();
    reply = () => ({
      status: 200,
      body: { rates: [{ ...pac, max_delivery_date: '2026-12-01 23:59:59 -0300' }] },
    });
    const { view } = await checkout('shopify', 'loja-demo.myshopify.com', cart);
    expect(view).toMatchObject({
      source: 'callback',
      callback: { status: 200, readTimeoutMs: 10_000 },
      options: [{ name: 'Correios PAC', code: 'correios-pac', amountCents: 2150, price: 'R$\u00a021,50' }],
    });
    const [call] = received;
    expect(call?.headers['x-shopify-hmac-sha256']).toBe(
      shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, call?.body ?? ''),
    );
    const request = ShopifyRateRequestSchema.parse(JSON.parse(call?.body ?? ''));
    expect(request.rate.items).toEqual([
      expect.objectContaining({ quantity: 3, price: 1990, grams: 300, requires_shipping: true }),
    ]);
    expect(request.rate.destination).toMatchObject({ country: 'BR', postal_code: '20040-020' });
  });

  it('keeps a success 15 minutes: the same cart is not asked again before', async () => {
    await register();
    reply = () => ({ status: 200, body: { rates: [pac] } });
    await checkout('shopify', 'loja-demo.myshopify.com', cart);
    now += 14 * 60_000;
    expect((await checkout('shopify', 'loja-demo.myshopify.com', cart)).view?.source).toBe('cache');
    expect(received).toHaveLength(1);
    now += 2 * 60_000;
    expect((await checkout('shopify', 'loja-demo.myshopify.com', cart)).view?.source).toBe('callback');
    expect(received).toHaveLength(2);
  });

  it('asks again when the demo’s day changes, within the 15 minutes: cached dates never outlive their day', async () => {
    await register();
    reply = () => ({ status: 200, body: { rates: [pac] } });
    await checkout('shopify', 'loja-demo.myshopify.com', cart);
    expect((await checkout('shopify', 'loja-demo.myshopify.com', cart)).view?.source).toBe('cache');
    // The carrier's clock (the demo's, which may run fast) moves a day; the real one a minute.
    await sandbox.control('advance', { hours: 24 });
    now += 60_000;
    expect((await checkout('shopify', 'loja-demo.myshopify.com', cart)).view?.source).toBe('callback');
    expect(received).toHaveLength(2);
  });

  it('shows the store’s backup rates after an error, keeps the error 30 seconds, then asks again', async () => {
    await register();
    reply = () => ({ status: 503, body: { error: { code: 'quote_failed' } } });
    const { view } = await checkout('shopify', 'loja-demo.myshopify.com', cart);
    expect(view).toMatchObject({ source: 'backup', options: [{ name: 'Frete fixo', amountCents: 3500 }] });
    now += 29_000;
    expect((await checkout('shopify', 'loja-demo.myshopify.com', cart)).view?.source).toBe('cache');
    now += 2_000;
    reply = () => ({ status: 200, body: { rates: [pac] } });
    expect((await checkout('shopify', 'loja-demo.myshopify.com', cart)).view?.source).toBe('callback');
  });

  it('shows the backup rates when the callback is slower than the read timeout, or answers what Shopify cannot read', async () => {
    await register();
    reply = () => ({ status: 200, body: { rates: [pac] }, delayMs: 400 });
    const slow = await checkout('shopify', 'loja-demo.myshopify.com', { ...cart, readTimeoutMs: 100 });
    expect(slow.view).toMatchObject({ source: 'backup', callback: { status: 'timeout' } });
    reply = () => ({ status: 200, body: { rates: [{ ...pac, total_price: 21.5 }] } });
    const other = { ...cart, destination: { postalCode: '30130-000' } };
    expect((await checkout('shopify', 'loja-demo.myshopify.com', other)).view?.source).toBe('backup');
  });

  it('answers 404 when the shop has no carrier service, or is not one of the sandbox’s', async () => {
    expect((await checkout('shopify', 'loja-demo.myshopify.com', cart)).status).toBe(404);
    expect((await checkout('shopify', 'outra.myshopify.com', cart)).status).toBe(404);
    expect((await checkout('woocommerce', 'x', cart)).status).toBe(404);
    expect(received).toHaveLength(0);
  });
});

describe('the emulated Nuvemshop checkout', () => {
  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${sandbox.url}/nuvemshop/v1/1001/shipping_carriers${path}`, {
      method: 'POST',
      headers: {
        authentication: 'bearer nuvem_test_demo_000000001',
        'user-agent': 'test',
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return z.object({ id: z.int() }).parse(await res.json());
  };
  const register = async () => {
    const { id } = await admin('', { name: 'Correios', callback_url: callbackUrl, types: 'ship' });
    await admin(`/${id}/options`, {
      code: 'correios-pac',
      name: 'PAC (Correios)',
      additional_cost: 2,
      additional_days: 1,
    });
  };
  const rate = (code: string, price: number) => ({
    name: code,
    code,
    price,
    currency: 'BRL',
    type: 'ship',
    max_delivery_date: '2026-12-01T23:59:59-0300',
  });

  it('sends only the postal code from a product page, and shows only the rates of its options, with their settings', async () => {
    await register();
    reply = () => ({
      status: 200,
      body: { rates: [rate('correios-pac', 21.5), rate('correios-sedex', 40), rate('other', 1)] },
    });
    const { view } = await checkout('nuvemshop', '1001', {
      ...cart,
      stage: 'product',
      destination: { postalCode: '20040020', city: 'Rio' },
    });
    expect(view?.options).toEqual([
      expect.objectContaining({
        name: 'PAC (Correios)',
        code: 'correios-pac',
        amountCents: 2350,
        maxDeliveryDate: '2026-12-02T23:59:59-0300',
      }),
    ]);
    const request = NuvemshopRateRequestSchema.parse(JSON.parse(received[0]?.body ?? ''));
    expect(request.destination).toMatchObject({ postal_code: '20040020', city: null, province: null });
    expect(request.items[0]).toMatchObject({ quantity: 3, price: 19.9, grams: 300, free_shipping: false });
    expect(received[0]?.headers['x-shopify-hmac-sha256']).toBeUndefined();
  });

  it('asks again when the demo’s day changes, within the 15 minutes', async () => {
    await register();
    reply = () => ({ status: 200, body: { rates: [rate('correios-pac', 21.5)] } });
    await checkout('nuvemshop', '1001', cart);
    expect((await checkout('nuvemshop', '1001', cart)).view?.source).toBe('cache');
    await sandbox.control('advance', { hours: 24 });
    expect((await checkout('nuvemshop', '1001', cart)).view?.source).toBe('callback');
    expect(received).toHaveLength(2);
  });

  it('keeps a 422 one minute and shows no option meanwhile; anything else is not kept', async () => {
    await register();
    reply = () => ({ status: 422, body: { error: 'cannot quote' } });
    expect((await checkout('nuvemshop', '1001', cart)).view).toMatchObject({ source: 'failed', options: [] });
    now += 59_000;
    expect((await checkout('nuvemshop', '1001', cart)).view?.source).toBe('cache');
    now += 2_000;
    reply = () => ({ status: 500, body: {} });
    expect((await checkout('nuvemshop', '1001', cart)).view?.source).toBe('failed');
    expect((await checkout('nuvemshop', '1001', cart)).view?.source).toBe('failed');
    expect(received).toHaveLength(3);
  });
});
