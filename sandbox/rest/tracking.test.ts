import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { isS10 } from '../../shared/s10.ts';
import { TrackingResponseSchema, type TrackingResult } from '../../shared/tracking.ts';
import { FIXTURE_CODES } from '../carrier/tracking.ts';
import { type RunningSandbox, startSandbox } from '../testing.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control('reset'));

async function track(codes: unknown, key = 'mk_test_demo') {
  const res = await sandbox.post('/v1/tracking', { codes }, key);
  return { res, json: (await res.json()) as unknown };
}

async function results(codes: string[]): Promise<TrackingResult[]> {
  const { res, json } = await track(codes);
  expect(res.status).toBe(200);
  return TrackingResponseSchema.parse(json).results;
}

describe('POST /v1/tracking: fixture codes', () => {
  it('answers one result per code, in request order', async () => {
    const codes = [FIXTURE_CODES.returned, FIXTURE_CODES.delivered, 'XX000000000BR'];
    expect((await results(codes)).map((result) => result.code)).toEqual(codes);
  });

  it('reports the delivered fixture as delivered, most recent event first, as lastStatus', async () => {
    const [result] = await results([FIXTURE_CODES.delivered]);
    expect(result).toMatchObject({ found: true, delivered: true, lastStatus: { code: 'BDE', type: '01' } });
    expect(result?.events[0]).toEqual(result?.lastStatus);
    expect(result?.events.at(-1)).toMatchObject({ code: 'PO', description: 'Objeto postado' });
  });

  it('reports the in-transit fixture as not delivered with events between named units', async () => {
    const [result] = await results([FIXTURE_CODES.inTransit]);
    expect(result?.found).toBe(true);
    expect(result?.delivered).toBe(false);
    expect(result?.events.length).toBeGreaterThan(0);
    expect(result?.events.some((event) => event.origin?.includes('/SP'))).toBe(true);
  });

  it('reports the no-events fixture as found, not delivered, with no events and no lastStatus', async () => {
    const [result] = await results([FIXTURE_CODES.noEvents]);
    expect(result).toMatchObject({ found: true, delivered: false, events: [] });
    expect(result?.lastStatus).toBeUndefined();
  });

  it('reports the returned fixture as not delivered, returned to sender', async () => {
    const [result] = await results([FIXTURE_CODES.returned]);
    expect(result?.delivered).toBe(false);
    expect(result?.lastStatus?.description).toContain('devolvido ao remetente');
    expect(result?.events.some((event) => event.code === 'BDE' && event.type === '02')).toBe(true);
  });

  it('gives timestamps in the carrier form, without an offset', async () => {
    const [result] = await results([FIXTURE_CODES.delivered]);
    for (const event of result?.events ?? [])
      expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it('reports an unknown code as not found with a message, not as a failure', async () => {
    const [valid, invalid] = await results(['XX000000005BR', 'not-a-code']);
    expect(valid).toMatchObject({ found: false, delivered: false, events: [], message: expect.any(String) });
    expect(invalid?.message).toContain('inválido');
  });

  it('uses S10 codes with valid check digits for its fixtures', () => {
    for (const code of Object.values(FIXTURE_CODES)) expect(isS10(code)).toBe(true);
  });
});

describe('POST /v1/tracking: simulated time', () => {
  it('moves the no-events object: a first event within 24 h, delivered within 10 days', async () => {
    await sandbox.control('advance', { hours: 24 });
    const [first] = await results([FIXTURE_CODES.noEvents]);
    expect(first?.events.length).toBeGreaterThan(0);
    expect(first?.delivered).toBe(false);
    await sandbox.control('advance', { hours: 9 * 24 });
    const [later] = await results([FIXTURE_CODES.noEvents]);
    expect(later?.delivered).toBe(true);
    expect(later?.events.map((event) => event.code)).toContain('OEC');
  });

  it('refuses a malformed advance', async () => {
    const res = await sandbox.control('advance', { hours: -1 });
    expect(res.status).toBe(400);
  });
});

describe('POST /v1/tracking: errors', () => {
  it('returns 403 secret_key_required for a public key', async () => {
    const { res, json } = await track(['DG049186226BR'], 'pk_test_demo');
    expect(res.status).toBe(403);
    expect(ErrorBodySchema.parse(json).error.code).toBe('secret_key_required');
  });

  it('returns 403 wrong_key_scope for the platform key, 402 for sem-plano, 404 for removida', async () => {
    const cases = [
      ['pl_test_parceiro', 403, 'wrong_key_scope'],
      ['mk_test_sem_plano', 402, 'subscription_required'],
      ['mk_test_removida', 404, 'merchant_not_found'],
      ['mk_test_nope', 401, 'invalid_api_key'],
    ] as const;
    for (const [key, status, code] of cases) {
      const { res, json } = await track(['DG049186226BR'], key);
      expect(res.status).toBe(status);
      expect(ErrorBodySchema.parse(json).error.code).toBe(code);
    }
  });

  it('returns 400 too_many_codes for 51 codes and invalid_body for none', async () => {
    const many = await track(Array.from({ length: 51 }, () => 'DG049186226BR'));
    expect(many.res.status).toBe(400);
    expect(ErrorBodySchema.parse(many.json).error.code).toBe('too_many_codes');
    const none = await track([]);
    expect(ErrorBodySchema.parse(none.json).error.code).toBe('invalid_body');
    expect((await track(Array.from({ length: 50 }, () => 'DG049186226BR'))).res.status).toBe(200);
  });

  it('sends no CORS headers, and a preflight is not allowed', async () => {
    const { res } = await track(['DG049186226BR']);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${sandbox.url}/v1/tracking`, {
      method: 'OPTIONS',
      headers: { origin: 'https://loja.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers 502 track_failed under an injected error502, once', async () => {
    await sandbox.control('faults', { target: 'tracking', mode: 'error502' });
    const failed = await track(['DG049186226BR']);
    expect(failed.res.status).toBe(502);
    expect(ErrorBodySchema.parse(failed.json).error.code).toBe('track_failed');
    expect((await track(['DG049186226BR'])).res.status).toBe(200);
  });
});
