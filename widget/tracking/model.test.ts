import { describe, expect, it } from 'vitest';
import { createTrackingModel } from './model.ts';

/** A model whose BFF answers every request with `status` and `body` (raw text, so a body may be anything). */
function modelAnswering(status: number, body: string) {
  const fetch = async () => new Response(body, { status, headers: { 'content-type': 'application/json' } });
  return createTrackingModel({ bffUrl: 'http://bff.test', fetch });
}

const VALID_CODE = 'AA123456785BR';

describe('the tracking element’s error answers', () => {
  const cases: [string, number, string, 'limited' | 'orderNotFound' | 'unavailable'][] = [
    ['the spec’s rate_limited envelope', 429, '{"error":{"code":"rate_limited","message":"x"}}', 'limited'],
    [
      'rate_limited on a status other than 429',
      503,
      '{"error":{"code":"rate_limited","message":"x"}}',
      'limited',
    ],
    ['a 429 without a body', 429, '', 'limited'],
    ['a 429 with a body that is not JSON', 429, '<html>slow down</html>', 'limited'],
    [
      'the BFF’s own order_not_found (outside the spec’s enum)',
      404,
      '{"error":{"code":"order_not_found"}}',
      'orderNotFound',
    ],
    ['order_not_found as a bare string error', 404, '{"error":"order_not_found"}', 'unavailable'],
    ['a look-alike code', 404, '{"error":{"code":"order_not_found "}}', 'unavailable'],
    ['a code in another field', 404, '{"code":"order_not_found"}', 'unavailable'],
    ['null', 500, 'null', 'unavailable'],
    ['a number', 500, '5', 'unavailable'],
    ['an error of the spec', 502, '{"error":{"code":"track_failed","message":"x"}}', 'unavailable'],
  ];
  for (const [name, status, body, error] of cases)
    it(`reads ${name} (${status}) as "${error}"`, async () => {
      const model = modelAnswering(status, body);
      model.setText(VALID_CODE);
      await model.track();
      expect(model.view.value).toEqual({ kind: 'error', error });
    });

  it('reads an order lookup’s order_not_found as "orderNotFound" and a 429 as "limited"', async () => {
    const notFound = modelAnswering(404, '{"error":{"code":"order_not_found","message":"x"}}');
    notFound.setOrder('orderId', '1001');
    notFound.setOrder('cep', '01310-100');
    await notFound.findOrder();
    expect(notFound.view.value).toEqual({ kind: 'error', error: 'orderNotFound' });
    const limited = modelAnswering(429, '{"error":{"code":"rate_limited","message":"x"}}');
    limited.setOrder('orderId', '1001');
    limited.setOrder('cep', '01310100');
    await limited.findOrder();
    expect(limited.view.value).toEqual({ kind: 'error', error: 'limited' });
  });
});
