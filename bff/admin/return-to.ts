import type { Request, Response } from 'express';
import { readCookie } from '../../shared/security/cookie.ts';

/** The cookie that remembers which /admin page a visitor asked for before logging in (15 minutes). */
export const RETURN_COOKIE = 'admin_return';
const RETURN_TTL_MS = 15 * 60_000;
/** Where a login goes when no page was remembered. */
export const DEFAULT_AFTER_LOGIN = '/admin/agents';

/** A path of ours under /admin (with its query), never another origin (`//evil`, `/\evil`) or something odd. */
function isAdminPath(path: string): boolean {
  if (path.length > 512 || !path.startsWith('/admin/') || /[\\\s]/.test(path) || path.startsWith('//'))
    return false;
  const base = 'http://admin.invalid';
  const url = new URL(path, base);
  return url.origin === base && url.pathname.startsWith('/admin/');
}

/** Remembers the page a visitor asked for, so that logging in returns there (`returnAfterLogin`). */
export function rememberReturn(res: Response, path: string, secure: boolean): void {
  if (!isAdminPath(path)) return;
  // Express URI-encodes the value; `returnAfterLogin` decodes it.
  res.cookie(RETURN_COOKIE, path, {
    path: '/admin',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: RETURN_TTL_MS,
  });
}

/** Where a successful login goes: the page remembered by `rememberReturn` (once), else /admin/agents. */
export function returnAfterLogin(req: Request, res: Response): string {
  const raw = readCookie(req.headers.cookie, RETURN_COOKIE);
  if (raw === undefined) return DEFAULT_AFTER_LOGIN;
  res.clearCookie(RETURN_COOKIE, { path: '/admin' });
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return DEFAULT_AFTER_LOGIN;
  }
  return isAdminPath(path) ? path : DEFAULT_AFTER_LOGIN;
}
