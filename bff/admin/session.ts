import type { Request, Response } from 'express';
import { html, page } from '../../shared/html.ts';
import { OAUTH_CSS_PATH } from '../../shared/oauth/server.ts';
import type { OAuthStore } from '../../shared/oauth/store.ts';
import { readCookie } from '../../shared/security/cookie.ts';
import { CsrfGuard, type CsrfRefusal } from '../../shared/security/csrf.ts';
import { sha256Hex } from '../../shared/security/hash.ts';
import { pageHeaders } from '../../shared/security/page-headers.ts';

/** The cookie of an /admin session (HttpOnly, SameSite=Strict, path /admin). */
export const SESSION_COOKIE = 'admin_session';
/** How long an /admin session lasts. */
export const SESSION_TTL_MS = 8 * 3_600_000;

/** An admin session: its CSRF token (stored as JSON under the hash of the session cookie). */
export interface AdminSession {
  csrf: string;
}

/**
 * The merchant's /admin sessions, for the pages (bff/admin/), the desk's JSON API (bff/desk/) and every other admin
 * route: a session is read from its cookie (stored hashed in the OAuth store, so any instance serves it), and every
 * state-changing request must come from the BFF's own page (`Origin` / `Sec-Fetch-Site`) and carry the session's
 * CSRF token — a form's `csrf` field, or the `X-CSRF-Token` header of an API call. Routes ask through the one gate,
 * `requireAdminSession` (./gate.ts).
 */
export class AdminSessions {
  readonly csrf: CsrfGuard;
  private readonly store: OAuthStore;
  private readonly now: () => number;

  constructor(options: { store: OAuthStore; publicUrl: string; now?: () => number }) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.csrf = new CsrfGuard({
      cookie: 'admin_csrf',
      path: '/admin',
      secure: options.publicUrl.startsWith('https:'),
      origins: { publicUrl: options.publicUrl, loopback: 'this-port' },
    });
  }

  /** The session of this request's cookie, or undefined (none, unknown, expired). */
  async current(req: Request): Promise<AdminSession | undefined> {
    const id = readCookie(req.headers.cookie, SESSION_COOKIE);
    const found = id ? await this.store.getSession(sha256Hex(id), 'admin', this.now()) : undefined;
    return found === undefined ? undefined : (JSON.parse(found) as AdminSession);
  }

  /** Why a state-changing request in a session is refused (`token`: the form field or the header), or undefined. */
  refusal(
    req: Request,
    session: AdminSession | undefined,
    token: unknown,
  ): CsrfRefusal | 'no_session' | undefined {
    if (!session) return 'no_session';
    return this.csrf.checkSession(req, session.csrf, token);
  }
}

/** What the merchant reads when a form post is refused: sent from another site's page, or with a stale token. */
export const REFUSED: Record<CsrfRefusal, string> = {
  foreign_origin: 'O pedido veio de outra página, não desta administração; nada foi feito.',
  bad_token: 'O formulário expirou. Tente de novo.',
};

/** The page of a form post refused in a session (`AdminSessions.refusal`): nothing was done, log in again. */
export function sendSessionRefused(res: Response, refusal: CsrfRefusal | 'no_session'): void {
  const why = refusal === 'foreign_origin' ? REFUSED.foreign_origin : 'A sessão expirou.';
  const body = html`<h1>Sessão inválida</h1>
<p class="error" role="alert">${why} Entre de novo em <a href="/admin/agents">/admin/agents</a>.</p>`;
  res
    .set(pageHeaders())
    .status(403)
    .type('html')
    .send(page('Sessão inválida', body, OAUTH_CSS_PATH));
}
