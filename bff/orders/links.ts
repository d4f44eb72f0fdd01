import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Locale } from '../../shared/locale.ts';

/** How long a signed link opens its order's page: longer than any delivery and return takes. */
export const LINK_TTL_MS = 90 * 86_400_000;

const TOKEN = /^([A-Za-z0-9_-]{10,120})\.([A-Za-z0-9_-]{22})$/;

export interface TrackingLinksOptions {
  secret: Buffer;
  publicUrl: string;
  now?: () => number;
}

/**
 * Signed links to an order's tracking page, `/track/s/<token>`: the token names one label (the ledger's attempt id,
 * a random UUID) and when the link expires, signed with HMAC-SHA256 (`BFF_LINK_SECRET`, see link-secret.ts), the tag
 * cut to 128 bits. No personal data: no name, address, e-mail, CEP or order number is in it, only an id that means
 * nothing without the ledger.
 */
export class TrackingLinks {
  private readonly options: Required<TrackingLinksOptions>;

  constructor(options: TrackingLinksOptions) {
    this.options = { now: Date.now, ...options };
  }

  token(attemptId: string): string {
    const expires = Math.floor((this.options.now() + LINK_TTL_MS) / 1000);
    const payload = Buffer.from(`${attemptId}.${expires}`).toString('base64url');
    return `${payload}.${this.tag(payload)}`;
  }

  /** The absolute link; `?lang=` carries the order's language to the page (not personal data). */
  url(attemptId: string, locale?: Locale): string {
    const lang = locale && locale !== 'pt-BR' ? `?lang=${locale}` : '';
    return `${this.options.publicUrl}/track/s/${this.token(attemptId)}${lang}`;
  }

  /** The attempt a token names, when it was signed with our key and has not expired; undefined otherwise. */
  verify(token: string): string | undefined {
    const match = TOKEN.exec(token);
    if (!match?.[1] || !match[2]) return undefined;
    const expected = Buffer.from(this.tag(match[1]));
    const given = Buffer.from(match[2]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    const [attemptId, expires] = Buffer.from(match[1], 'base64url').toString().split('.');
    if (!attemptId || !expires || !/^\d+$/.test(expires)) return undefined;
    if (Number(expires) * 1000 <= this.options.now()) return undefined;
    return attemptId;
  }

  private tag(payload: string): string {
    return createHmac('sha256', this.options.secret)
      .update(payload)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}
