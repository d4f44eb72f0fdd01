import type { Request, RequestHandler, Response } from 'express';
import { NUVEMSHOP_HMAC_HEADER, nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import {
  SHOPIFY_HEADER_FAMILIES,
  type ShopifyHeaderFamily,
  shopifyHmac,
} from '../../shared/checkouts/shopify.ts';
import { ApiError } from '../../shared/errors.ts';
import { sameSecret } from '../../shared/security/hash.ts';
import { rateLimited } from '../http/errors.ts';

/**
 * The one check of every body a store platform signs (docs/security.md, "Signed bodies"): Shopify's webhooks and
 * carrier callback, Nuvemshop's webhooks. As `shopify-app-js` does with `lib/utils/hmac-validator.ts`, one verifier
 * serves every route; unlike `express.raw`, it bounds what an unsigned stranger can make the BFF hold:
 *
 * 1. a body without a signature header is refused `401` before a byte of it is read (unless the route takes unsigned
 *    bodies: the carrier callback on its secret URL);
 * 2. a declared length over the route's cap is `413` before a byte is read, and the connection closed;
 * 3. the bytes of bodies being read before their signature is checked are bounded across this BFF instance
 *    (`UnverifiedBytes`): a body that would pass the bound is `429` with `Retry-After` (the platforms send again);
 * 4. a body that does not arrive within `readTimeoutMs` is dropped, its bytes given back;
 * 5. the signature is an HMAC-SHA256 of the raw body with the app's secret (Shopify base64, Nuvemshop hex), compared
 *    in time that does not depend on how much matched (`sameSecret`).
 */

/** The caps per route, from the platforms' payloads (measured in signed-body.test.ts against the sandbox's). */
export const BODY_CAPS = {
  /**
   * An order webhook carries the whole order, every line with its price sets, taxes, discounts and properties: the
   * sandbox's 50-line order is 13 KB, Shopify's own lines carry a few KB each; 512 KB is a few hundred lines.
   */
  shopifyWebhook: 512 * 1024,
  /** A rate request carries the cart's lines (name, sku, grams, price, properties): 256 KB is ~1,000 lines. */
  shopifyCarrier: 256 * 1024,
  /** `{store_id, event, id}`, or an LGPD request with its list of order ids (~8,000 ids). */
  nuvemshopWebhook: 64 * 1024,
} as const;

/** What bodies not yet verified may hold at once in this instance: 8 of the largest, hundreds of usual ones. */
export const UNVERIFIED_BYTES = 4 * 1024 * 1024;

/** How long a signed body has to arrive: platforms send a few KB at once; a trickle is a stranger's. */
export const BODY_READ_TIMEOUT_MS = 10_000;

/** The bytes held by bodies whose signature is not checked yet: taken before reading, given back after. */
export class UnverifiedBytes {
  private heldBytes = 0;
  readonly limit: number;

  constructor(limit = UNVERIFIED_BYTES) {
    this.limit = limit;
  }

  get held(): number {
    return this.heldBytes;
  }

  take(bytes: number): boolean {
    if (this.heldBytes + bytes > this.limit) return false;
    this.heldBytes += bytes;
    return true;
  }

  give(bytes: number): void {
    this.heldBytes = Math.max(0, this.heldBytes - bytes);
  }
}

/** A Shopify delivery's headers, of whichever family carried its signature. */
export interface ShopifyDelivery {
  family: ShopifyHeaderFamily;
  topic: string | undefined;
  shop: string | undefined;
  /** The delivery's id: the same on every retry of one delivery. */
  deliveryId: string | undefined;
}

export type SignedPlatform = 'shopify' | 'nuvemshop';

export interface SignedRoute {
  platform: SignedPlatform;
  secret: string;
  /** The largest body this route takes (`BODY_CAPS`). */
  cap: number;
  pool: UnverifiedBytes;
  /** Whether a body without a signature header is taken (the carrier callback on its secret URL). */
  unsignedAccepted?: boolean;
  readTimeoutMs?: number;
}

/**
 * The family of a Shopify request, by `shopify-app-js`'s rule (`lib/webhooks/validate.ts`, `detectWebhookType`): a
 * `shopify-hmac-sha256` header means the new family (events send both, so it is looked for first); otherwise the
 * `x-shopify-*` family.
 */
export function shopifyFamilyOf(req: Request): ShopifyHeaderFamily {
  return req.get(SHOPIFY_HEADER_FAMILIES.events.hmac) ? 'events' : 'webhooks';
}

/** The topic, shop and delivery id of a Shopify request, read from its signature's family. */
export function shopifyDeliveryOf(req: Request): ShopifyDelivery {
  const family = shopifyFamilyOf(req);
  const names = SHOPIFY_HEADER_FAMILIES[family];
  const read = (name: string) => req.get(name)?.trim() || undefined;
  return {
    family,
    topic: read(names.topic),
    shop: read(names.shop)?.toLowerCase(),
    deliveryId: names.deliveryIds.map(read).find((id) => id !== undefined),
  };
}

function signatureHeader(req: Request, platform: SignedPlatform): string {
  return platform === 'shopify' ? SHOPIFY_HEADER_FAMILIES[shopifyFamilyOf(req)].hmac : NUVEMSHOP_HMAC_HEADER;
}

function expectedSignature(platform: SignedPlatform, secret: string, body: Buffer): string {
  return platform === 'shopify' ? shopifyHmac(secret, body) : nuvemshopHmac(secret, body);
}

const PLATFORM_NAMES = { shopify: 'Shopify', nuvemshop: 'Nuvemshop' } as const;

/**
 * The middleware of a signed route: the body read within its bounds and its signature checked; then `req.body` is
 * the verified raw body (a Buffer, empty when none).
 */
export function signedBody(route: SignedRoute): RequestHandler {
  return async (req, res, next) => {
    const header = signatureHeader(req, route.platform);
    const presented = req.get(header)?.trim();
    if (!presented && !route.unsignedAccepted) {
      res.setHeader('Connection', 'close');
      throw new ApiError(
        'missing_api_key',
        `Send ${header} (${PLATFORM_NAMES[route.platform]} signs every call).`,
      );
    }
    const body = await readBounded(req, res, route);
    if (presented && !sameSecret(expectedSignature(route.platform, route.secret, body), presented))
      throw new ApiError('invalid_api_key', `The ${header} signature does not match the body.`);
    req.body = body;
    next();
  };
}

function tooLarge(res: Response, cap: number): ApiError {
  res.setHeader('Connection', 'close');
  return new ApiError('payload_too_large', `The body is over ${cap} bytes.`);
}

/** The raw body, read within the route's cap, the pool of unverified bytes and the read deadline. */
async function readBounded(req: Request, res: Response, route: SignedRoute): Promise<Buffer> {
  const declared = req.headers['content-length'];
  const length = declared === undefined ? undefined : Number(declared);
  if (length !== undefined && (!Number.isSafeInteger(length) || length < 0)) throw tooLarge(res, route.cap);
  if (length !== undefined && length > route.cap) throw tooLarge(res, route.cap);
  if (length === 0) return Buffer.alloc(0);
  const reserved = length ?? route.cap;
  if (!route.pool.take(reserved)) {
    res.setHeader('Connection', 'close');
    throw rateLimited(res, 1, 'Too many bodies are being read now; send again in a second.');
  }
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (error?: ApiError) => {
        clearTimeout(timer);
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('aborted', onAborted);
        if (error) {
          // Nothing more is read: the refusal is answered and the connection closed after it.
          req.pause();
          res.setHeader('Connection', 'close');
          reject(error);
        } else resolve(Buffer.concat(chunks, size));
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > reserved) return finish(tooLarge(res, route.cap));
        chunks.push(chunk);
      };
      const onEnd = () => finish();
      const onError = () => finish(new ApiError('invalid_body', 'The body could not be read.'));
      const onAborted = onError;
      const timer = setTimeout(
        () => finish(new ApiError('invalid_body', 'The body did not arrive in time.')),
        route.readTimeoutMs ?? BODY_READ_TIMEOUT_MS,
      );
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('aborted', onAborted);
    });
  } finally {
    route.pool.give(reserved);
  }
}
