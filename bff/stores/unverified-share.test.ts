import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrderStack, startOrderStack } from '../orders/testing.ts';
import { BODY_CAPS, UNVERIFIED_BYTES } from './signed-body.ts';

/**
 * The pool of unverified bytes (signed-body.ts) is one for the whole BFF, shared by the store webhooks and the
 * carrier callback, and a body is admitted into it on any non-empty signature header (checked only once read). A
 * stranger who opens UNVERIFIED_BYTES / cap connections on the public webhook URL with a bogus signature, and trickles
 * a byte now and then, holds the whole pool for the read deadline, again and again: meanwhile Shopify's rate request
 * at checkout (which Shopify does not send again) is answered 429, and the shopper sees no shipping option.
 */
const CALLBACK_SECRET = 'shopify-callback-secret-0123456789abcdef';

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack({ BFF_SHOPIFY_CALLBACK_SECRET: CALLBACK_SECRET });
}, 30_000);
afterAll(async () => {
  await stack?.close();
});

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

const rateRequest = JSON.stringify({
  rate: {
    origin: { country: 'BR', postal_code: '01310-100' },
    destination: { country: 'BR', postal_code: '20040-020' },
    items: [{ name: 'Camiseta', quantity: 1, grams: 300, price: 5990, requires_shipping: true }],
    currency: 'BRL',
    locale: 'pt-BR',
  },
});

describe('the unverified-bytes pool under one stranger', () => {
  it('still answers the checkout rate request while one address holds bogus-signed webhook bodies', async () => {
    const port = Number(new URL(stack.bff.url).port);
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < UNVERIFIED_BYTES / BODY_CAPS.shopifyWebhook; i++) {
        const socket = await openRequest(port, '/stores/shopify/webhooks', {
          'content-type': 'application/json',
          'content-length': String(BODY_CAPS.shopifyWebhook),
          'x-shopify-hmac-sha256': 'AAAA',
        });
        socket.on('error', () => undefined);
        socket.write('{');
        sockets.push(socket);
      }
      // Until the BFF has taken every held body into the pool (a probe of two bytes no longer fits).
      let probe = 0;
      for (let i = 0; i < 50 && probe !== 429; i++)
        probe = (
          await fetch(`${stack.bff.url}/stores/shopify/webhooks`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': 'AAAA' },
            body: '{}',
          })
        ).status;
      expect(probe).toBe(429);
      // Shopify's checkout asks for rates on the secret URL; it does not retry a refused one.
      const res = await fetch(`${stack.bff.url}/checkout/shopify/rates/${CALLBACK_SECRET}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: rateRequest,
      });
      expect(res.status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
