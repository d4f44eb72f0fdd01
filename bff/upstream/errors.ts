/** What went wrong upstream, in the terms the BFF acts on (spec 7.3). */
export type UpstreamFailure =
  /** 400/401/402/403/404: configuration or credentials; the merchant must act; never retried. */
  | 'config'
  /** 429 after the retries (or a Retry-After too long to wait). */
  | 'limited'
  /** 5xx, network errors and timeouts after the retries. */
  | 'unavailable'
  /** A 200 whose body breaks the contract. */
  | 'malformed';

/** An upstream call that did not give a usable answer. Carries no key; its `actionUrl` is for the merchant only. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly failure: UpstreamFailure;
  readonly status: number | undefined;
  readonly code: string | undefined;
  /** For the merchant (and the merchant's agents) only: never shown to the public. */
  readonly actionUrl: string | undefined;

  constructor(
    failure: UpstreamFailure,
    message: string,
    details: { status?: number; code?: string; actionUrl?: string } = {},
  ) {
    super(message);
    this.failure = failure;
    this.status = details.status;
    this.code = details.code;
    this.actionUrl = details.actionUrl;
  }
}

export function isUpstreamError(error: unknown): error is UpstreamError {
  return error instanceof Error && error.name === 'UpstreamError';
}
