/** Reasons a quote came back empty (spec 4.1 rule 1, 7.2). */
export const QUOTE_REASONS = [
  'no_services_enabled',
  'carrier_auth_failed',
  'subscription_required',
  'no_coverage',
] as const;

/** Reasons a label was not (fully) produced (spec 7.2 item 3). */
export const LABEL_REASONS = [
  'own_contract_required',
  'prepostagem_rejected',
  'label_not_printable',
  'label_pdf_timeout',
  'subscription_required',
] as const;

export type QuoteReason = (typeof QUOTE_REASONS)[number];
export type LabelReason = (typeof LABEL_REASONS)[number];
export type KnownReason = QuoteReason | LabelReason;

/** A business reason: known values above, but the set is open (see `ReasonSchema`). */
export type Reason = KnownReason | (string & {});

/** Quote reasons that ask the merchant (not the shopper) to act. */
export const MERCHANT_SIDE_REASONS: readonly string[] = [
  'no_services_enabled',
  'carrier_auth_failed',
  'subscription_required',
];

export function isKnownReason(reason: string): reason is KnownReason {
  return (
    (QUOTE_REASONS as readonly string[]).includes(reason) ||
    (LABEL_REASONS as readonly string[]).includes(reason)
  );
}
