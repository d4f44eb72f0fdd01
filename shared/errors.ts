import * as z from 'zod/mini';
import { MAX_BODY_TEXT, MAX_CODES, MAX_ITEMS } from './platform-limits.ts';

/** Every REST error code of spec 7.1 with its HTTP status: a closed set. */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_body: 400,
  invalid_destination_cep: 400,
  too_many_items: 400,
  too_many_codes: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  subscription_required: 402,
  secret_key_required: 403,
  wrong_key_scope: 403,
  merchant_not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  rate_limited: 429,
  quote_failed: 502,
  track_failed: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ErrorCodeSchema = /* @__PURE__ */ z.enum(ERROR_CODES);

/**
 * Codes our servers add where the spec lists none: an unknown route, an order not found by its number and CEP, and an
 * internal error. Never in the OpenAPI error examples or the shared `ErrorCodeSchema` (clients of the platform never
 * see them from a documented route).
 */
export const SERVER_ERROR_STATUS = {
  not_found: 404,
  /** `POST /api/orders/lookup`: an unknown order and a wrong CEP get this same answer (nothing tells them apart). */
  order_not_found: 404,
  internal_error: 500,
  /** A store platform's webhook whose order cannot be read from the platform now (it sends the webhook again). */
  store_unavailable: 503,
  /** The `/admin` gate (bff/admin/gate.ts): a state-changing call from another site's page, or without its token. */
  forbidden_origin: 403,
  invalid_csrf_token: 403,
  /** The desk's API (bff/desk/api.ts, docs/desk.md): an action the label or approval is not in a state for. */
  approval_not_pending: 409,
  agent_limit_reached: 409,
  label_not_printable: 409,
  not_resendable: 409,
  /** An operator's decision on an unknown outcome, refused (bff/labels/decisions.ts, docs/desk.md). */
  attempt_not_found: 404,
  not_unknown: 409,
  malformed_prepostagem_id: 400,
  malformed_tracking_code: 400,
  not_confirmed: 409,
  other_request: 409,
  bound_elsewhere: 409,
  created_in_history: 409,
  history_too_short: 409,
  history_unavailable: 503,
  reason_required: 400,
  /**
   * A label asked for under a store order's number to another CEP (bff/orders/binding.ts): nothing sent. A tool
   * refusal (`structuredContent.reason`) and the desk's 422 refusal body carry it; this is its home and its message.
   */
  order_mismatch: 409,
} as const;
export type ServerErrorCode = keyof typeof SERVER_ERROR_STATUS;

/** Every code an `ApiError` may carry. */
export type ApiErrorCode = ErrorCode | ServerErrorCode;

/**
 * The default message of each code, in the platform's words: the one home of these texts (servers pass their own
 * only when they say more, e.g. which field is wrong). The OpenAPI examples are these.
 */
export const ERROR_MESSAGES: Record<ApiErrorCode, string> = {
  invalid_json: 'The body is not valid JSON.',
  invalid_body: 'Bad request.',
  invalid_destination_cep: 'destinationCep: must be a CEP of 8 digits (dashes and spaces are ignored)',
  too_many_items: `items: must have at most ${MAX_ITEMS} entries`,
  too_many_codes: `codes: must have at most ${MAX_CODES} entries`,
  missing_api_key: 'Send Authorization: Bearer <API_KEY>.',
  invalid_api_key: 'The API key is not valid.',
  subscription_required: 'The store has no active plan.',
  secret_key_required: 'Tracking needs the secret key (mk_…), from a backend.',
  wrong_key_scope: 'A platform key cannot call merchant routes.',
  merchant_not_found: 'The store bound to this key was not found.',
  method_not_allowed: 'Use POST.',
  payload_too_large: `The JSON body is over ${MAX_BODY_TEXT} bytes.`,
  rate_limited: 'Too many requests; wait before retrying.',
  quote_failed: 'The carrier could not be queried; try again.',
  track_failed: 'The carrier could not be queried; try again.',
  not_found: 'Not found.',
  order_not_found: 'No order with this number and CEP. Check both and try again.',
  internal_error: 'Internal error.',
  store_unavailable: 'The store platform could not be reached now; send again later.',
  forbidden_origin: 'This request did not come from this desk.',
  invalid_csrf_token: 'Send the session’s CSRF token (GET /admin/api/session) in X-CSRF-Token.',
  approval_not_pending: 'The approval is no longer pending.',
  agent_limit_reached: "This label is over the agent's daily limits; nothing was sent.",
  label_not_printable: 'No printable label among these.',
  not_resendable: 'Only an attempt that was not sent is sent again.',
  attempt_not_found: 'No such attempt.',
  not_unknown: 'Only an unknown outcome is decided by a person.',
  malformed_prepostagem_id: 'A pre-posting id is 4 to 40 letters and digits, e.g. PP2275353189.',
  malformed_tracking_code: 'A tracking code is an S10 code, e.g. DG049186226BR.',
  not_confirmed: "The platform's recent history does not list this pre-posting as created for this store.",
  other_request: 'This pre-posting was created for another request.',
  bound_elsewhere: 'This pre-posting is already bound to another attempt.',
  created_in_history: "The platform's history lists a pre-posting created for this very request.",
  history_too_short: "The platform's recent history no longer reaches back to this attempt.",
  history_unavailable: "The platform's history could not be read now; try again in a minute.",
  reason_required: 'A forced decision needs a written reason of at least 10 characters.',
  order_mismatch: "This orderId is a store order's number, and the label does not go to that order's CEP.",
};

/** The REST error envelope of spec 7.1: `{"error":{"code","message","actionUrl"?}}`. */
export const ErrorBodySchema = /* @__PURE__ */ z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    actionUrl: z.optional(z.string()),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** What `ApiError.toBody()` writes: the envelope of spec 7.1, with our own codes too (`SERVER_ERROR_STATUS`). */
export type ApiErrorBody = {
  error: { code: ApiErrorCode; message: string; actionUrl?: string; [detail: string]: unknown };
};

/**
 * An error in the platform's wire shape, with the default message of its code unless given one. Servers throw it
 * (or answer with its `toBody()`); one handler per server turns it into a response.
 * @example throw new ApiError('too_many_items')
 * @example throw new ApiError('invalid_body', 'items.0.quantity: expected int')
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly actionUrl: string | undefined;
  /** What the body says besides code and message (the desk's `agent_limit_reached`: which limit, what is left). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: ApiErrorCode,
    message: string = ERROR_MESSAGES[code],
    actionUrl?: string,
    details?: Record<string, unknown>,
  ) {
    super(message);
    this.code = code;
    this.status =
      code in ERROR_STATUS ? ERROR_STATUS[code as ErrorCode] : SERVER_ERROR_STATUS[code as ServerErrorCode];
    this.actionUrl = actionUrl;
    this.details = details;
  }

  toBody(): ApiErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.actionUrl === undefined ? {} : { actionUrl: this.actionUrl }),
        ...this.details,
      },
    };
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && error.name === 'ApiError';
}
