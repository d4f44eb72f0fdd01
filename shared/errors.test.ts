import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ERROR_CODES,
  ERROR_MESSAGES,
  ERROR_STATUS,
  ErrorBodySchema,
  isApiError,
  SERVER_ERROR_STATUS,
} from './errors.ts';
import { ReasonSchema } from './reason-schema.ts';

describe('ErrorBodySchema (spec 7.1)', () => {
  it('accepts every code of the spec, with and without actionUrl', () => {
    expect(ERROR_CODES).toHaveLength(16);
    for (const code of ERROR_CODES) {
      expect(ErrorBodySchema.safeParse({ error: { code, message: 'm' } }).success).toBe(true);
    }
    const withAction = { error: { code: 'subscription_required', message: 'm', actionUrl: 'https://x' } };
    expect(ErrorBodySchema.safeParse(withAction).success).toBe(true);
  });

  it('rejects a code outside the closed set and a body without message', () => {
    expect(ErrorBodySchema.safeParse({ error: { code: 'teapot', message: 'm' } }).success).toBe(false);
    expect(ErrorBodySchema.safeParse({ error: { code: 'rate_limited' } }).success).toBe(false);
  });
});

describe('ApiError', () => {
  it('carries its status and wire shape', () => {
    const error = new ApiError('subscription_required', 'no plan', 'https://x');
    expect(error.status).toBe(402);
    expect(isApiError(error)).toBe(true);
    expect(error.toBody()).toEqual({
      error: { code: 'subscription_required', message: 'no plan', actionUrl: 'https://x' },
    });
    expect(new ApiError('rate_limited', 'wait').toBody()).toEqual({
      error: { code: 'rate_limited', message: 'wait' },
    });
  });

  it('has a default message for every code, ours included, in the spec 7.1 envelope', () => {
    for (const code of [...ERROR_CODES, 'not_found', 'internal_error'] as const) {
      const error = new ApiError(code);
      expect(error.message, code).toBe(ERROR_MESSAGES[code]);
      expect(error.message.length, code).toBeGreaterThan(3);
      expect(error.toBody()).toEqual({ error: { code, message: ERROR_MESSAGES[code] } });
    }
    expect(new ApiError('not_found').status).toBe(404);
    expect(new ApiError('internal_error').status).toBe(500);
    expect(new ApiError('too_many_items').message).toBe('items: must have at most 50 entries');
  });

  it("keeps our own codes out of the shared schema, so a client never accepts them as the platform's", () => {
    expect(ErrorBodySchema.safeParse(new ApiError('not_found').toBody()).success).toBe(false);
  });

  it('says more in the body when asked (which limit, what is left), after its code and message', () => {
    const error = new ApiError('agent_limit_reached', 'over', undefined, {
      limit: 'maxLabelsPerDay',
      left: 0,
    });
    expect(error.status).toBe(409);
    expect(JSON.stringify(error.toBody())).toBe(
      '{"error":{"code":"agent_limit_reached","message":"over","limit":"maxLabelsPerDay","left":0}}',
    );
  });

  it('is not confused with another error', () => {
    expect(isApiError(new Error('x'))).toBe(false);
  });
});

describe('the one table of error codes', () => {
  const BFF = join(import.meta.dirname, '..', 'bff');
  const sources = (readdirSync(BFF, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => ({ file, text: readFileSync(join(BFF, file), 'utf8') }));
  const known = new Set<string>([...ERROR_CODES, ...Object.keys(SERVER_ERROR_STATUS)]);

  it('has a status and a default message for every code, the spec’s and ours, never one code twice', () => {
    for (const code of known) {
      const error = new ApiError(code as keyof typeof ERROR_MESSAGES);
      expect(error.status, code).toBeGreaterThanOrEqual(400);
      expect(error.message.length, code).toBeGreaterThan(3);
    }
    for (const code of Object.keys(SERVER_ERROR_STATUS)) expect(ERROR_STATUS, code).not.toHaveProperty(code);
  });

  it('holds every code the BFF sends: each is one of the table, and no route writes an error body by hand', () => {
    expect(sources.length).toBeGreaterThan(100);
    const sent = /(?:new (?:ApiError|DecisionRefused)\(\s*|\berror:\s*\{\s*code:\s*)'([a-z_]+)'/g;
    const codes = sources.flatMap(({ text }) => [...text.matchAll(sent)].map((match) => match[1]));
    expect(codes).toContain('invalid_csrf_token');
    expect(codes).toContain('approval_not_pending');
    for (const code of codes) expect(known, code).toContain(code);
    // A body with a code of a variable (`{ error: { code, message } }`) is a `refuse()` of its own: JSON-RPC aside.
    const byHand = sources.flatMap(({ file, text }) =>
      text
        .split('\n')
        .filter((line) => /\berror:\s*\{\s*code\b(?!:\s*')/.test(line) && !/jsonrpc|ErrorCode\./.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(byHand).toEqual([]);
  });
});

describe('business reasons', () => {
  it('parses any reason, known or new: an open set (a client shows "no quote" for one it does not know)', () => {
    for (const reason of ['no_coverage', 'label_pdf_timeout', 'weight_limit_exceeded', 'brand_new_reason'])
      expect(ReasonSchema.parse(reason)).toBe(reason);
    expect(ReasonSchema.safeParse(42).success).toBe(false);
  });
});
