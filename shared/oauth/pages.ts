import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { NextFunction, Request, Response } from 'express';
import { type Html, html, page } from '../html.ts';
import { CsrfGuard } from '../security/csrf.ts';
import { randomToken, sha256Hex } from '../security/hash.ts';
import { isLoopbackHostname } from '../security/loopback.ts';
import type { OriginPolicy } from '../security/origin-policy.ts';
import { pageHeaders } from '../security/page-headers.ts';
import { clientIdHost } from './client-metadata.ts';
import { formActionSource, redirectHost } from './clients.ts';
import { type LoginGuard, waitText } from './login-guard.ts';
import type { OAuthProvider } from './provider.ts';
import { CODE_CHALLENGE, type PendingAuthorization } from './tokens.ts';

const TICKET_TTL_MS = 10 * 60_000;
const MAX_FIELD = 2000;

export interface AuthorizationPagesOptions {
  provider: OAuthProvider;
  /** `email`: a fixture merchant's e-mail and password (sandbox); `password`: the merchant's one password (BFF). */
  login: 'email' | 'password';
  /** Who the credentials belong to (a store id, or `merchant`), or undefined. Compares in constant time. */
  verifyLogin(email: string, password: string): string | undefined | Promise<string | undefined>;
  /** The store's name as the consent page shows it. */
  storeName(subject: string): string;
  /** pt-BR labels of the scopes; with `pickScopes` the merchant ticks them (BFF), else they are listed (sandbox). */
  scopeLabels: Record<string, string>;
  pickScopes: boolean;
  /** Whose login page this is (`Sandbox da plataforma de frete`, `frete-kit`). */
  serverName: string;
  cssHref: string;
  /** Who may try a login now, and what its outcome counts against (per address, per account, device cookies). */
  guard: LoginGuard;
  /** The account a login form names (BFF: always the merchant; sandbox: a fixture's e-mail, or one for all unknown). */
  accountOf(email: string): string;
  /** Whether cookies get `Secure` (an https origin). */
  secureCookies: boolean;
  /** Whose pages may post the forms (the CSRF Origin check): this server's public origin and loopback address. */
  formOrigins: OriginPolicy;
  now?: () => number;
}

/**
 * What a consent ticket stands for (stored as JSON under the ticket's hash). The client id is kept only as a hash,
 * like everywhere in the store; the consent form carries the id itself, checked against it.
 */
interface Ticket {
  pending: Omit<PendingAuthorization, 'clientId'> & { clientIdHash: string };
  subject: string;
}

function field(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length <= MAX_FIELD ? value : undefined;
}

function hidden(pending: PendingAuthorization): Html {
  return html`<input type="hidden" name="client_id" value="${pending.clientId}">
<input type="hidden" name="redirect_uri" value="${pending.redirectUri}">
<input type="hidden" name="code_challenge" value="${pending.codeChallenge}">
<input type="hidden" name="scope" value="${pending.scopes.join(' ')}">
${pending.state === undefined ? '' : html`<input type="hidden" name="state" value="${pending.state}">`}`;
}

/**
 * The authorization server's pages, the same on both servers: `/authorize` renders a login form; `POST /oauth/login`
 * checks the credentials (when `LoginGuard` lets the attempt through; no hint which part was wrong) and renders the consent;
 * `POST /oauth/consent` approves (redirect with `code` and `state`) or denies (`error=access_denied`). Forms carry a
 * double-submit CSRF token and must come from this server's own page (`CsrfGuard`); the consent also carries a
 * single-use ticket that only a successful login hands out.
 */
export class AuthorizationPages {
  private readonly options: AuthorizationPagesOptions;
  private readonly now: () => number;
  private readonly csrf: CsrfGuard;

  constructor(options: AuthorizationPagesOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.csrf = new CsrfGuard({
      cookie: 'oauth_csrf',
      path: '/oauth',
      secure: options.secureCookies,
      origins: options.formOrigins,
    });
  }

  /** Forgets the login failures counted (the sandbox's reset). */
  clear(): Promise<void> {
    return this.options.guard.clear();
  }

  /** Sends a page with the strict headers: nothing inline, forms post here (the consent's redirects to `redirectUri`). */
  private send(res: Response, status: number, title: string, body: Html, redirectUri?: string): void {
    res.set(pageHeaders(redirectUri ? [formActionSource(redirectUri)] : []));
    res
      .status(status)
      .type('html')
      .send(page(title, body, this.options.cssHref));
  }

  /** An HTML error page: never a redirect (the redirect URI may be the attacker's). */
  errorPage(res: Response, title: string, message: string, status = 400): void {
    this.send(res, status, title, html`<h1>${title}</h1><p class="error" role="alert">${message}</p>`);
  }

  /** The page for a form whose CSRF token or consent ticket is missing or wrong. */
  private formExpired(res: Response): void {
    this.errorPage(res, 'Sessão inválida', 'O formulário expirou. Volte ao aplicativo e tente de novo.', 403);
  }

  /**
   * Before the SDK's `/authorize`: an unknown client or a redirect URI it did not register gets an HTML page, never
   * a redirect (the SDK would answer JSON).
   */
  precheck = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const params = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown> | undefined;
    const clientId = field(params, 'client_id');
    const redirectUri = params?.redirect_uri;
    const client = clientId ? await this.options.provider.getClient(clientId) : undefined;
    if (!client) {
      return this.errorPage(
        res,
        'Aplicativo desconhecido',
        'Este aplicativo não está registrado (invalid_client).',
      );
    }
    if (redirectUri === undefined && client.redirect_uris.length !== 1) {
      return this.errorPage(res, 'Pedido inválido', 'Falta o endereço de retorno (redirect_uri).');
    }
    if (
      redirectUri !== undefined &&
      (typeof redirectUri !== 'string' || !this.options.provider.redirectRegistered(client, redirectUri))
    ) {
      return this.errorPage(
        res,
        'Endereço de retorno não registrado',
        'O endereço de retorno (redirect_uri) não é um dos registrados por este aplicativo; nada foi enviado a ele.',
      );
    }
    // The SDK checks these too, but its error redirect drops `state` when they fail (RFC 6749 §4.1.2.1 wants it).
    const problem =
      params?.response_type !== 'code'
        ? 'response_type must be code'
        : typeof params.code_challenge !== 'string' || params.code_challenge === ''
          ? 'code_challenge is required (PKCE)'
          : !CODE_CHALLENGE.test(params.code_challenge)
            ? 'code_challenge must be a base64url SHA-256 (43 characters)'
            : params.code_challenge_method !== 'S256'
              ? 'code_challenge_method must be S256'
              : undefined;
    const target = new URL(typeof redirectUri === 'string' ? redirectUri : (client.redirect_uris[0] ?? ''));
    // RFC 9700 §4.11.2: registration is open, so a web redirect URI may be a phisher's; a request bound to fail
    // (here, or in the SDK's scope and resource checks) gets a page rather than bouncing the browser there.
    if (/^https?:$/.test(target.protocol) && !isLoopbackHostname(target.hostname)) {
      const failure = problem ?? this.scopeOrResourceProblem(params);
      if (failure) {
        return this.errorPage(
          res,
          'Pedido inválido',
          `O pedido de autorização deste aplicativo não é válido (${failure}); nada foi enviado a ele.`,
        );
      }
    }
    if (problem) {
      target.searchParams.set('error', 'invalid_request');
      target.searchParams.set('error_description', problem);
      const state = field(params, 'state');
      if (state !== undefined) target.searchParams.set('state', state);
      res.setHeader('Cache-Control', 'no-store');
      return res.redirect(302, target.href);
    }
    next();
  };

  /** What the provider's `authorize` would refuse (an unknown scope, another resource), or undefined. */
  private scopeOrResourceProblem(params: Record<string, unknown> | undefined): string | undefined {
    const { provider } = this.options;
    const { scope, resource } = params ?? {};
    try {
      if (typeof scope === 'string') provider.checkScopes(scope.split(' ').filter(Boolean));
      if (resource !== undefined) provider.checkResource(new URL(String(resource)));
      return undefined;
    } catch (error) {
      // A resource that is not a URL (or not one string) is another resource too.
      return error instanceof OAuthError ? error.errorCode : 'invalid_target';
    }
  }

  /** `OAuthProvider.renderLogin`: the login form for a validated request. */
  renderLogin = async (
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Response,
  ): Promise<void> => {
    const pending: PendingAuthorization = {
      clientId: client.client_id,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      state: params.state,
      scopes: params.scopes ?? [],
    };
    this.sendLogin(res, 200, client, pending, this.csrf.issue(res));
  };

  private sendLogin(
    res: Response,
    status: number,
    client: OAuthClientInformationFull,
    pending: PendingAuthorization,
    csrf: string,
    error?: string,
  ): void {
    const email = this.options.login === 'email';
    const name = client.client_name || 'Aplicativo sem nome';
    const body = html`<h1>Entrar — ${this.options.serverName}</h1>
<p>O aplicativo <strong>${name}</strong> pede acesso ao servidor MCP da loja. Entre para continuar.</p>
${error ? html`<p class="error" role="alert" id="login-error">${error}</p>` : ''}
<form method="post" action="/oauth/login">
<input type="hidden" name="csrf" value="${csrf}">
${hidden(pending)}
${
  email
    ? html`<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required>`
    : ''
}
<label for="password">${email ? 'Senha' : 'Senha do lojista'}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${
      error ? html` aria-describedby="login-error"` : ''
    }>
<div class="actions"><button class="primary" type="submit">Entrar</button></div>
</form>`;
    this.send(res, status, 'Entrar', body);
  }

  /** The form's CSRF token when the post may proceed (see `CsrfGuard`), else undefined. */
  private csrfOk(req: Request): string | undefined {
    const sent = field(req.body, 'csrf');
    return this.csrf.checkDoubleSubmit(req, sent) === undefined ? sent : undefined;
  }

  private async readPending(
    body: unknown,
  ): Promise<{ pending: PendingAuthorization; client: OAuthClientInformationFull } | undefined> {
    const clientId = field(body, 'client_id');
    const redirectUri = field(body, 'redirect_uri');
    const codeChallenge = field(body, 'code_challenge');
    const scope = field(body, 'scope');
    const state = field(body, 'state');
    if (!clientId || !redirectUri || !codeChallenge || scope === undefined) return undefined;
    const pending: PendingAuthorization = {
      clientId,
      redirectUri,
      codeChallenge,
      state,
      scopes: scope.split(' ').filter(Boolean),
    };
    const client = await this.options.provider.pendingClient(pending);
    return client && { pending, client };
  }

  /** `POST /oauth/login`. */
  login = async (req: Request, res: Response): Promise<void> => {
    const csrf = this.csrfOk(req);
    if (!csrf) return this.formExpired(res);
    const request = await this.readPending(req.body);
    if (!request) {
      return this.errorPage(
        res,
        'Pedido inválido',
        'O pedido de autorização não é válido (invalid_request).',
      );
    }
    const { pending, client } = request;
    const email = (field(req.body, 'email') ?? '').trim().toLowerCase();
    const admission = await this.options.guard.admit(req, this.options.accountOf(email));
    if (!admission.ok) {
      res.setHeader('Retry-After', String(admission.retryAfterSeconds));
      return this.sendLogin(res, 429, client, pending, csrf, waitText(admission.retryAfterSeconds));
    }
    const subject = await this.options.verifyLogin(email, field(req.body, 'password') ?? '');
    if (!subject) {
      await this.options.guard.failed(admission);
      const message = this.options.login === 'email' ? 'E-mail ou senha incorretos.' : 'Senha incorreta.';
      return this.sendLogin(res, 401, client, pending, csrf, message);
    }
    await this.options.guard.succeeded(admission, res);
    const ticketText = randomToken();
    const { clientId, ...rest } = pending;
    const ticket: Ticket = { pending: { ...rest, clientIdHash: sha256Hex(clientId) }, subject };
    await this.options.provider.store.putSession(
      sha256Hex(ticketText),
      'consent',
      JSON.stringify(ticket),
      this.now() + TICKET_TTL_MS,
    );
    this.sendConsent(res, 200, client, pending, subject, csrf, ticketText);
  };

  private sendConsent(
    res: Response,
    status: number,
    client: OAuthClientInformationFull,
    pending: PendingAuthorization,
    subject: string,
    csrf: string,
    ticket: string,
    error?: string,
  ): void {
    const { scopeLabels, pickScopes } = this.options;
    const offered = Object.keys(scopeLabels);
    const requested = pending.scopes.length > 0 ? pending.scopes : offered;
    const name = client.client_name || 'Aplicativo sem nome';
    const scopes = pickScopes
      ? html`<fieldset><legend>Permissões concedidas</legend>
${offered.map(
  (scope) =>
    html`<label><input type="checkbox" name="scopes" value="${scope}"${requested.includes(scope) ? html` checked` : ''}> ${scopeLabels[scope]}</label>`,
)}
</fieldset>`
      : html`<p>Permissões: ${requested.map((scope) => scopeLabels[scope] ?? scope).join('; ')}.</p>`;
    const body = html`<h1>Autorizar acesso</h1>
<p>O aplicativo <strong>${name}</strong> quer usar as ferramentas MCP da loja em seu nome.</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<dl>
<dt>Aplicativo</dt><dd>${name}</dd>
${clientIdHost(pending.clientId) ? html`<dt>Identidade publicada em</dt><dd>${clientIdHost(pending.clientId)}</dd>` : ''}
<dt>Retorno para</dt><dd>${redirectHost(pending.redirectUri)}</dd>
<dt>Loja</dt><dd>${this.options.storeName(subject)}</dd>
</dl>
<form method="post" action="/oauth/consent">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="ticket" value="${ticket}">
<input type="hidden" name="client_id" value="${pending.clientId}">
${scopes}
<p>Autorize só aplicativos em que você confia: ele poderá agir na loja até você revogar o acesso.</p>
<div class="actions">
<button class="primary" type="submit" name="decision" value="approve">Autorizar</button>
<button class="secondary" type="submit" name="decision" value="deny">Negar</button>
</div>
</form>`;
    this.send(res, status, 'Autorizar acesso', body, pending.redirectUri);
  }

  /** `POST /oauth/consent`. */
  consent = async (req: Request, res: Response): Promise<void> => {
    const csrf = this.csrfOk(req);
    const ticketText = field(req.body, 'ticket');
    if (!csrf || !ticketText) return this.formExpired(res);
    const hash = sha256Hex(ticketText);
    const store = this.options.provider.store;
    const saved = await store.getSession(hash, 'consent', this.now());
    const ticket = saved === undefined ? undefined : (JSON.parse(saved) as Ticket);
    const clientId = field(req.body, 'client_id') ?? '';
    if (!ticket || sha256Hex(clientId) !== ticket.pending.clientIdHash) {
      return this.errorPage(
        res,
        'Sessão expirada',
        'Esta autorização expirou ou já foi usada. Volte ao aplicativo.',
      );
    }
    const { clientIdHash: _hash, ...rest } = ticket.pending;
    const pending: PendingAuthorization = { ...rest, clientId };
    const { subject } = ticket;
    const client = await this.options.provider.pendingClient(pending);
    if (!client) {
      await store.deleteSession(hash);
      return this.errorPage(res, 'Aplicativo desconhecido', 'Este aplicativo não está mais registrado.');
    }
    const decision = field(req.body, 'decision');
    if (decision !== 'approve' && decision !== 'deny') {
      return this.errorPage(res, 'Pedido inválido', 'Escolha autorizar ou negar.');
    }
    const target = new URL(pending.redirectUri);
    const spent = () =>
      this.errorPage(res, 'Sessão expirada', 'Esta autorização já foi usada. Volte ao aplicativo.');
    if (decision === 'deny') {
      if (!(await store.deleteSession(hash))) return spent();
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The merchant denied the request');
    } else {
      const scopes = this.grantedScopes(req.body, pending);
      if (scopes.length === 0) {
        return this.sendConsent(
          res,
          400,
          client,
          pending,
          subject,
          csrf,
          ticketText,
          'Marque ao menos uma permissão.',
        );
      }
      // Of two concurrent approvals with one ticket, only the one that deletes it gets a code.
      if (!(await store.deleteSession(hash))) return spent();
      target.searchParams.set('code', await this.options.provider.issueCode(pending, subject, scopes));
    }
    if (pending.state !== undefined) target.searchParams.set('state', pending.state);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, target.href);
  };

  private grantedScopes(body: unknown, pending: PendingAuthorization): string[] {
    const offered = Object.keys(this.options.scopeLabels);
    const requested = pending.scopes.length > 0 ? pending.scopes : offered;
    if (!this.options.pickScopes) return requested;
    const raw = (body as Record<string, unknown> | undefined)?.scopes;
    const picked = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
    // The merchant may narrow or widen what the client asked for, within what this server offers.
    return offered.filter((scope) => picked.includes(scope));
  }
}
