import express, { type RequestHandler, Router } from 'express';
import { ApiError } from '../../shared/errors.ts';
import { bodyError } from '../../shared/issues.ts';
import { MAX_BODY_BYTES } from '../../shared/platform-limits.ts';
import { sameSecret } from '../../shared/security/hash.ts';
import { jsonOnly, methodNotAllowed, rateLimited } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import { checkoutCaller, isQuoteShareSpent, type QuoteCaller } from './quote-share.ts';
import type { RatesService } from './service.ts';
import { RateVerifyRequestSchema, verifyRate } from './verify.ts';

/** What a 401 tells the caller to send (RFC 6750 §3; `error` only when a token was sent). */
const REALM = 'Bearer realm="frete-kit checkout"';

/**
 * The checkout token `authorization` carries, compared in constant time against every one of them (the time taken
 * says neither which token matched nor how much of one); undefined when it carries none of them.
 */
export function checkoutTokenOf(
  tokens: readonly string[],
  authorization: string | undefined,
): string | undefined {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!presented) return undefined;
  let found: string | undefined;
  for (const token of tokens) if (sameSecret(token, presented)) found = token;
  return found;
}

/**
 * Only the store's checkout servers: `Authorization: Bearer <one of BFF_CHECKOUT_TOKENS>`, before the body is read.
 * The token's quote caller goes on in `res.locals.quoteCaller` (each token has its own share of the quotes).
 */
export function checkoutAuth(tokens: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const authorization = req.headers.authorization;
    const token = checkoutTokenOf(tokens, authorization);
    if (token !== undefined) {
      res.locals.quoteCaller = checkoutCaller(token);
      return next();
    }
    if (!authorization) {
      res.setHeader('WWW-Authenticate', REALM);
      throw new ApiError(
        'missing_api_key',
        'Send Authorization: Bearer <checkout token> (BFF_CHECKOUT_TOKENS).',
      );
    }
    res.setHeader('WWW-Authenticate', `${REALM}, error="invalid_token"`);
    throw new ApiError('invalid_api_key', 'The checkout token is not valid.');
  };
}

/**
 * `POST /api/rates/verify` (docs/storefronts.md): the store's checkout server asks,
 * before it charges, what the shopper's choice costs now. Server to server: no CORS (a browser's preflight gets 405
 * and no `Access-Control-Allow-Origin`), a checkout token, the body checked with `RateVerifyRequestSchema`.
 */
export function ratesVerifyRoutes(deps: {
  tokens: readonly string[];
  rates: RatesService;
  logger: Logger;
}): Router {
  const router = Router();
  const json = express.json({ limit: MAX_BODY_BYTES, type: () => true });
  router.post('/api/rates/verify', checkoutAuth(deps.tokens), jsonOnly);
  router.post('/api/rates/verify', json, async (req, res) => {
    const parsed = RateVerifyRequestSchema.safeParse(req.body);
    if (!parsed.success) throw bodyError(parsed.error.issues, req.body, { list: 'items', cep: 'cep' });
    const caller: QuoteCaller = res.locals.quoteCaller;
    let answer: Awaited<ReturnType<typeof verifyRate>>;
    try {
      answer = await verifyRate(deps.rates, parsed.data, deps.logger, caller);
    } catch (error) {
      if (!isQuoteShareSpent(error)) throw error;
      throw rateLimited(res, error.retryAfterSeconds, quoteShareMessage(error.retryAfterSeconds));
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  });
  router.all('/api/rates/verify', methodNotAllowed('POST'));
  return router;
}

/** What a caller whose share of the quotes is spent reads (429 `rate_limited`, with `Retry-After`). */
export function quoteShareMessage(retryAfterSeconds: number): string {
  return `This caller's share of the store's quotes is spent; cached quotes are still answered. Retry in ${retryAfterSeconds} s.`;
}
