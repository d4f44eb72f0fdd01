import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_CODES, ERROR_MESSAGES, ErrorBodySchema, isApiError } from './errors.ts';
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

  it('is not confused with another error', () => {
    expect(isApiError(new Error('x'))).toBe(false);
  });
});

describe('business reasons', () => {
  it('parses any reason, known or new: an open set (a client shows "no quote" for one it does not know)', () => {
    for (const reason of ['no_coverage', 'label_pdf_timeout', 'weight_limit_exceeded', 'brand_new_reason'])
      expect(ReasonSchema.parse(reason)).toBe(reason);
    expect(ReasonSchema.safeParse(42).success).toBe(false);
  });
});
