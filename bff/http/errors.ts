import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { ApiError, isApiError } from '../../shared/errors.ts';
import type { Logger } from '../logger.ts';

/** Answers 405 `method_not_allowed` naming the allowed methods (through `errorHandler`, as every error). */
export function methodNotAllowed(allow: string): RequestHandler {
  return (req, res) => {
    res.setHeader('Allow', allow);
    throw new ApiError('method_not_allowed', `${req.method} is not allowed here; use ${allow}.`);
  };
}

/** A `429 rate_limited` to throw, its `Retry-After` (seconds) set on the response. */
export function rateLimited(res: Response, retryAfterSeconds: number, message: string): ApiError {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  return new ApiError('rate_limited', message);
}

/** Refuses a body that is not JSON (`invalid_json`) before it is read. */
export const jsonOnly: RequestHandler = (req, _res, next) => {
  if (!req.is('application/json'))
    throw new ApiError('invalid_json', 'Send the body as JSON with Content-Type: application/json.');
  next();
};

/** Unknown routes: 404 `not_found` (our code; the spec lists none) in the spec 7.1 envelope. */
export const notFound: RequestHandler = (req) => {
  throw new ApiError('not_found', `No route ${req.method} ${req.path}.`);
};

/** The one place errors become responses: spec 7.1 envelopes; anything else a 500 that leaks nothing. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (isApiError(error)) {
      res.status(error.status).json(error.toBody());
      return;
    }
    // body-parser's own errors: the client's mistake, in the platform's words.
    const type = (error as { type?: string })?.type;
    if (type === 'entity.too.large')
      return void res
        .status(413)
        .json(new ApiError('payload_too_large', 'The JSON body is too large.').toBody());
    if (type === 'entity.parse.failed')
      return void res.status(400).json(new ApiError('invalid_json').toBody());
    const status = (error as { status?: number })?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json(new ApiError('invalid_body').toBody());
      return;
    }
    logger.error({ err: error, path: req.path }, 'unexpected error');
    res.status(500).json(new ApiError('internal_error').toBody());
  };
}
