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
  error: { code: ApiErrorCode; message: string; actionUrl?: string };
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

  constructor(code: ApiErrorCode, message: string = ERROR_MESSAGES[code], actionUrl?: string) {
    super(message);
    this.code = code;
    this.status =
      code in ERROR_STATUS ? ERROR_STATUS[code as ErrorCode] : SERVER_ERROR_STATUS[code as ServerErrorCode];
    this.actionUrl = actionUrl;
  }

  toBody(): ApiErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.actionUrl === undefined ? {} : { actionUrl: this.actionUrl }),
      },
    };
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && error.name === 'ApiError';
}
