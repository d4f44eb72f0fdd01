import { Router } from 'express';

/**
 * A router that matches paths exactly (spec 4: only documented endpoints exist): `/V1/RATES`, `/v1/Rates` and
 * `/v1/rates/` are not `/v1/rates`, so they fall through to the 404.
 */
export function strictRouter(): Router {
  return Router({ caseSensitive: true, strict: true });
}
