import { randomBytes } from 'node:crypto';
import type { ShopifyAccessToken } from '../../shared/checkouts/store-oauth.ts';
import { retryDelayMs } from '../../shared/sql/outbox.ts';
import type { BffConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import type {
  ConnectionRow,
  ConnectionStore,
  PendingInstall,
  SealedGrant,
  StorePlatform,
} from './connection-store.ts';
import { openSealed, sealNuvemshopGrant, sealShopifyGrant } from './sealed-grants.ts';
import { StoreRefused } from './store-api.ts';
import { loadStoreKey, TokenBox } from './store-key.ts';
import { shopifyRevoke, shopifyToken } from './token-grants.ts';

/** What a call to a store needs: where its API is and a live token. Never logged, never shown. */
export interface StoreAccess {
  platform: StorePlatform;
  /** The shop's domain (Shopify) or the store id (Nuvemshop). */
  shop: string;
  /** Shopify's admin origin, or Nuvemshop's API base (the store id follows). */
  apiUrl: string;
  token: string;
}

/** The store's current access, or undefined when the platform is not connected (nothing is sent to it). */
export type AccessOf = (platform: StorePlatform) => Promise<StoreAccess | undefined>;

/** A revoke at the platform: done, refused or unreachable (`failed`), or nothing to revoke (Nuvemshop, no token). */
export type Revoke = 'revoked' | 'failed' | 'none';

/** Registers a connected store's carrier and webhooks; never throws (the outcome is kept on the row). */
export type StoreRegistrar = (platform: StorePlatform, shop: string) => Promise<void>;

export interface StoreConnectionsOptions {
  store: ConnectionStore;
  box: TokenBox;
  config: Pick<BffConfig, 'checkout'>;
  logger: Logger;
  now?: () => number;
  random?: () => number;
  fetch?: typeof fetch | undefined;
  /** How often due renewals are looked for (default 30 s; `renewDue()` is also called by tests). */
  tickMs?: number;
}

/** A renewal retried after a failure no later than this, so a short-lived token is not left to expire. */
const MAX_RETRY_MS = 5 * 60_000;

/**
 * The stores' connections kept alive (docs/checkout/connect.md): the token of an install or a grant, sealed at rest,
 * renewed halfway through its life (Shopify's expiring offline tokens with their rotating refresh token, or the
 * client-credentials grant again), a failed renewal retried with backoff and shown on the desk. A call that needs the
 * store asks `access()`: a token past its renewal is renewed first (once, whoever asks at the same time), an expired
 * one that cannot be renewed yet is `StoreRefused` retryable — the caller's outbox tries again, nothing is lost.
 * Static tokens of the turn-4 variables are answered as they are.
 */
export class StoreConnections {
  private readonly options: StoreConnectionsOptions;
  private readonly now: () => number;
  private readonly renewing = new Map<string, Promise<void>>();
  /** Registrations that failed, and when each is tried again (in memory: registering twice changes nothing). */
  private readonly registerRetries = new Map<string, { tries: number; at: number }>();
  private registrar: StoreRegistrar | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: StoreConnectionsOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick().catch(() => undefined), this.options.tickMs ?? 30_000);
    this.timer.unref();
  }

  /** What registers a store's carrier and webhooks (store-registration.ts): after a grant, and again after a failure. */
  useRegistrar(registrar: StoreRegistrar): void {
    this.registrar = registrar;
  }

  /** One round of the timer: due renewals, then registrations that failed and are due again. */
  async tick(): Promise<void> {
    await this.renewDue();
    await this.registerDue();
  }

  /** Registers again every connected store whose registration failed, when its backoff allows; answers how many. */
  async registerDue(): Promise<number> {
    const registrar = this.registrar;
    if (!registrar) return 0;
    const failed = (await this.options.store.list()).filter(
      (row) => row.token !== null && row.carrier === 'error',
    );
    let tried = 0;
    for (const row of failed) {
      const key = `${row.platform} ${row.shop}`;
      const retry = this.registerRetries.get(key) ?? { tries: 0, at: 0 };
      if (retry.at > this.now()) continue;
      tried += 1;
      await registrar(row.platform, row.shop);
      if ((await this.options.store.get(row.platform, row.shop))?.carrier !== 'error') {
        this.registerRetries.delete(key);
        continue;
      }
      const tries = retry.tries + 1;
      this.registerRetries.set(key, {
        tries,
        at: this.now() + Math.min(60_000 * 2 ** (tries - 1), 3_600_000),
      });
    }
    return tried;
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** Shopify's admin origin for a shop: `BFF_SHOPIFY_API_URL` when set (the sandbox), else `https://<shop>`. */
  adminOrigin(shop: string): string {
    return this.options.config.checkout.shopify.adminUrl ?? `https://${shop}`;
  }

  readonly access: AccessOf = async (platform) => {
    const { shopify, nuvemshop, shopifySecret } = this.options.config.checkout;
    let row = await this.options.store.connected(platform);
    // A store disconnected on the desk or by app/uninstalled stays so: no grant, no static token, until reinstalled.
    const configured = configuredShop(this.options.config.checkout, platform);
    if (!row && configured && (await this.options.store.get(platform, configured))) return undefined;
    if (!row && platform === 'shopify' && !shopify.token && shopify.shop && shopify.clientId && shopifySecret)
      row = await this.grantClientCredentials(shopify.shop);
    if (!row) {
      if (platform === 'shopify' && shopify.token && shopify.shop && shopify.apiUrl)
        return { platform, shop: shopify.shop, apiUrl: shopify.apiUrl, token: shopify.token };
      if (platform === 'nuvemshop' && nuvemshop.token && nuvemshop.storeId)
        return { platform, shop: nuvemshop.storeId, apiUrl: nuvemshop.apiUrl, token: nuvemshop.token };
      return undefined;
    }
    if (row.renew_at !== null && row.renew_at <= this.now()) {
      await this.renew(row).catch(() => undefined);
      row = (await this.options.store.get(platform, row.shop)) ?? row;
    }
    if (!row.token) return undefined;
    if (row.expires_at !== null && row.expires_at <= this.now())
      throw new StoreRefused(
        `The ${platform} token expired and is being renewed (${row.renew_error ?? 'not yet'}); tried again later.`,
        true,
      );
    const token = this.open(row);
    if (!token)
      throw new StoreRefused(
        `The ${platform} token does not open with BFF_STORE_KEY: connect the store again.`,
      );
    const apiUrl = platform === 'shopify' ? this.adminOrigin(row.shop) : nuvemshop.apiUrl;
    return { platform, shop: row.shop, apiUrl, token };
  };

  /**
   * Whether a platform's store can be called (its orders' tracking is queued for it): installed or granted and not
   * disconnected, a client-credentials app configured, or a static token of the variables.
   */
  readonly isConnected = async (platform: StorePlatform): Promise<boolean> => {
    if (await this.options.store.connected(platform)) return true;
    const { shopify, nuvemshop, shopifySecret } = this.options.config.checkout;
    const shop = configuredShop(this.options.config.checkout, platform);
    // A store disconnected on the desk or by app/uninstalled stays so, whatever the variables say.
    if (shop && (await this.options.store.get(platform, shop))) return false;
    if (platform === 'nuvemshop') return Boolean(nuvemshop.token && nuvemshop.storeId);
    return Boolean(
      shopify.shop && ((shopify.token && shopify.apiUrl) || (shopify.clientId && shopifySecret)),
    );
  };

  /**
   * The platform's connected store without opening or renewing its token (a webhook names its shop, and an order in
   * its body needs no token): an expired token whose renewal fails does not make the store a stranger.
   */
  async shopOf(platform: StorePlatform): Promise<string | undefined> {
    const row = await this.options.store.connected(platform);
    return row ? row.shop : configuredShop(this.options.config.checkout, platform);
  }

  /** Renews every connection whose renewal is due; answers how many were tried. */
  async renewDue(): Promise<number> {
    const due = await this.options.store.due(this.now());
    await Promise.all(due.map((row) => this.renew(row).catch(() => undefined)));
    return due.length;
  }

  /**
   * An install's or a grant's answer kept for the shop (sealed), replacing whatever the shop had; unless another store
   * of the platform is connected now (one store per platform): then nothing is kept and that store is answered.
   */
  async connectShopify(
    shop: string,
    answer: ShopifyAccessToken,
    kind: 'expiring' | 'client_credentials' | 'static',
  ): Promise<string | undefined> {
    return this.options.store.connectAlone('shopify', shop, this.sealed(shop, answer, kind), this.now());
  }

  async connectNuvemshop(storeId: string, token: string): Promise<string | undefined> {
    return this.options.store.connectAlone(
      'nuvemshop',
      storeId,
      this.nuvemshopGrant(storeId, token),
      this.now(),
    );
  }

  /**
   * An install held for the merchant's approval (install-routes.ts): its token sealed as a connection's, nothing
   * registered, no call made with it. False when the platform holds too many already.
   */
  async holdShopify(shop: string, answer: ShopifyAccessToken): Promise<boolean> {
    const kind = answer.expires_in ? 'expiring' : 'static';
    return this.options.store.hold('shopify', shop, this.sealed(shop, answer, kind), this.now());
  }

  async holdNuvemshop(storeId: string, token: string): Promise<boolean> {
    return this.options.store.hold('nuvemshop', storeId, this.nuvemshopGrant(storeId, token), this.now());
  }

  /**
   * The merchant approves a held install on the desk: it connects as an install does, and its carrier and webhooks
   * are registered. Undefined when there is no such install (taken, expired, rejected); refused while another store of
   * the platform is connected (one store per platform).
   */
  async approve(
    platform: StorePlatform,
    shop: string,
  ): Promise<'approved' | 'not_found' | 'other_connected'> {
    // The store of the variables is the platform's store (install-routes.ts, `pinned`): an install held before they
    // were set does not take its place.
    const configured = configuredShop(this.options.config.checkout, platform);
    if (configured !== undefined && configured !== shop) return 'other_connected';
    const outcome = await this.options.store.approvePending(platform, shop, this.now());
    if (outcome !== 'approved') return outcome;
    this.options.logger.info({ platform, shop }, 'stores: held install approved on the desk');
    await this.registrar?.(platform, shop);
    return 'approved';
  }

  /**
   * The merchant rejects a held install: its sealed token discarded, and a Shopify one revoked at Shopify (the app
   * uninstalled from that shop). Answers whether there was one, and the revoke's outcome.
   */
  async reject(platform: StorePlatform, shop: string): Promise<{ rejected: boolean; revoke: Revoke }> {
    const held = await this.options.store.takePending(platform, shop, this.now());
    if (!held) return { rejected: false, revoke: 'none' };
    this.options.logger.info({ platform, shop }, 'stores: held install rejected on the desk');
    return {
      rejected: true,
      revoke: await this.revoke(platform, shop, await this.heldToken(platform, shop, held)),
    };
  }

  /**
   * A held install's token to revoke with: a Shopify token that expired while it waited (1 h, held 24 h) is renewed
   * first with its refresh token, else Shopify refuses the revoke and the app stays installed at that shop.
   */
  private async heldToken(
    platform: StorePlatform,
    shop: string,
    held: PendingInstall,
  ): Promise<string | undefined> {
    const token = openSealed(this.options.box, platform, shop, 'token', held.grant.token);
    if (platform !== 'shopify' || held.grant.expiresAt === null || held.grant.expiresAt > this.now())
      return token;
    const refreshToken = openSealed(this.options.box, platform, shop, 'refresh', held.grant.refresh);
    if (!refreshToken) return token;
    try {
      return (await shopifyToken(this.app(shop), { grant: 'refresh_token', refreshToken })).access_token;
    } catch {
      return token;
    }
  }

  /**
   * "Disconnect" on the desk: a Shopify token is revoked at Shopify first (the app uninstalled from the shop, so it
   * stops calling the carrier and sending webhooks), then the tokens are deleted here whatever Shopify answered — a
   * failed revoke is said on the desk, with how to finish it in the Shopify admin.
   */
  async disconnectFromDesk(
    platform: StorePlatform,
    shop: string,
  ): Promise<{ disconnected: boolean; revoke: Revoke }> {
    let revoke: Revoke = 'none';
    if (platform === 'shopify') revoke = await this.revoke(platform, shop, await this.tokenOf(shop));
    const local = await this.disconnect(platform, shop, 'desk');
    // A revoke Shopify confirmed sent app/uninstalled, which may have disconnected the store already.
    return { disconnected: local || revoke === 'revoked', revoke };
  }

  /** The shop's live token to revoke with: the stored one (renewed first when due), else the variables' static one. */
  private async tokenOf(shop: string): Promise<string | undefined> {
    let row = await this.options.store.get('shopify', shop);
    if (row?.token && row.renew_at !== null && row.renew_at <= this.now()) {
      await this.renew(row).catch(() => undefined);
      row = (await this.options.store.get('shopify', shop)) ?? row;
    }
    if (row?.token) return this.open(row);
    const { shopify } = this.options.config.checkout;
    return !row && shopify.shop === shop ? shopify.token : undefined;
  }

  private async revoke(platform: StorePlatform, shop: string, token: string | undefined): Promise<Revoke> {
    if (platform !== 'shopify' || !token) return 'none';
    try {
      await shopifyRevoke({ adminOrigin: this.adminOrigin(shop), fetch: this.options.fetch }, token);
      this.options.logger.info({ platform, shop }, 'stores: app uninstalled at Shopify (token revoked)');
      return 'revoked';
    } catch (error) {
      if (!(error instanceof StoreRefused)) throw error;
      this.options.logger.warn(
        { platform, shop, error: error.message },
        'stores: token not revoked at Shopify',
      );
      return 'failed';
    }
  }

  /** `app/uninstalled`, or "disconnect" on the desk: the tokens deleted; nothing more is sent to the store. */
  async disconnect(
    platform: StorePlatform,
    shop: string,
    why: string,
    happenedAt?: number,
  ): Promise<boolean> {
    const configured = configuredShop(this.options.config.checkout, platform);
    let done = await this.options.store.disconnect(platform, shop, this.now(), happenedAt);
    // A store of the variables alone (a static token, a grant not asked yet) has no row: one records it disconnected.
    if (!done && shop === configured && !(await this.options.store.get(platform, shop)))
      done = await this.options.store.markDisconnected(
        platform,
        shop,
        platform === 'shopify' ? 'static' : 'nuvemshop',
        this.now(),
      );
    if (done)
      this.options.logger.info({ platform, shop, why }, 'stores: store disconnected, its tokens deleted');
    return done;
  }

  private async grantClientCredentials(shop: string): Promise<ConnectionRow | undefined> {
    let granted = false;
    await this.single(`shopify ${shop}`, async () => {
      if (await this.options.store.get('shopify', shop).then((row) => row?.token)) return;
      const answer = await shopifyToken(this.app(shop), { grant: 'client_credentials' });
      granted = (await this.connectShopify(shop, answer, 'client_credentials')) === undefined;
      this.options.logger.info({ shop }, 'stores: Shopify token from the client-credentials grant');
    });
    // Outside the grant's turn: registering asks for the token again.
    if (granted) await this.registrar?.('shopify', shop);
    return this.options.store.connected('shopify');
  }

  private app(shop: string) {
    const { shopify, shopifySecret } = this.options.config.checkout;
    if (!shopify.clientId || !shopifySecret)
      throw new StoreRefused('Set BFF_SHOPIFY_CLIENT_ID and BFF_SHOPIFY_SECRET.');
    return {
      clientId: shopify.clientId,
      clientSecret: shopifySecret,
      adminOrigin: this.adminOrigin(shop),
      fetch: this.options.fetch,
    };
  }

  /** One renewal at a time per store in this process; across instances the pair is swapped only over the one read. */
  private renew(row: ConnectionRow): Promise<void> {
    return this.single(`${row.platform} ${row.shop}`, async () => {
      const current = await this.options.store.get(row.platform, row.shop);
      if (!current?.token || current.token !== row.token) return; // renewed or disconnected meanwhile
      const { logger } = this.options;
      try {
        const answer =
          current.kind === 'client_credentials'
            ? await shopifyToken(this.app(current.shop), { grant: 'client_credentials' })
            : await shopifyToken(this.app(current.shop), {
                grant: 'refresh_token',
                refreshToken: this.refreshOf(current),
              });
        const sealed = this.sealed(
          current.shop,
          answer,
          current.kind === 'client_credentials' ? 'client_credentials' : 'expiring',
        );
        // A refresh answer without a new refresh token keeps the one it was renewed with.
        if (!sealed.refresh && current.refresh) sealed.refresh = current.refresh;
        const swapped = await this.options.store.swap(
          current.platform,
          current.shop,
          current.token,
          sealed,
          this.now(),
        );
        logger.info({ platform: current.platform, shop: current.shop, swapped }, 'stores: token renewed');
      } catch (error) {
        const message = error instanceof StoreRefused ? error.message : 'an unexpected error';
        const delay = Math.min(
          retryDelayMs(current.renew_tries + 1, this.options.random ?? Math.random),
          MAX_RETRY_MS,
          halfLife(current),
        );
        await this.options.store.renewFailed(
          current.platform,
          current.shop,
          message,
          this.now() + Math.max(500, delay),
        );
        logger.warn(
          { platform: current.platform, shop: current.shop, tries: current.renew_tries + 1, error: message },
          'stores: token not renewed',
        );
        throw error;
      }
    });
  }

  private refreshOf(row: ConnectionRow): string {
    const refresh = openSealed(this.options.box, row.platform, row.shop, 'refresh', row.refresh);
    if (!refresh)
      throw new StoreRefused('The store has no refresh token the kit can open: install the app again.');
    return refresh;
  }

  private open(row: ConnectionRow): string | undefined {
    return openSealed(this.options.box, row.platform, row.shop, 'token', row.token);
  }

  private sealed(shop: string, answer: ShopifyAccessToken, kind: SealedGrant['kind']): SealedGrant {
    return sealShopifyGrant(this.options.box, shop, answer, kind, this.now());
  }

  private nuvemshopGrant(storeId: string, token: string): SealedGrant {
    return sealNuvemshopGrant(this.options.box, storeId, token, this.now());
  }

  private single(key: string, work: () => Promise<void>): Promise<void> {
    const running = this.renewing.get(key);
    if (running) return running;
    const started = work().finally(() => this.renewing.delete(key));
    this.renewing.set(key, started);
    return started;
  }
}

/** The platform's store the variables name (`BFF_SHOPIFY_SHOP`, `BFF_NUVEMSHOP_STORE_ID`), if they name one. */
export function configuredShop(checkout: BffConfig['checkout'], platform: StorePlatform): string | undefined {
  return platform === 'shopify' ? checkout.shopify.shop : checkout.nuvemshop.storeId;
}

/** A quarter of the token's life: retries come often enough for a short-lived token, seldom for a day-long one. */
function halfLife(row: ConnectionRow): number {
  if (row.expires_at === null || row.issued_at === null) return MAX_RETRY_MS;
  return Math.max(500, (row.expires_at - row.issued_at) / 4);
}

/**
 * The connections as the configuration asks: with an app to install (`BFF_SHOPIFY_CLIENT_ID`, `BFF_NUVEMSHOP_APP_ID`)
 * the key of `BFF_STORE_KEY` or `store.key` in `BFF_DATA_DIR`; without, nothing is sealed and a throwaway key does.
 */
export function createConnections(
  options: Omit<StoreConnectionsOptions, 'box' | 'config'> & {
    config: Pick<BffConfig, 'checkout' | 'dataDir'>;
  },
): StoreConnections {
  const { checkout, dataDir } = options.config;
  const installs = Boolean(checkout.shopify.clientId || checkout.nuvemshop.appId);
  const key = installs ? loadStoreKey(checkout.storeKey, dataDir) : (checkout.storeKey ?? randomBytes(32));
  return new StoreConnections({ ...options, box: new TokenBox(key) });
}
