import { saoPauloDate } from '../../shared/parcel-story.ts';
import { isLoopbackHostname } from '../../shared/security/loopback.ts';
import { NUVEMSHOP_STORES, type NuvemshopStore, SHOPIFY_SHOPS, type ShopifyShop } from './accounts.ts';
import { AppInstalls } from './app-installs.ts';
import type { CheckoutView } from './checkout-view.ts';
import { StoreOrders } from './store-orders.ts';

/** A CarrierService as the Admin API holds it. */
export interface ShopifyCarrierService {
  id: string;
  name: string;
  callbackUrl: string;
  active: boolean;
  supportsServiceDiscovery: boolean;
}

export interface NuvemshopOption {
  id: number;
  code: string;
  name: string;
  additional_days: number;
  additional_cost: number;
  allow_free_shipping: boolean;
  active: boolean;
  created_at: string;
  updated_at: string;
}

export interface NuvemshopCarrierRecord {
  id: number;
  name: string;
  callback_url: string;
  types: string;
  active: boolean;
  created_at: string;
  updated_at: string;
  options: NuvemshopOption[];
}

/** What a checkout showed for a request, kept as the platform keeps it (Shopify 15 min / 30 s, Nuvemshop 15 / 1 min). */
export interface CachedCheckout {
  expiresAt: number;
  answer: CheckoutView;
}

/**
 * The store platforms the sandbox plays (sandbox/checkouts/): their shops and stores, the carriers registered through
 * their Admin APIs, and what their checkouts keep in cache. `reset()` forgets registrations and caches.
 */
export class CheckoutPlatforms {
  readonly shops: ReadonlyMap<string, ShopifyShop> = new Map(
    SHOPIFY_SHOPS.map((shop) => [shop.domain, shop]),
  );
  readonly stores: ReadonlyMap<string, NuvemshopStore> = new Map(NUVEMSHOP_STORES.map((s) => [s.id, s]));
  readonly carrierServices = new Map<string, ShopifyCarrierService[]>();
  readonly carriers = new Map<string, NuvemshopCarrierRecord[]>();
  readonly cache = new Map<string, CachedCheckout>();
  /** When each shop's callback was called (the last minute), for Shopify's read timeout tiers. */
  readonly calls = new Map<string, number[]>();
  readonly now: () => number;
  /** Their paid orders, webhook subscriptions and fulfillments (sandbox/checkouts/store-orders.ts). */
  readonly orders: StoreOrders;
  /** The app's installs: codes, tokens that expire, refresh tokens (sandbox/checkouts/app-installs.ts). */
  readonly installs: AppInstalls;
  private sequence = 0;

  /**
   * The São Paulo day of the sandbox's carrier clock (`YYYY-MM-DD`): part of every cached answer's key, so a checkout
   * re-quotes when the demo's day changes (at the demo's speed, 15 real minutes span days of promises).
   */
  readonly day: () => string;

  constructor(
    now: () => number = Date.now,
    shopifyTokenTtlS?: number,
    day: () => string = () => saoPauloDate(now()),
  ) {
    this.now = now;
    this.day = day;
    this.orders = new StoreOrders(now);
    this.installs = new AppInstalls(now, shopifyTokenTtlS);
  }

  /** The scopes of a token of this store: a fixture's, or one the app was issued (live, not expired). */
  scopesOf(platform: 'shopify' | 'nuvemshop', store: string, token: string): readonly string[] | undefined {
    if (this.installs.revoked.has(token)) return undefined;
    const fixture =
      platform === 'shopify' ? this.shops.get(store)?.tokens[token] : this.stores.get(store)?.tokens[token];
    if (fixture) {
      this.installs.count(platform, store);
      return fixture;
    }
    return this.installs.scopesOf(platform, store, token);
  }

  nextId(): number {
    this.sequence += 1;
    return 1000 + this.sequence;
  }

  /** ISO 8601 of now, as both Admin APIs write timestamps. */
  timestamp(): string {
    return new Date(this.now()).toISOString();
  }

  reset(): void {
    this.carrierServices.clear();
    this.carriers.clear();
    this.cache.clear();
    this.calls.clear();
    this.orders.reset();
    this.installs.reset();
    this.sequence = 0;
  }
}

/**
 * Whether a platform would call this URL: `https`, as both require (Nuvemshop: "Must be HTTPS"; Shopify: a public
 * URL). The sandbox also takes `http` on a loopback host, so a BFF on this machine can be called (not emulated:
 * the real platforms cannot reach it).
 */
export function callableUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2000) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHostname(url.hostname.replace(/^\[|\]$/g, ''));
}

/** A JSON body as an object whose fields the admin routes check one by one (anything else: no fields). */
export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
