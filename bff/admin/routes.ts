import express, { type Response, Router } from 'express';
import { type Html, html, page } from '../../shared/html.ts';
import { clientIdHost } from '../../shared/oauth/client-metadata.ts';
import { waitText } from '../../shared/oauth/login-guard.ts';
import { OAUTH_CSS_PATH } from '../../shared/oauth/server.ts';
import { readCookie } from '../../shared/security/cookie.ts';
import { randomToken, sameSecret, sha256Hex } from '../../shared/security/hash.ts';
import { pageHeaders } from '../../shared/security/page-headers.ts';
import type { BffConfig } from '../config.ts';
import { agentPolicyRow } from '../desk/agent-policy-form.ts';
import { formatWhen } from '../desk/format.ts';
import { sendDeskPage } from '../desk/layout.ts';
import { type BffOAuth, clientPolicy, MERCHANT, SCOPE_LABELS } from '../oauth/oauth.ts';
import { requireAdminSession } from './gate.ts';
import { returnAfterLogin } from './return-to.ts';
import {
  type AdminSessions,
  REFUSED,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  type AdminSession as Session,
} from './session.ts';

/** Agents a page of `/admin/agents` shows at most (three queries a page, whatever the number of registrations). */
export const AGENTS_PER_PAGE = 50;

export interface AdminDeps {
  oauth: BffOAuth;
  config: BffConfig;
  sessions: AdminSessions;
  now?: () => number;
}

/** Brasília's date and time, as on every desk page (bff/desk/format.ts). */
function when(ms: number | null): string {
  return ms === null ? 'nunca' : formatWhen(ms, 'pt-BR');
}

/**
 * `/admin/agents` behind the merchant's password (`BFF_ADMIN_PASSWORD`): the OAuth clients connected to `/mcp` with
 * their scopes and last use, and a revoke button per client (its tokens stop at once). Sessions (8 h) live hashed
 * in the OAuth store, so any instance serves them. Every post must come from the BFF's own page (its `Origin`, or
 * `Sec-Fetch-Site` without one) and carry a CSRF token: the login form a double-submit one, the others the session's
 * (docs/agents/connect.md, "OAuth: the choices made").
 */
export function adminRoutes(deps: AdminDeps): Router {
  const { oauth, config } = deps;
  const password = config.adminPassword ?? '';
  const now = deps.now ?? Date.now;
  const store = oauth.store;
  const secure = config.publicUrl.startsWith('https:');
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '4kb' });
  const { csrf } = deps.sessions;

  /** A page; with a session, inside the desk's layout (its navigation, stylesheet and script: deskPage). */
  const send = (res: Response, status: number, title: string, body: Html, signedIn?: Session) => {
    if (signedIn) {
      const agents = { page: 'agents', section: 'agents', here: '/admin/agents' } as const;
      return sendDeskPage(res, status, { ...agents, lang: 'pt-BR', title, session: signedIn, body });
    }
    res
      .set(pageHeaders())
      .status(status)
      .type('html')
      .send(page(title, body, OAUTH_CSS_PATH));
  };

  const loginPage = (res: Response, status: number, error?: string) => {
    const token = csrf.issue(res);
    send(
      res,
      status,
      'Entrar — administração',
      html`<h1>Administração — frete-kit</h1>
${error ? html`<p class="error" role="alert" id="login-error">${error}</p>` : ''}
<form method="post" action="/admin/login">
<input type="hidden" name="csrf" value="${token}">
<label for="password">Senha do lojista</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${
        error ? html` aria-describedby="login-error"` : ''
      }>
<div class="actions"><button class="primary" type="submit">Entrar</button></div>
</form>`,
    );
  };

  router.get('/admin', (_req, res) => res.redirect(302, '/admin/agents'));

  router.get('/admin/agents', async (req, res) => {
    const current = await deps.sessions.current(req);
    if (!current) return loginPage(res, 200);
    // Connected: the clients the merchant consented to, newest consent first, one page at a time. Registration is
    // open, so a client that never got the merchant's consent is not shown (it can do nothing).
    const total = await oauth.store.countConsentedClients();
    const pages = Math.max(1, Math.ceil(total / AGENTS_PER_PAGE));
    const asked = Number(req.query.page);
    const pageNumber = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, pages) : 1;
    const listed = await oauth.store.consentedClients({
      limit: AGENTS_PER_PAGE,
      offset: (pageNumber - 1) * AGENTS_PER_PAGE,
    });
    const held = await oauth.store.activeScopesOf(
      listed.map((client) => client.idHash),
      now(),
    );
    const rows = listed.map((client) => {
      const scopes = held.get(client.idHash) ?? [];
      const hosts = client.metadata.redirect_uris.map((uri) => {
        const url = new URL(uri);
        return /^https?:$/.test(url.protocol) ? url.host : url.protocol;
      });
      return html`<tr>
<td>${client.metadata.client_name || 'Aplicativo sem nome'}${client.documentUrl ? ` (${clientIdHost(client.documentUrl)})` : ''}</td>
<td>${[...new Set(hosts)].join(', ')}</td>
<td>${scopes.length > 0 ? scopes.map((s) => SCOPE_LABELS[s as keyof typeof SCOPE_LABELS] ?? s).join('; ') : 'nenhuma ativa'}</td>
<td>${when(client.lastUsedAt)}</td>
<td><form method="post" action="/admin/agents/revoke">
<input type="hidden" name="csrf" value="${current.csrf}">
<input type="hidden" name="client" value="${client.idHash}">
<button class="secondary" type="submit" aria-label="Revogar ${client.metadata.client_name || 'aplicativo sem nome'}">Revogar</button>
</form></td>
</tr>
${agentPolicyRow({ idHash: client.idHash, name: client.metadata.client_name || 'Aplicativo sem nome' }, clientPolicy(client), Object.keys(config.serviceCodes), 5)}`;
    });
    const link = (n: number, label: string) => html`<a href="/admin/agents?page=${String(n)}">${label}</a>`;
    const pager =
      pages === 1
        ? ''
        : html`<nav aria-label="Páginas de agentes"><p>Página ${String(pageNumber)} de ${String(pages)} (${String(total)} agentes)
${pageNumber > 1 ? link(pageNumber - 1, '← Mais recentes') : ''}
${pageNumber < pages ? link(pageNumber + 1, 'Mais antigos →') : ''}</p></nav>`;
    send(
      res,
      200,
      'Agentes conectados',
      html`<h1>Agentes conectados</h1>
${
  rows.length === 0
    ? html`<p>Nenhum agente conectado por OAuth.</p>`
    : html`<table>
<caption>Aplicativos autorizados a usar o MCP da loja</caption>
<thead><tr><th scope="col">Aplicativo</th><th scope="col">Retorno</th><th scope="col">Permissões</th><th scope="col">Último uso</th><th scope="col">Ação</th></tr></thead>
<tbody>${rows}</tbody>
</table>
${pager}`
}
<p>Tokens fixos de <code>BFF_AGENT_TOKENS</code> não aparecem aqui: mude a configuração para revogá-los.</p>`,
      current,
    );
  });

  router.post('/admin/login', form, async (req, res) => {
    const refused = csrf.checkDoubleSubmit(req, req.body?.csrf);
    if (refused) return loginPage(res, 403, REFUSED[refused]);
    // The same rule and counts as the OAuth login: one account, the merchant (shared/oauth/login-guard.ts).
    const admission = await oauth.guard.admit(req, MERCHANT);
    if (!admission.ok) {
      res.setHeader('Retry-After', String(admission.retryAfterSeconds));
      return loginPage(res, 429, waitText(admission.retryAfterSeconds));
    }
    const presented = typeof req.body?.password === 'string' ? req.body.password : '';
    if (!sameSecret(password, presented)) {
      await oauth.guard.failed(admission);
      return loginPage(res, 401, 'Senha incorreta.');
    }
    await oauth.guard.succeeded(admission, res);
    await store.purgeExpired(now());
    const id = randomToken();
    const created: Session = { csrf: randomToken() };
    await store.putSession(sha256Hex(id), 'admin', JSON.stringify(created), now() + SESSION_TTL_MS);
    res.cookie(SESSION_COOKIE, id, {
      httpOnly: true,
      sameSite: 'strict',
      path: '/admin',
      secure,
      maxAge: SESSION_TTL_MS,
    });
    res.redirect(303, returnAfterLogin(req, res));
  });

  const signedIn = requireAdminSession(deps.sessions, 'form');

  router.post('/admin/agents/revoke', form, signedIn, async (req, res) => {
    const client = typeof req.body?.client === 'string' ? req.body.client : '';
    if (/^[0-9a-f]{64}$/.test(client)) await oauth.store.deleteClient(client);
    res.redirect(303, '/admin/agents');
  });

  router.post('/admin/logout', form, signedIn, async (req, res) => {
    const id = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (id) await store.deleteSession(sha256Hex(id));
    res.clearCookie(SESSION_COOKIE, { path: '/admin' });
    res.redirect(303, '/admin/agents');
  });

  return router;
}
