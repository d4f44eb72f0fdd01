import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { platformPromise } from '../../shared/delivery-promise.ts';
import { PromisesResponseSchema } from '../../shared/promise-lookup.ts';
import { TrackingLookupResponseSchema } from '../../shared/tracking-lookup.ts';
import { loopbackAddress, requestFrom } from '../../testing/from-address.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/receivers.ts';
import { Clocks, issueLabel, orderLabel, WEBHOOK_SECRET } from '../notifications/testing/harness.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { seedDelivered } from './testing/seed.ts';

/**
 * `POST /api/promises` (the calculator asks the promises of the rates it got from the platform) and the promise on
 * the tracking API (the tracking page's "previsão"): a real BFF against the sandbox.
 */
let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let bff: RunningBff;
let clocks: Clocks;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0, rateLimit: { calls: 1000, seconds: 60 } });
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  clocks = new Clocks(sandbox);
  bff = await startBff(
    sandbox.url,
    {
      SHIPPING_RATE_LIMIT: '1000/60',
      BFF_WEBHOOK_URL: receiver.url,
      BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BFF_VISITOR_RATE_LIMIT: '5/60',
      BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    },
    { now: clocks.now, notifications: { timers: false } },
  );
});
afterAll(async () => {
  await bff?.stop();
  await receiver?.close();
  await sandbox?.close();
});

/** Asks from a loopback address of its own: a visitor of its own for the per-visitor limit. */
async function ask(body: unknown, visitor = 0) {
  const answer = await requestFrom(loopbackAddress(visitor), `${bff.url}/api/promises`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://loja.example' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, headers: answer.headers, json: () => JSON.parse(answer.text) as unknown };
}
const calls = async () =>
  (
    (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    }
  ).stores['loja-demo'] ?? {};

let refused = 0;

describe('POST /api/promises', () => {
  it('answers each rate’s promise in order, from any origin, without calling the platform', async () => {
    const before = await calls();
    const at = clocks.now();
    const res = await ask({
      cep: '69005-000',
      rates: [
        { serviceId: 'correios-pac', deliveryDays: 11 },
        { serviceId: 'correios-sedex', deliveryDays: 5 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const { promises } = PromisesResponseSchema.parse(res.json());
    // No history on these lanes: the platform's count, said so.
    expect(promises).toEqual([
      { serviceId: 'correios-pac', promise: platformPromise({ at, deliveryDays: 11 }, {}) },
      { serviceId: 'correios-sedex', promise: platformPromise({ at, deliveryDays: 5 }, {}) },
    ]);
    expect(await calls()).toEqual(before);
    const preflight = await fetch(`${bff.url}/api/promises`, {
      method: 'OPTIONS',
      headers: { origin: 'https://loja.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
  });

  it('answers the store’s history where its lane has enough parcels', async () => {
    await seedDelivered(bff.backends, {
      name: 'salvador',
      cep: '40010-000',
      count: 60,
      platformDays: 8,
      transitDays: (i) => 5 + (i % 2),
      now: clocks.now(),
    });
    bff.promises.invalidate();
    const { promises } = PromisesResponseSchema.parse(
      (await ask({ cep: '40010000', rates: [{ serviceId: 'correios-pac', deliveryDays: 8 }] }, 1)).json(),
    );
    // 5 or 6 days where the platform says 8: two days sooner, one date (the spread is a day, on 60 parcels).
    expect(promises[0]?.promise).toMatchObject({ basis: 'history', parcels: 60 });
    expect(promises[0]?.promise.to).toBe(platformPromise({ at: clocks.now(), deliveryDays: 6 }, {}).to);
    expect(promises[0]?.promise.from).toBe(promises[0]?.promise.to);
  });

  it.each([
    [{ cep: '123', rates: [{ serviceId: 'correios-pac', deliveryDays: 6 }] }, /cep/],
    [{ cep: '20040020', rates: [] }, /rates/],
    [{ cep: '20040020', rates: Array(21).fill({ serviceId: 'x', deliveryDays: 1 }) }, /rates/],
    [{ cep: '20040020', rates: [{ serviceId: 'correios-pac', deliveryDays: 1e9 }] }, /deliveryDays/],
    [{ cep: '20040020', rates: [{ serviceId: 'correios-pac', deliveryDays: -1 }] }, /deliveryDays/],
    [{ cep: '20040020', rates: [{ serviceId: '', deliveryDays: 1 }] }, /serviceId/],
    [{ cep: '20040020', rates: [{ serviceId: 'correios-pac', deliveryDays: 1, price: 0 }] }, /price/],
  ])('refuses %j with 400 invalid_body, naming the field', async (body, field) => {
    const res = await ask(body, 10 + ++refused);
    expect(res.status).toBe(400);
    const error = (res.json() as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('invalid_body');
    expect(error.message).toMatch(field);
  });

  it('refuses another method with 405, and a visitor over the limit with 429', async () => {
    expect((await fetch(`${bff.url}/api/promises`)).status).toBe(405);
    const body = { cep: '20040020', rates: [{ serviceId: 'correios-pac', deliveryDays: 6 }] };
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await ask(body, 3)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('the promise on the tracking API', () => {
  it('comes with each of this store’s parcels still on its way, never with another code', async () => {
    const label = await issueLabel(bff.url, orderLabel('PREV-1'));
    await bff.notifications.tick();
    const row = (await bff.backends.transits.of([label.attemptId ?? ''])).get(label.attemptId ?? '');
    const res = await requestFrom(loopbackAddress(4), `${bff.url}/api/tracking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ codes: [label.trackingCode, 'DG049186226BR'] }),
    });
    const { results } = TrackingLookupResponseSchema.parse(JSON.parse(res.text));
    expect(results[0]?.promise).toEqual({
      from: row?.promisedFrom,
      to: row?.promisedTo,
      basis: row?.promisedBasis,
      parcels: row?.promisedParcels,
    });
    expect(results[1]?.promise).toBeUndefined();
  });
});
