/**
 * Every number of spec section 8 ("Limits"), in one place. Schemas, servers, the widget, the OpenAPI text and the
 * agent texts import them from here, so a change to the spec is one edit.
 */

/** Spec 8: up to 50 item lines per `POST /v1/rates`. */
export const MAX_ITEMS = 50;

/** Spec 8: up to 50 codes per `POST /v1/tracking`. */
export const MAX_CODES = 50;

/** Spec 8: REST JSON bodies up to 32,000 bytes (413 `payload_too_large` beyond). */
export const MAX_BODY_BYTES = 32_000;

/** Spec 8: 60 calls per 60 seconds, per store and route (429 `rate_limited` beyond). A default, not a quota. */
export const RATE_LIMIT = { calls: 60, seconds: 60 } as const;

/** Spec 8: `diagnose_label_issue` without a support code lists up to 10 recent attempts. */
export const MAX_LISTED_ATTEMPTS = 10;

/** Spec 8: `diagnose_label_issue` looks back 90 days. */
export const ATTEMPT_HISTORY_DAYS = 90;

/**
 * Ours: the boxes of one order a label names (`volume` 1 to 999 in generate_label), and so the most volumes a plan of
 * plan_shipment may answer — a plan with more could never be labelled.
 */
export const MAX_VOLUME = 999;

/** Spec 8: an `orderId` is 1 to 160 characters. */
export const MAX_ORDER_ID_LENGTH = 160;

/**
 * Our identifiers (an order number, an idempotency key) hold no control characters: a NUL cannot even be stored by
 * PostgreSQL, so one would have been a 500 for a client's mistake instead of a clear 400.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** `RATE_LIMIT` as text (`60/60`), the form of the rate-limit variables. */
export const RATE_LIMIT_TEXT = /* @__PURE__ */ [RATE_LIMIT.calls, RATE_LIMIT.seconds].join('/');

/** `32,000`: the body limit as people read it. */
export const MAX_BODY_TEXT = /* @__PURE__ */ MAX_BODY_BYTES.toLocaleString('en-US');
