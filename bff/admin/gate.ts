import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError } from '../../shared/errors.ts';
import { type AdminSession, type AdminSessions, sendSessionRefused } from './session.ts';

/** Methods that change nothing: a session is enough for them, no CSRF token or Origin is asked. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How a route is called, and so how the gate asks for the token and answers a refusal. */
export type AdminGateKind =
  /** A JSON API under `/admin/api/` (the desk's script, scripts): `X-CSRF-Token`, refusals as spec 7.1 errors. */
  | 'api'
  /** An HTML form post (`/admin/agents/revoke`, `/admin/logout`…): the form's `csrf` field, refusals as a page. */
  | 'form';

/**
 * The one gate of every `/admin` route that needs the merchant signed in (`BFF_ADMIN_PASSWORD`): a session of
 * `AdminSessions` (a forged or expired cookie is none), and for a state-changing method an `Origin` of the desk's own
 * and the session's CSRF token (shared/security/csrf.ts). The session is then `adminSessionOf(res)`.
 *
 * `api` refuses through the BFF's one error path (`ApiError`, shared/errors.ts): 401 `invalid_api_key` without a
 * session, 403 `forbidden_origin` from another site, 403 `invalid_csrf_token` without the token; every answer of the
 * API is `Cache-Control: no-store`. `form` answers the admin pages' "Sessão inválida" page (403); mount it after the
 * form's body parser. A session the gate already admitted on this request (the desk's gate before the notifications'
 * routes) is not looked up again.
 */
export function requireAdminSession(
  sessions: Pick<AdminSessions, 'current' | 'refusal'>,
  kind: AdminGateKind = 'api',
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (kind === 'api') res.setHeader('Cache-Control', 'no-store');
    const admitted = res.locals.adminSession as AdminSession | undefined;
    const session = admitted ?? (await sessions.current(req));
    if (!session) {
      if (kind === 'form') return sendSessionRefused(res, 'no_session');
      throw new ApiError('invalid_api_key', 'Log in at /admin/login first.');
    }
    if (!SAFE_METHODS.has(req.method)) {
      const token =
        kind === 'api' ? req.headers['x-csrf-token'] : (req.body as { csrf?: unknown } | undefined)?.csrf;
      const refused = sessions.refusal(req, session, token);
      if (refused && kind === 'form') return sendSessionRefused(res, refused);
      if (refused === 'foreign_origin') throw new ApiError('forbidden_origin');
      if (refused) throw new ApiError('invalid_csrf_token');
    }
    res.locals.adminSession = session;
    next();
  };
}

/** The session `requireAdminSession` admitted for this request. */
export function adminSessionOf(res: Response): AdminSession {
  const session = res.locals.adminSession as AdminSession | undefined;
  if (!session) throw new Error('adminSessionOf: the route is not behind requireAdminSession');
  return session;
}
