import type { Request, Response } from 'express';
import { readCookie } from '../../shared/security/cookie.ts';
import { type DeskLang, deskLangOf } from './messages.ts';

/** The cookie that keeps the language the merchant picked on the desk's switch. */
export const LANG_COOKIE = 'desk_lang';

/**
 * The desk's language for this request: a `?lang=` the merchant picked on the language switch (kept in a cookie for
 * the next pages), else the cookie, else the browser's `Accept-Language` (negotiated by Express's `accepts`, with
 * q-values: `pt-PT` and `pt` read pt-BR), else pt-BR.
 */
export function pickLanguage(req: Request, res: Response, secure: boolean): DeskLang {
  const asked = typeof req.query.lang === 'string' ? deskLangOf(req.query.lang) : undefined;
  if (asked) {
    res.cookie(LANG_COOKIE, asked, {
      path: '/admin',
      sameSite: 'lax',
      httpOnly: true,
      secure,
      maxAge: 365 * 86_400_000,
    });
    return asked;
  }
  const kept = deskLangOf(readCookie(req.headers.cookie, LANG_COOKIE));
  if (kept) return kept;
  const accepted = req.acceptsLanguages('pt-BR', 'pt', 'en', 'es');
  return (accepted && deskLangOf(accepted)) || 'pt-BR';
}
