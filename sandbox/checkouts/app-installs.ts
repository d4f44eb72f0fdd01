import { randomBytes } from 'node:crypto';

/**
 * The platforms' side of an app install (sandbox/README.md, "App installs"), as strict as they publish it
 * (shared/checkouts/store-oauth.ts cites the pages):
 *
 * - Shopify, at `/shopify/<shop>/admin/oauth/authorize` (approves at once: 302 to `redirect_uri` with `code`, `shop`,
 *   `state`, `timestamp` and their `hmac`) and `/shopify/<shop>/admin/oauth/access_token` (an authorization code once;
 *   `expiring=1` for a token of `tokenTtlS` with a refresh token; `grant_type=refresh_token` rotates it, the old refresh
 *   token kept until the new access token is first used, as Shopify's changelog of 2026-08-28 says;
 *   `grant_type=client_credentials`, no refresh token). Tokens really stop working when they expire.
 * - Nuvemshop, at `/nuvemshop/apps/<app id>/authorize` (302 with a `code` valid 30 s) and
 *   `/nuvemshop/apps/authorize/token`.
 * - `DELETE /shopify/<shop>/admin/api_permissions/current.json` with the app's token: the app uninstalls itself, as
 *   below (Shopify's "Uninstall a Shopify app with an API request").
 * - `POST /_sandbox/stores/:platform/:store/uninstall`: the app removed, its tokens dead, the signed `app/uninstalled`
 *   webhook sent to the subscriptions (Nuvemshop's `{store_id, event, id: <app id>}`, TiendaNube/api-docs
 *   resources/webhook.md; Shopify's the shop's domain in the body and the headers).
 */
export interface IssuedToken {
  platform: 'shopify' | 'nuvemshop';
  store: string;
  scopes: readonly string[];
  /** Epoch ms; undefined: until uninstalled (Nuvemshop, non-expiring Shopify tokens). */
  expiresAt: number | undefined;
  used: boolean;
}

interface Grant {
  store: string;
  scopes: readonly string[];
  expiresAt: number;
}

interface RefreshGrant extends Grant {
  /** The access token this refresh token came with: the refresh token stays until a later one is used. */
  accessToken: string;
  /** The refresh token that replaced it (set on use): it dies once the replacement's access token is used. */
  replacedBy: string | undefined;
}

/** Shopify codes are short-lived (the sandbox: 10 minutes); Nuvemshop's 30 s as the kit's contract says. */
const SHOPIFY_CODE_MS = 10 * 60_000;
const NUVEMSHOP_CODE_MS = 30_000;
/** Codes kept at once, both platforms together (a merchant's install uses one within seconds). */
export const MAX_INSTALL_CODES = 1000;
/** Shopify: expiring offline tokens 1 h, refresh tokens 90 days, client-credentials tokens 24 h (86 399 s). */
const SHOPIFY_TOKEN_S = 3600;
export const SHOPIFY_REFRESH_S = 90 * 86_400;
export const CLIENT_CREDENTIALS_S = 86_399;

export class AppInstalls {
  readonly tokens = new Map<string, IssuedToken>();
  /** Calls that presented a token of each `<platform> <store>` (Admin API and token endpoint), for uninstall tests. */
  readonly calls = new Map<string, number>();
  /** Fixture tokens of an app uninstalled with its own token (they are shared constants: marked dead, not deleted). */
  readonly revoked = new Set<string>();
  private readonly codes = new Map<string, Grant>();
  private readonly refresh = new Map<string, RefreshGrant>();
  private readonly now: () => number;
  private readonly ttlS: number | undefined;

  constructor(now: () => number, tokenTtlS?: number) {
    this.now = now;
    this.ttlS = tokenTtlS;
  }

  reset(): void {
    this.tokens.clear();
    this.calls.clear();
    this.revoked.clear();
    this.codes.clear();
    this.refresh.clear();
  }

  /** The scopes of a live token of this store, counting the call; undefined: unknown, expired or uninstalled. */
  scopesOf(platform: 'shopify' | 'nuvemshop', store: string, token: string): readonly string[] | undefined {
    const issued = this.tokens.get(token);
    if (!issued || issued.platform !== platform || issued.store !== store) return undefined;
    this.count(platform, store);
    if (issued.expiresAt !== undefined && issued.expiresAt <= this.now()) return undefined;
    if (!issued.used) {
      issued.used = true;
      // The first use of a refreshed token retires the refresh token it replaced.
      for (const [key, grant] of this.refresh)
        if (grant.replacedBy && this.refresh.get(grant.replacedBy)?.accessToken === token)
          this.refresh.delete(key);
    }
    return issued.scopes;
  }

  count(platform: string, store: string): void {
    const key = `${platform} ${store}`;
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
  }

  /** Codes issued and not exchanged yet (expired ones are pruned at the next authorize). */
  get codeCount(): number {
    return this.codes.size;
  }

  /**
   * A new code. The authorize endpoints take no login here (the merchant's click is assumed), so anyone on the
   * sandbox's address can ask for codes: expired ones are pruned first, and at most `MAX_INSTALL_CODES` are kept (the oldest
   * out), so a loop cannot grow the map without bound.
   */
  issueCode(platform: 'shopify' | 'nuvemshop', store: string, scopes: readonly string[]): string {
    const now = this.now();
    for (const [key, grant] of this.codes) if (grant.expiresAt <= now) this.codes.delete(key);
    // A Map iterates in insertion order: the first key is the oldest code.
    for (const key of this.codes.keys()) {
      if (this.codes.size < MAX_INSTALL_CODES) break;
      this.codes.delete(key);
    }
    const code = randomBytes(16).toString('hex');
    const ms = platform === 'shopify' ? SHOPIFY_CODE_MS : NUVEMSHOP_CODE_MS;
    this.codes.set(`${platform} ${code}`, { store, scopes, expiresAt: now + ms });
    return code;
  }

  /** The code's grant, once: a second exchange (or a late one) finds nothing. */
  takeCode(platform: 'shopify' | 'nuvemshop', code: string): Grant | undefined {
    const grant = this.codes.get(`${platform} ${code}`);
    this.codes.delete(`${platform} ${code}`);
    return grant && grant.expiresAt > this.now() ? grant : undefined;
  }

  issueToken(
    platform: 'shopify' | 'nuvemshop',
    store: string,
    scopes: readonly string[],
    seconds: number | undefined,
  ): string {
    const token = `${platform === 'shopify' ? 'shpat' : 'nuvem'}_${randomBytes(16).toString('hex')}`;
    // Nuvemshop: a new token makes the store's older ones invalid (its authentication page).
    if (platform === 'nuvemshop')
      for (const [key, old] of this.tokens)
        if (old.platform === platform && old.store === store) this.tokens.delete(key);
    this.tokens.set(token, {
      platform,
      store,
      scopes,
      expiresAt: seconds === undefined ? undefined : this.now() + seconds * 1000,
      used: false,
    });
    return token;
  }

  /** `expires_in` of an expiring Shopify token: `SANDBOX_SHOPIFY_TOKEN_TTL_S`, else Shopify's hour. */
  ttl(fallback = SHOPIFY_TOKEN_S): number {
    return this.ttlS ?? fallback;
  }

  issueRefresh(store: string, scopes: readonly string[], accessToken: string): string {
    const token = `shprt_${randomBytes(16).toString('hex')}`;
    this.refresh.set(token, {
      store,
      scopes,
      accessToken,
      expiresAt: this.now() + SHOPIFY_REFRESH_S * 1000,
      replacedBy: undefined,
    });
    return token;
  }

  takeRefresh(store: string, token: string): RefreshGrant | undefined {
    const grant = this.refresh.get(token);
    if (!grant || grant.store !== store || grant.expiresAt <= this.now()) return undefined;
    return grant;
  }

  /** The app removed from the store: every token, code and refresh token of it dead. */
  uninstall(platform: 'shopify' | 'nuvemshop', store: string): void {
    for (const [key, issued] of this.tokens)
      if (issued.platform === platform && issued.store === store) this.tokens.delete(key);
    for (const [key, grant] of this.refresh)
      if (platform === 'shopify' && grant.store === store) this.refresh.delete(key);
  }
}
