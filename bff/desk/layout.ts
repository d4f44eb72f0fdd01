import type { Request, Response } from 'express';
import { type Html, html } from '../../shared/html.ts';
import { LOCALES, type Locale } from '../../shared/locale.ts';
import { pageHeaders } from '../../shared/security/page-headers.ts';
import { rememberReturn } from '../admin/return-to.ts';
import type { AdminSessions } from '../admin/session.ts';
import { RULES_MESSAGES } from '../rules/messages.ts';
import { STORE_MESSAGES } from '../stores/stores-page.ts';
import { MESSAGES, type Messages } from './messages.ts';
import { ORDER_MESSAGES } from './order-messages.ts';

/** Where the desk's stylesheet and script are served (`script-src 'self'`, `style-src 'self'`: nothing inline). */
export const DESK_CSS_PATH = '/admin/assets/desk.css';
export const DESK_SCRIPT_PATH = '/admin/assets/desk.js';

/**
 * The headers of every desk page: those of every page the servers render (`pageHeaders`), with the desk's script
 * allowed from this server alone and its API calls to this server alone.
 */
export function deskHeaders(): Record<string, string> {
  return {
    ...pageHeaders(),
    'Content-Security-Policy':
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  };
}

/** The admin pages the shared navigation links, in its order. */
export const DESK_SECTIONS = [
  'orders',
  'labels',
  'approvals',
  'agents',
  'notifications',
  'promise',
  'stores',
  'rules',
] as const;
export type DeskSection = (typeof DESK_SECTIONS)[number];

const SECTION_PATHS: Record<DeskSection, string> = {
  orders: '/admin/orders',
  labels: '/admin/labels',
  approvals: '/admin/approvals',
  agents: '/admin/agents',
  notifications: '/admin/notifications',
  promise: '/admin/promise',
  stores: '/admin/stores',
  rules: '/admin/rules',
};

const LANGUAGE_NAMES: Record<Locale, string> = { 'pt-BR': 'Português', en: 'English', es: 'Español' };

export interface DeskPageOptions {
  lang: Locale;
  title: string;
  /** What the script does on this page (`<body data-page>`); absent: the page needs no script. */
  page?: string;
  /** The section the page belongs to (`aria-current` in the navigation). */
  section?: DeskSection;
  /** The merchant's session: shows the navigation and the logout button, and gives the script its CSRF token. */
  session?: { csrf: string };
  /** Pending approvals, shown beside "Approvals" in the navigation. */
  pendingApprovals?: number;
  /** The desk's script was not built (`npm run build`): the page says its actions will not work. */
  scriptMissing?: boolean;
  /** This page's path and query, for the language switch's links. */
  here: string;
  body: Html;
}

/** This page in another language: its own path and query with `lang` set. */
function languageHref(here: string, lang: Locale): string {
  const url = new URL(here, 'http://desk.invalid');
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}`;
}

function navigation(t: Messages, options: DeskPageOptions): Html {
  const label: Record<DeskSection, string> = {
    orders: ORDER_MESSAGES[options.lang].navOrders,
    labels: t.navLabels,
    approvals: t.navApprovals,
    agents: t.navAgents,
    notifications: t.navNotifications,
    promise: t.navPromise,
    stores: STORE_MESSAGES[options.lang].navStores,
    rules: RULES_MESSAGES[options.lang].navRules,
  };
  const pending = options.pendingApprovals ?? 0;
  const items = DESK_SECTIONS.map(
    (section) =>
      html`<li><a href="${SECTION_PATHS[section]}"${options.section === section ? html` aria-current="page"` : ''}>${label[section]}${
        section === 'approvals' && pending > 0
          ? html` <span class="badge">${pending}<span class="visually-hidden"> (${t.pendingCount(pending)})</span></span>`
          : ''
      }</a></li>`,
  );
  return html`<nav class="sections" aria-label="${t.navLabel}"><ul>${items}</ul></nav>`;
}

function languageSwitch(t: Messages, options: DeskPageOptions): Html {
  const items = LOCALES.map(
    (lang) =>
      html`<li><a href="${languageHref(options.here, lang)}" hreflang="${lang}" lang="${lang}"${
        lang === options.lang ? html` aria-current="true"` : ''
      }>${LANGUAGE_NAMES[lang]}</a></li>`,
  );
  return html`<nav class="languages" aria-label="${t.languageLabel}"><ul>${items}</ul></nav>`;
}

/**
 * A whole desk page in the merchant's language: a skip link, the shared navigation (Etiquetas, Aprovações, Agentes,
 * Notificações) and the language switch, the logout button, then the page's own content. No inline script or style
 * (`deskHeaders`); the script is one ES module served by the BFF, and reads the session's CSRF token from
 * `<meta name="csrf-token">` for the JSON API.
 */
export function deskPage(options: DeskPageOptions): string {
  const t = MESSAGES[options.lang];
  const { session } = options;
  return html`<!doctype html>
<html lang="${options.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="color-scheme" content="light dark">
${session ? html`<meta name="csrf-token" content="${session.csrf}">` : ''}
<title>${options.title} — ${t.titleSuffix}</title>
<link rel="stylesheet" href="${DESK_CSS_PATH}">
${options.page ? html`<script type="module" src="${DESK_SCRIPT_PATH}"></script>` : ''}
</head>
<body${options.page ? html` data-page="${options.page}"` : ''}>
<a class="skip" href="#main">${t.skip}</a>
<header class="top">
<div class="bar">
<span class="brand">${t.brand}</span>
${languageSwitch(t, options)}
${
  session
    ? html`<form class="logout" method="post" action="/admin/logout">
<input type="hidden" name="csrf" value="${session.csrf}">
<button class="link" type="submit">${t.logout}</button>
</form>`
    : ''
}
</div>
${session ? navigation(t, options) : ''}
</header>
<main id="main" tabindex="-1">
${options.scriptMissing ? html`<p class="notice notice-error">${t.scriptMissing}</p>` : ''}
${options.body}
</main>
</body>
</html>
`.text;
}

/** Answers with a whole desk page (`deskPage`) and the desk's headers (`deskHeaders`). */
export function sendDeskPage(res: Response, status: number, options: DeskPageOptions): void {
  res.set(deskHeaders()).status(status).type('html').send(deskPage(options));
}

/**
 * A desk page asked for without a session: the login form, in the visitor's language, and logging in comes back to
 * `back` (default: the page asked for).
 */
export function sendLoginPage(
  req: Request,
  res: Response,
  options: { lang: Locale; sessions: Pick<AdminSessions, 'csrf'>; secure: boolean; back?: string },
): void {
  const { lang, sessions, secure, back = req.originalUrl } = options;
  const t = MESSAGES[lang];
  rememberReturn(res, back, secure);
  const csrf = sessions.csrf.issue(res);
  sendDeskPage(res, 200, { lang, title: t.loginTitle, body: loginBody(t, csrf), here: req.originalUrl });
}

/** The login form of a desk page asked for without a session. */
function loginBody(t: Messages, csrf: string): Html {
  return html`<div class="narrow">
<h1>${t.loginHeading}</h1>
<p>${t.loginIntro}</p>
<form method="post" action="/admin/login">
<input type="hidden" name="csrf" value="${csrf}">
<label for="password">${t.loginPassword}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button class="primary" type="submit">${t.loginSubmit}</button></div>
</form>
</div>`;
}
