import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** Where test clients say they listen; nothing does: browsers are intercepted, fetch uses `redirect: 'manual'`. */
export const TEST_REDIRECT = 'http://127.0.0.1:9/callback';

/** An MCP client's OAuth state, in memory: what a desktop agent app keeps on disk. */
export class TestOAuthClient implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  readonly clientMetadata: OAuthClientMetadata;

  constructor(name = 'Agente de teste', redirect = TEST_REDIRECT) {
    this.clientMetadata = {
      client_name: name,
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  get redirectUrl(): string {
    return this.clientMetadata.redirect_uris[0] ?? TEST_REDIRECT;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** A PKCE verifier and its S256 challenge. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge: base64url(digest) };
}

/** A new client (`registerClient`) and a valid authorization request for it: PKCE S256, the test redirect URI. */
export async function authorizationRequest(origin: string): Promise<{
  clientId: string;
  challenge: string;
  verifier: string;
  query: Record<string, string>;
}> {
  const clientId = await registerClient(origin);
  const { challenge, verifier } = await pkce();
  const query = {
    client_id: clientId,
    redirect_uri: TEST_REDIRECT,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  return { clientId, challenge, verifier, query };
}

/** Registers a public client by hand (RFC 7591); its `client_id`. */
export async function registerClient(origin: string, redirect = TEST_REDIRECT): Promise<string> {
  const response = await fetch(`${origin}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Cliente manual',
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'none',
    }),
  });
  if (response.status !== 201) throw new Error(`register answered ${response.status}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** The hidden and named inputs of the first form of a page. */
export function formFields(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1] as string] = (match[2] as string).replace(/&#(\d+);/g, (_, code) =>
      String.fromCharCode(Number(code)),
    );
  }
  return fields;
}

export interface FormFlow {
  /** The `Cookie` header the login page set (CSRF). */
  cookie: string;
  login: Response;
  loginPage: string;
  fields: Record<string, string>;
}

/** Opens `/authorize` and posts the login form as a browser would; the login answer (consent page on success). */
export async function loginByForm(
  origin: string,
  query: Record<string, string>,
  credentials: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<FormFlow> {
  const authorize = await fetch(`${origin}/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
  const cookie = (authorize.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const fields = formFields(await authorize.text());
  const login = await fetch(`${origin}/oauth/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
    body: new URLSearchParams({ ...fields, ...credentials }),
  });
  return { cookie, login, loginPage: await login.text(), fields };
}

/** Posts the consent form of a consent page; the answer (303 to the redirect URI). */
export async function consentByForm(
  origin: string,
  flow: FormFlow,
  decision: 'approve' | 'deny',
  scopes: string[] = [],
  headers: Record<string, string> = {},
): Promise<Response> {
  const body = new URLSearchParams({ ...formFields(flow.loginPage), decision });
  for (const scope of scopes) body.append('scopes', scope);
  return fetch(`${origin}/oauth/consent`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: flow.cookie, ...headers },
    body,
  });
}

/** Posts to the token endpoint; status and JSON body. */
export async function tokenRequest(
  origin: string,
  params: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${origin}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
