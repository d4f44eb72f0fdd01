import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks signature (standardwebhooks.com, "Signature scheme"): `v1,` and the base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>` with the secret's bytes (the base64 after `whsec_`). Written here with
 * node:crypto rather than taking the reference library as a runtime dependency for these four lines; the tests verify
 * every webhook with the reference library (`standardwebhooks`) on the receiving side.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** Why a try failed, in a line for the desk's log (never the response body, which the merchant's server wrote). */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  /** Retrying cannot help (the address was refused for good). */
  readonly permanent: boolean;

  constructor(message: string, permanent = false) {
    super(message);
    this.permanent = permanent;
  }
}

export interface WebhookSenderOptions {
  url: string;
  secret: string;
  /** The wall clock of `webhook-timestamp`: the receiver's replay guard compares it with its own clock. */
  clock?: () => number;
  /** How long one try may take (default 10 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Posts one event to the merchant's endpoint, signed: `webhook-id` is the event's id (the same on every try, so the
 * receiver can drop a repeat), `webhook-timestamp` the time of this try. A 2xx is delivered; anything else, a
 * redirect included, a timeout or a refused connection is a failed try (retried by the dispatcher).
 */
export class WebhookSender {
  private readonly options: Required<Omit<WebhookSenderOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: WebhookSenderOptions) {
    this.options = { clock: Date.now, timeoutMs: 10_000, fetch: globalThis.fetch, ...options };
  }

  get url(): string {
    return this.options.url;
  }

  async send(id: string, body: string): Promise<void> {
    const { url, secret, clock, timeoutMs } = this.options;
    const timestamp = Math.floor(clock() / 1000);
    let res: Response;
    try {
      res = await this.options.fetch(url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'frete-kit-webhooks',
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(secret, id, timestamp, body),
        },
        body,
      });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : 'the endpoint could not be reached';
      throw new DeliveryError(reason);
    }
    await res.body?.cancel().catch(() => undefined);
    if (res.status < 200 || res.status >= 300)
      throw new DeliveryError(`the endpoint answered HTTP ${res.status}`);
  }
}
