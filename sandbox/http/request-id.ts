import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

/** Every response carries `X-Request-Id`, for the merchant to quote to support. */
export const requestId: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Request-Id', randomUUID());
  next();
};

/** A client's `requestId` becomes the response's id when it is a safe header value (spec 4.1: correlation id). */
export function useClientRequestId(
  res: { setHeader(name: string, value: string): unknown },
  id: string | undefined,
): void {
  if (id && /^[\x21-\x7E]{1,128}$/.test(id)) res.setHeader('X-Request-Id', id);
}
