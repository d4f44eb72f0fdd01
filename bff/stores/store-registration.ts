import { NUVEMSHOP_ORDER_EVENTS } from '../../shared/checkouts/nuvemshop.ts';
import { SHOPIFY_ORDER_TOPICS, SHOPIFY_RELEASE_TOPICS } from '../../shared/checkouts/shopify.ts';
import { type QuotedService, runCheckoutCommand } from '../checkout/registration.ts';
import type { BffConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { ConnectionStore } from './connection-store.ts';
import type { StoreConnections, StoreRegistrar } from './connections.ts';

export interface RegistrationOptions {
  config: Pick<BffConfig, 'publicUrl' | 'checkout' | 'serviceCodes' | 'store'>;
  connections: Pick<StoreConnections, 'access'>;
  store: Pick<ConnectionStore, 'registered'>;
  logger: Logger;
  /** The services the store quotes (the quote core's sample), the options a Nuvemshop carrier is created with. */
  services: () => Promise<QuotedService[]>;
  fetch?: typeof fetch | undefined;
}

/** What a connection subscribes (bff/checkout/registration.ts subscribes them). */
export const SHOPIFY_WEBHOOK_TOPICS = [
  ...SHOPIFY_ORDER_TOPICS,
  ...SHOPIFY_RELEASE_TOPICS,
  'app/uninstalled',
] as const;
export const NUVEMSHOP_WEBHOOK_EVENTS = [...NUVEMSHOP_ORDER_EVENTS, 'app/uninstalled'] as const;

/**
 * The carrier and the webhooks registered with the store's own token, as `npm run checkout -- register` does (one
 * code), after an install or a first client-credentials grant, and again while it failed (connections.ts retries
 * it). A refusal is kept on the desk (`carrier: error`) and does not undo the connection.
 */
export function storeRegistrar(options: RegistrationOptions): StoreRegistrar {
  return async (platform, shop) => {
    const access = await options.connections.access(platform).catch(() => undefined);
    if (!access || access.shop !== shop) return;
    const { checkout } = options.config;
    const config = {
      ...options.config,
      checkout: {
        ...checkout,
        shopify:
          platform === 'shopify'
            ? { ...checkout.shopify, shop, token: access.token, apiUrl: access.apiUrl }
            : checkout.shopify,
        nuvemshop:
          platform === 'nuvemshop'
            ? { ...checkout.nuvemshop, storeId: shop, token: access.token }
            : checkout.nuvemshop,
      },
    };
    const result = await runCheckoutCommand('register', platform, {
      config,
      services: options.services,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }).catch((error: unknown) => ({
      ok: false,
      lines: [error instanceof Error ? error.message : 'registration failed'],
    }));
    const webhooksFailed = result.lines.some((line) => line.includes('not subscribed'));
    const topics = platform === 'shopify' ? SHOPIFY_WEBHOOK_TOPICS : NUVEMSHOP_WEBHOOK_EVENTS;
    await options.store.registered(
      platform,
      shop,
      result.ok ? 'registered' : 'error',
      result.ok && !webhooksFailed ? [...topics] : [],
    );
    (result.ok ? options.logger.info : options.logger.warn).call(
      options.logger,
      { platform, shop, lines: result.lines },
      result.ok
        ? 'stores: carrier and webhooks registered'
        : 'stores: registration failed; tried again later',
    );
  };
}
