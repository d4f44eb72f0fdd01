import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../testing.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control('reset'));

const quote = () =>
  sandbox.post(
    '/v1/rates',
    { destinationCep: '20040020', items: [{ name: 'x', quantity: 1, unitPriceBRL: 1 }] },
    'pk_test_demo',
  );

type Stats = { stores: Record<string, Record<string, number>> };
const stats = async () => (await (await sandbox.control('stats', undefined, 'GET')).json()) as Stats;

describe('control API', () => {
  it('answers only on the loopback address: from another one (127.0.0.2 stands in for it) it does not exist', async () => {
    // Which addresses count: shared/security/loopback.test.ts.
    const from = (localAddress: string, path = '/_sandbox/stats', method = 'GET') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${sandbox.url}${path}`, { localAddress, method }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    expect((await from('127.0.0.1')).status).toBe(200);
    const outside = await from('127.0.0.2');
    expect(outside.status).toBe(404);
    expect(JSON.parse(outside.body)).toMatchObject({ error: { code: 'not_found' } });
    // The CEP service's and the store platforms' control routes, each behind the same gate.
    expect((await from('127.0.0.1', '/_sandbox/viacep')).status).toBe(200);
    for (const [path, method] of [
      ['/_sandbox/viacep', 'GET'],
      ['/_sandbox/stores/shopify/headers', 'POST'],
      ['/_sandbox/stores/shopify/frete-kit-demo.myshopify.com/uninstall', 'POST'],
    ] as const)
      expect((await from('127.0.0.2', path, method)).status, path).toBe(404);
  });

  it('tells the carrier’s time and speed (GET /_sandbox/clock), runs it faster or stops it, and reset restores it', async () => {
    const clock = async () =>
      (await (await sandbox.control('clock', undefined, 'GET')).json()) as Record<string, number>;
    const before = Date.now();
    const first = await clock();
    expect(first.speed).toBe(1);
    expect(first.now).toBeGreaterThanOrEqual(before);
    await sandbox.control('advance', { hours: 2 });
    const stopped = await (await sandbox.control('clock', { speed: 0 })).json();
    expect(stopped.now).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
    expect((await clock()).now).toBe(stopped.now);
    await sandbox.control('clock', { speed: 3_600_000 });
    expect((await sandbox.control('clock', { speed: -1 })).status).toBe(400);
    expect((await sandbox.control('clock', { speed: 2_000_000 })).status).toBe(400);
    await sandbox.control('reset');
    const reset = await clock();
    expect(reset.speed).toBe(1);
    expect(Math.abs((reset.now ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('counts calls per store and route, and reset clears them', async () => {
    await quote();
    await quote();
    await sandbox.post('/v1/tracking', { codes: ['DG049186226BR'] }, 'mk_test_demo');
    expect((await stats()).stores['loja-demo']).toEqual({ 'POST /v1/rates': 2, 'POST /v1/tracking': 1 });
    await sandbox.control('reset');
    expect((await stats()).stores).toEqual({});
  });

  it('counts the faults that fired', async () => {
    await sandbox.control('faults', { target: 'rates', mode: 'error502', times: 2 });
    await quote();
    await quote();
    await quote();
    const body = (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      faultsFired: Record<string, number>;
    };
    expect(body.faultsFired).toEqual({ 'rates error502': 2 });
  });

  it('injects error502 `times` times, then answers normally', async () => {
    await sandbox.control('faults', { target: 'rates', mode: 'error502', times: 2 });
    expect([(await quote()).status, (await quote()).status, (await quote()).status]).toEqual([502, 502, 200]);
  });

  it('injects latency', async () => {
    await sandbox.control('faults', { target: 'rates', mode: 'latency', latencyMs: 300 });
    const started = performance.now();
    expect((await quote()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('reset mode destroys the connection before any work; drop_after_commit after it', async () => {
    await sandbox.control('faults', { target: 'rates', mode: 'reset' });
    await expect(quote()).rejects.toThrow();
    await sandbox.control('faults', { target: 'rates', mode: 'drop_after_commit' });
    await expect(quote()).rejects.toThrow();
    expect((await stats()).stores['loja-demo']?.['POST /v1/rates']).toBe(2);
  });

  it('never fires a fault of probability 0, and DELETE clears faults', async () => {
    await sandbox.control('faults', { target: 'rates', mode: 'error502', probability: 0 });
    expect((await quote()).status).toBe(200);
    await sandbox.control('faults', { target: 'rates', mode: 'error502', times: 5 });
    await sandbox.control('faults', undefined, 'DELETE');
    expect((await quote()).status).toBe(200);
  });

  it('refuses a malformed fault with 400 invalid_body', async () => {
    for (const fault of [
      { target: 'nowhere', mode: 'error502' },
      { target: 'rates', mode: 'explode' },
      { target: 'rates', mode: 'latency', times: 0 },
    ]) {
      const res = await sandbox.control('faults', fault);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_body' } });
    }
  });

  it('sets what a tracked object does next: POST /_sandbox/tracking/<code> {scenario}', async () => {
    const code = 'SW371675211BR';
    const track = async () => {
      const res = await sandbox.post('/v1/tracking', { codes: [code] }, 'mk_test_demo');
      return ((await res.json()) as { results: { events: { code: string; type?: string }[] }[] }).results[0];
    };
    const res = await sandbox.control(`tracking/${code}`, { scenario: 'awaiting_pickup' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, code, scenario: 'awaiting_pickup' });
    await sandbox.control('advance', { hours: 2 });
    expect((await track())?.events[0]).toMatchObject({ code: 'LDI', type: '01' });
    await sandbox.control('advance', { hours: 24 * 6 });
    expect((await track())?.events[0]).toMatchObject({ code: 'LDI', type: '01' });
    // Nobody picked it up within the 7 days the carrier holds it (shared/pickup.ts): back to the sender.
    await sandbox.control('advance', { hours: 24 * 2 });
    expect((await track())?.events[0]).toMatchObject({ code: 'BDE', type: '23' });

    const unknown = await sandbox.control('tracking/QB999999995BR', { scenario: 'stall' });
    expect(unknown.status).toBe(404);
    const bad = await sandbox.control(`tracking/${code}`, { scenario: 'lost' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_body' } });
    const delivered = await sandbox.control('tracking/DG049186226BR', { scenario: 'returned' });
    expect(delivered.status).toBe(400);
  });
});
