import type { RequestHandler } from 'express';

/** Spec 4.1 / 5.1 rule 5: `/v1/rates` is callable from any browser origin; nothing else gets CORS headers. */
export const ratesCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After, WWW-Authenticate, X-Request-Id');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'POST');
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return;
  }
  next();
};
