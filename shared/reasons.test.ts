import { describe, expect, it } from 'vitest';
import { MERCHANT_SIDE_REASONS } from './reasons.ts';

describe('MERCHANT_SIDE_REASONS', () => {
  it('are the quote reasons the merchant must fix (spec 4.1 rule 1), not the ones about the destination', () => {
    expect([...MERCHANT_SIDE_REASONS].sort()).toEqual([
      'carrier_auth_failed',
      'no_services_enabled',
      'subscription_required',
    ]);
    expect(MERCHANT_SIDE_REASONS).not.toContain('no_coverage');
    expect(MERCHANT_SIDE_REASONS).not.toContain('weight_limit_exceeded');
  });
});
