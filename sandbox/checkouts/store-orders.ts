import {
  type EmulatedOrder,
  type NewStoreOrder,
  nextVersion,
  type SentWebhook,
  type WebhookSubscription,
} from './emulated-order.ts';
import type { ShopifyWebhookFamily } from './shopify-headers.ts';
import {
  nuvemshopOrderBody,
  nuvemshopWebhook,
  shopifyOrderBody,
  shopifyWebhook,
} from './store-order-bodies.ts';

/**
 * The store platforms' orders, emulated (sandbox/README.md, "Store orders"): a paid order is made by the control API
 * (`POST /_sandbox/stores/<platform>/<store>/orders`), kept in the platform's own shape, and announced to every webhook
 * subscribed to its topic, signed as the platform signs (Shopify: the whole order, base64 HMAC, a webhook id;
 * Nuvemshop: `{store_id, event, id}`, hex HMAC). The Admin APIs read it and fulfil it with tracking.
 */

export class StoreOrders {
  readonly orders = new Map<string, EmulatedOrder>();
  /** Webhooks sent after a write of the client's (the update after a fulfillment), not awaited by that write. */
  private readonly pending = new Set<Promise<unknown>>();
  /** Subscriptions by `<platform> <store>`. */
  readonly subscriptions = new Map<string, WebhookSubscription[]>();
  readonly sent: SentWebhook[] = [];
  /** The header families Shopify's webhooks are signed in (`POST /_sandbox/stores/shopify/headers`). */
  shopifyFamily: ShopifyWebhookFamily = 'x-shopify';
  /** The next `n` fulfillment calls of a platform fail (500), for tests of the BFF's retries. */
  readonly failNext = new Map<'shopify' | 'nuvemshop', number>();
  private sequence = 0;
  private subscriptionSequence = 0;
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  reset(): void {
    this.orders.clear();
    this.subscriptions.clear();
    this.sent.length = 0;
    this.shopifyFamily = 'x-shopify';
    this.failNext.clear();
    this.sequence = 0;
    this.subscriptionSequence = 0;
    this.subscriptionSequence = 0;
  }

  key(platform: string, store: string, id: number | string): string {
    return `${platform} ${store} ${id}`;
  }

  subscribe(
    platform: 'shopify' | 'nuvemshop',
    store: string,
    topic: string,
    url: string,
  ): WebhookSubscription {
    const list = this.subscriptions.get(`${platform} ${store}`) ?? [];
    const found = list.find((s) => s.topic === topic && s.url === url);
    if (found) return found;
    this.subscriptionSequence += 1;
    const subscription = {
      id: 9000 + this.subscriptionSequence,
      topic,
      url,
      created_at: new Date(this.now()).toISOString(),
    };
    this.subscriptions.set(`${platform} ${store}`, [...list, subscription]);
    return subscription;
  }

  /** Whether this fulfillment call is one a test asked to fail. */
  failing(platform: 'shopify' | 'nuvemshop'): boolean {
    const left = this.failNext.get(platform) ?? 0;
    if (left <= 0) return false;
    this.failNext.set(platform, left - 1);
    return true;
  }

  /** A paid order made in the platform's shape, and its `paid` webhook sent (unless `notify: false`). */
  async create(platform: 'shopify' | 'nuvemshop', store: string, input: NewStoreOrder) {
    this.sequence += 1;
    const n = this.sequence;
    const at = new Date(this.now()).toISOString();
    const order: EmulatedOrder =
      platform === 'shopify'
        ? {
            platform,
            store,
            id: input.id ?? 5_000_000 + n,
            body: shopifyOrderBody(input.id ?? 5_000_000 + n, 1000 + n, input, at),
            fulfillments: [],
          }
        : {
            platform,
            store,
            id: 8_000_000 + n,
            body: nuvemshopOrderBody(store, 8_000_000 + n, 100 + n, input, at),
            fulfillments: [],
          };
    this.orders.set(this.key(platform, store, order.id), order);
    const sent =
      input.notify === false
        ? []
        : await this.announce(order, platform === 'shopify' ? 'orders/paid' : 'order/paid');
    return { order, sent };
  }

  /** A change after payment (a new address): the order's version moves on and `updated` is announced. */
  async update(order: EmulatedOrder, address: Partial<NewStoreOrder['address']>) {
    nextVersion(order, this.now());
    if (order.platform === 'shopify') {
      const current = order.body.shipping_address as Record<string, unknown>;
      order.body.shipping_address = {
        ...current,
        ...(address.address1 === undefined ? {} : { address1: address.address1 }),
        ...(address.address2 === undefined ? {} : { address2: address.address2 }),
        ...(address.city === undefined ? {} : { city: address.city }),
        ...(address.province === undefined ? {} : { province_code: address.province }),
        ...(address.zip === undefined ? {} : { zip: address.zip }),
      };
    } else {
      const current = order.body.shipping_address as Record<string, unknown>;
      order.body.shipping_address = {
        ...current,
        ...(address.street === undefined ? {} : { address: address.street }),
        ...(address.number === undefined ? {} : { number: address.number }),
        ...(address.locality === undefined ? {} : { locality: address.locality }),
        ...(address.city === undefined ? {} : { city: address.city }),
        ...(address.province === undefined ? {} : { province: address.province }),
        ...(address.zip === undefined ? {} : { zipcode: address.zip }),
      };
    }
    return this.announce(order, order.platform === 'shopify' ? 'orders/updated' : 'order/updated');
  }

  /**
   * Sends a topic's webhook for the order to every subscription, signed; answers what each URL said. `payload`: a body
   * other than the order's (Shopify's fulfillment-order topics carry the fulfillment order).
   */
  async announce(order: EmulatedOrder, topic: string, payload?: unknown): Promise<SentWebhook[]> {
    const subscriptions = (this.subscriptions.get(`${order.platform} ${order.store}`) ?? []).filter(
      (s) => s.topic === topic,
    );
    const sent: SentWebhook[] = [];
    for (const subscription of subscriptions) {
      const webhook =
        order.platform === 'shopify'
          ? shopifyWebhook(order, topic, subscription.url, this.now(), payload, this.shopifyFamily)
          : nuvemshopWebhook(order, topic, subscription.url);
      sent.push(await this.deliver(webhook));
    }
    return sent;
  }

  /** Announces without holding the caller (a platform sends its webhooks after answering the write). */
  later(order: EmulatedOrder, topic: string): void {
    const sending: Promise<unknown> = this.announce(order, topic).finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  /** Resolves when every webhook sent `later` has been answered (tests wait on it instead of on time). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Posts a webhook as the platform does (raw body, its headers) and records what the URL answered. */
  async deliver(webhook: Omit<SentWebhook, 'status'>): Promise<SentWebhook> {
    let status: SentWebhook['status'];
    try {
      const res = await fetch(webhook.url, {
        method: 'POST',
        headers: webhook.headers,
        body: webhook.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(5_000),
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = 'unreachable';
    }
    const sent = { ...webhook, status };
    this.sent.push(sent);
    return sent;
  }
}
