import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError, isApiError } from '../../shared/errors.ts';
import { restChallenge } from './auth.ts';

/** Unknown routes: 404 in the platform's envelope (`not_found` is the sandbox's word; the spec lists no code). */
export const sandboxNotFound: RequestHandler = (req) => {
  throw new ApiError('not_found', `No route ${req.method} ${req.path}. Only documented endpoints exist.`);
};

/** Answers 405 `method_not_allowed` naming the allowed methods. */
export function sandboxMethodNotAllowed(allow: string): RequestHandler {
  return (req, res) => {
    res.setHeader('Allow', allow);
    throw new ApiError(
      'method_not_allowed',
      `${req.method} is not allowed here; use ${allow.split(',')[0]}.`,
    );
  };
}

/** A JSON-RPC error answer of `/mcp` (a request the MCP server never saw: malformed, or failed on purpose). */
export function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** A client that closed the connection mid-request: nothing to answer and nothing wrong on our side. */
function clientWentAway(req: Request, error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return (
    req.readableAborted ||
    code === 'ECONNRESET' ||
    code === 'ECONNABORTED' ||
    (error instanceof Error && error.message === 'aborted')
  );
}

/** The one place errors become responses: `ApiError` in its wire shape, anything else a 500 that leaks nothing. */
export function sandboxErrorHandler(logger: Logger | undefined): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (!isApiError(error) && clientWentAway(req, error)) {
      logger?.debug({ path: req.path }, 'sandbox: client went away before the answer');
      res.destroy();
      return;
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (isApiError(error)) {
      if (error.status === 413) res.setHeader('Connection', 'close');
      // RFC 9110 §15.5.2: every 401 carries a challenge (the MCP route sets its own first).
      if (
        (error.code === 'missing_api_key' || error.code === 'invalid_api_key') &&
        !res.hasHeader('WWW-Authenticate')
      )
        res.setHeader('WWW-Authenticate', restChallenge(error.code));
      res.status(error.status).json(error.toBody());
      return;
    }
    // Express's own body/URL errors carry a 4xx status: still the client's mistake, never a 500.
    const status =
      typeof error?.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) logger?.error({ err: error }, 'sandbox: unexpected error');
    res.status(status).json(new ApiError(status === 500 ? 'internal_error' : 'invalid_body').toBody());
  };
}
