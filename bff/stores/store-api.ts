/**
 * A store platform refused a call, or could not be reached, said in words the merchant can act on (which variable to
 * check, which scope the app lacks). `retryable`: worth trying again later (the platform was down, slow or busy).
 */
export class StoreRefused extends Error {
  override readonly name = 'StoreRefused';
  readonly retryable: boolean;

  constructor(message: string, retryable = false) {
    super(message);
    this.retryable = retryable;
  }
}

export function isStoreRefused(error: unknown): error is StoreRefused {
  return error instanceof Error && error.name === 'StoreRefused';
}

/** One call to a store platform's API, bounded in time; unreachable → `StoreRefused` (retryable). */
export async function storeCall(
  fetcher: typeof fetch | undefined,
  label: string,
  url: string,
  init: RequestInit,
  timeoutMs = 15_000,
): Promise<Response> {
  try {
    return await (fetcher ?? fetch)(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw new StoreRefused(`${label} could not be reached at ${new URL(url).origin}.`, true);
  }
}
