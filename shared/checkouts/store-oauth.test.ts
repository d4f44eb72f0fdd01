import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shopifyQueryHmac } from './store-oauth.ts';

/**
 * The `hmac` of the app URL and the OAuth callback, against Shopify's own library: Shopify/shopify-app-js
 * packages/apps/shopify-api/lib/utils/processed-query.ts (the other parameters sorted, through `URLSearchParams`, `+`
 * as `%20`) and its test lib/utils/__tests__/hmac-validator.test.ts ("Shopify signs with %20, not +"). A value with a
 * space, `=`, `/` or `+` (the `host` parameter is base64, often with `=` padding) signed otherwise than Shopify signs
 * it makes a genuine install "not signed by Shopify".
 */
const KEY = 'my super secret key';
const hmacOf = (message: string) => createHmac('sha256', KEY).update(message).digest('hex');

describe('shopifyQueryHmac', () => {
  it("matches shopify-app-js's vectors: values percent-encoded, a space as %20", () => {
    const timestamp = '1765000000';
    expect(
      shopifyQueryHmac(KEY, {
        code: 'some code goes here',
        shop: 'the shop URL',
        state: 'some nonce passed from auth',
        timestamp,
      }),
    ).toBe(
      hmacOf(
        `code=some%20code%20goes%20here&shop=the%20shop%20URL&state=some%20nonce%20passed%20from%20auth&timestamp=${timestamp}`,
      ),
    );
    expect(shopifyQueryHmac(KEY, { custom: 'hello world', shop: 'myshop.myshopify.com', timestamp })).toBe(
      hmacOf(`custom=hello%20world&shop=myshop.myshopify.com&timestamp=${timestamp}`),
    );
  });

  it('signs a base64 host with its padding as Shopify does (%3D)', () => {
    const host = Buffer.from('admin.shopify.com/store/loja').toString('base64');
    expect(host.endsWith('==')).toBe(true);
    const params = new URLSearchParams({ host, shop: 'loja.myshopify.com', timestamp: '1765000000' });
    expect(shopifyQueryHmac(KEY, params)).toBe(
      hmacOf(`host=${host.replaceAll('=', '%3D')}&shop=loja.myshopify.com&timestamp=1765000000`),
    );
  });

  it('leaves out hmac and signature, and keeps plain values as they are', () => {
    const params = { shop: 'loja-demo.myshopify.com', timestamp: '1765000000', hmac: 'x', signature: 'y' };
    expect(shopifyQueryHmac(KEY, params)).toBe(hmacOf('shop=loja-demo.myshopify.com&timestamp=1765000000'));
  });
});
