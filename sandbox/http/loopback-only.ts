import type { RequestHandler } from 'express';
import { ApiError } from '../../shared/errors.ts';
import { isLoopbackAddress } from '../../shared/security/loopback.ts';

/** The control API (`/_sandbox/*`) answers only on loopback; elsewhere it does not exist (404). */
export const loopbackOnly: RequestHandler = (req, _res, next) => {
  if (isLoopbackAddress(req.socket.remoteAddress)) return next();
  throw new ApiError('not_found');
};
