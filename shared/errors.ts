import * as z from 'zod/mini';

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

/** The REST error envelope of spec 7.1: `{"error":{"code","message","actionUrl"?}}`. */
export const ErrorBodySchema = /* @__PURE__ */ z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    actionUrl: z.optional(z.string()),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/**
 * An error in the platform's wire shape. Servers throw it; one handler turns it into a response.
 * @example throw new ApiError('too_many_items', 'items: at most 50 entries')
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly actionUrl: string | undefined;

  constructor(code: ErrorCode, message: string, actionUrl?: string) {
    super(message);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.actionUrl = actionUrl;
  }

  toBody(): ErrorBody {
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
