import { describe, expect, it } from 'vitest';
import { isUpstreamError, UpstreamError } from './errors.ts';

describe('isUpstreamError', () => {
  it('recognizes an UpstreamError, also from another copy of the module (by its name)', () => {
    expect(isUpstreamError(new UpstreamError('config', 'refused', { status: 401 }))).toBe(true);
    const fromElsewhere = Object.assign(new Error('x'), { name: 'UpstreamError' });
    expect(isUpstreamError(fromElsewhere)).toBe(true);
  });

  it('refuses look-alikes: other errors, and plain objects that only carry the name', () => {
    expect(isUpstreamError(new Error('UpstreamError'))).toBe(false);
    expect(isUpstreamError(new TypeError('fetch failed'))).toBe(false);
    expect(isUpstreamError({ name: 'UpstreamError', failure: 'config', message: 'x' })).toBe(false);
    expect(isUpstreamError(undefined)).toBe(false);
    expect(isUpstreamError('UpstreamError')).toBe(false);
  });

  it('carries the failure and the details it was given, and nothing else', () => {
    const error = new UpstreamError('config', 'upstream refused the request (subscription_required)', {
      status: 402,
      code: 'subscription_required',
      actionUrl: 'https://painel.example/planos',
    });
    expect(error).toMatchObject({
      name: 'UpstreamError',
      failure: 'config',
      status: 402,
      code: 'subscription_required',
      actionUrl: 'https://painel.example/planos',
    });
    expect(new UpstreamError('unavailable', 'm')).toMatchObject({
      status: undefined,
      code: undefined,
      actionUrl: undefined,
    });
  });
});
