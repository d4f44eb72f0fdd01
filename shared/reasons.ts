/**
 * Quote reasons that ask the merchant (not the shopper) to act: the widget says "unavailable" for them instead of
 * "we do not deliver here". Reasons are an open set, listed once in `reason-schema.ts`.
 */
export const MERCHANT_SIDE_REASONS: readonly string[] = [
  'no_services_enabled',
  'carrier_auth_failed',
  'subscription_required',
];
