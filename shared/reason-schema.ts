import * as z from 'zod/mini';

/**
 * A business reason (`reason` beside an empty result, spec 4.1 and 7.2): an **open set**. Any string parses,
 * because the platform may add reasons, and a client must still show "no quote" (never free shipping) for one it
 * does not know. This comment is the one place the reasons in use are listed; no code keeps a closed list.
 *
 * - Quotes (spec 4.1 rule 1, 7.2): `no_services_enabled`, `carrier_auth_failed`, `subscription_required`,
 *   `no_coverage`; the sandbox adds `weight_limit_exceeded` (every service over its weight limit).
 * - Labels (spec 7.2 item 3): `own_contract_required`, `prepostagem_rejected`, `label_not_printable`,
 *   `label_pdf_timeout`, `subscription_required`; the sandbox's local mode adds `label_integration_disabled`.
 * - The BFF's label ledger adds `outcome_unknown` (the answer was lost after sending), `not_sent` (it never
 *   reached the platform), `platform_error` and `no_prepostagem` (the platform answered without a pre-posting).
 * - Partners (spec 4.4.6): `merchant_limit_reached`.
 * - Plausibility, before a label reaches the platform (`PLAUSIBILITY_REASONS` in `labels/plausibility.ts`, a
 *   closed set of ours): `implausible_weight`, `unknown_service`, `weight_over_limit`, `dimensions_out_of_limits`,
 *   `too_many_declared_items`, `invalid_declared_item`, `declared_value_over_limit`, `invalid_party_field`,
 *   `invalid_cpf_cnpj`, `invalid_email`, `cep_uf_mismatch`. The sandbox's carrier refuses the same labels as `prepostagem_rejected`.
 * - The BFF's label policies and orders: `order_volume_conflict`, `agent_limit_reached`, `approval_pending`,
 *   `approval_rejected`, `approval_expired`, `identical_request_unknown`; a store order's life (docs/orders.md):
 *   `order_cancelled` (the store cancelled, refunded or voided it), `order_not_shipped` (picked up at the store).
 * - Packing (the BFF's `plan_shipment`, `shared/packing/plan.ts`): `item_does_not_fit`, `no_boxes_configured`.
 *
 * Which quote reasons ask the merchant rather than the shopper to act: `MERCHANT_SIDE_REASONS` in `reasons.ts`.
 */
export const ReasonSchema = /* @__PURE__ */ z.string();
