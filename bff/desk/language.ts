import type { Request, Response } from 'express';
import { type Locale, localeOf, negotiateLocale } from '../../shared/locale.ts';
import { readCookie } from '../../shared/security/cookie.ts';

/** The cookie that keeps the language the merchant picked on the desk's switch. */
export const LANG_COOKIE = 'desk_lang';

/**
 * The desk's language for this request, by the project's one rule for language tags (`shared/locale.ts`, as the
 * widgets and e-mails read them: `pt`, `pt-PT`, `pt_BR` read pt-BR): a `?lang=` the merchant picked on the language
 * switch (kept in a cookie for the next pages), else the cookie, else the browser's `Accept-Language` (with its
 * q-values), else pt-BR.
 */
export function pickLanguage(req: Request, res: Response, secure: boolean): Locale {
  const asked = typeof req.query.lang === 'string' ? localeOf(req.query.lang) : undefined;
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
  return (
    localeOf(readCookie(req.headers.cookie, LANG_COOKIE)) ??
    negotiateLocale(req.headers['accept-language']) ??
    'pt-BR'
  );
}
