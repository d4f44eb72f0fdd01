import { saoPauloDay } from '../../shared/business-days.ts';
import { AgentLabelInputSchema } from '../../shared/labels/agent-label.ts';
import type { PartyInput } from '../../shared/labels/party.ts';
import { labelRequests } from '../../shared/orders/label-requests.ts';
import { ORDER_STATES, type OrderState, type StoreOrder } from '../../shared/orders/order.ts';
import type { Box } from '../../shared/packing/box.ts';
import { describeAnswer } from '../labels/answer.ts';
import type { LedgerAttempt } from '../labels/ledger.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';
import type { LabelService } from '../labels/service.ts';
import type { Logger } from '../logger.ts';
import { DESK } from '../policies/policies.ts';
import { DESK_CALLER, isQuoteShareSpent } from '../rates/quote-share.ts';
import type { RatesService } from '../rates/service.ts';
import type { FulfillmentStore, TrackingBack } from '../stores/tracking-back.ts';
import type { OrderStore, StoredOrder } from './order-store.ts';
import { blockingReviews, type OrderView, orderView, packedItems, planOf } from './to-ship.ts';

export interface OrderDeskDeps {
  orders: OrderStore;
  ledger: Pick<LedgerStore, 'list'>;
  labels: Pick<LabelService, 'generate'>;
  rates: Pick<RatesService, 'quote'>;
  fulfillments: FulfillmentStore;
  trackingBack: Pick<TrackingBack, 'connected' | 'drain'>;
  boxes: readonly Box[];
  /** The BFF's public URL: the tracking page's address sent back to the store. */
  publicUrl: string;
  logger: Logger;
  now?: () => number;
}

/** One volume's answer in a batch: the ledger's, as the desk's single-label API answers it. */
export interface VolumeResult {
  volume: number;
  status: number;
  answer: ReturnType<typeof describeAnswer>['structured'];
}

/** One order's part of a batch: its volumes' answers, or why none was sent. */
export interface OrderResult {
  orderId: string;
  volumes: VolumeResult[];
  refused?: { reason: string; message: string; fields?: string[] };
}

/** Orders issued at once, each order's volumes one after another. */
const BATCH_CONCURRENCY = 4;

/**
 * The day's orders on the desk (docs/orders.md): listed with their state, packed with `plan_shipment`'s packer,
 * priced as the store pays (the quote core, the desk's share), issued in one action through the label ledger (each
 * volume is the intended label (`orderId`, `volume`): a second click, or a resend after a crash, answers the same
 * labels and never issues twice), and, once every volume has its label, the tracking queued back to the store.
 */
export class OrderDesk {
  private readonly deps: OrderDeskDeps;

  constructor(deps: OrderDeskDeps) {
    this.deps = deps;
  }

  /** The orders, newest first; `state` keeps only those in it (`to_ship`: new and partly labelled). */
  async list(
    options: { state?: OrderState | 'to_ship' | undefined; price?: boolean } = {},
  ): Promise<OrderView[]> {
    const stored = await this.deps.orders.list(500);
    const views = await this.views(stored, options.price ?? false);
    const state = options.state;
    if (!state) return views;
    const wanted: readonly string[] = state === 'to_ship' ? ['new', 'partly_labelled'] : [state];
    return views.filter((view) => wanted.includes(view.state));
  }

  async view(orderId: string): Promise<OrderView | undefined> {
    const order = await this.deps.orders.get(orderId);
    return order ? (await this.views([order], true))[0] : undefined;
  }

  private async views(stored: readonly StoredOrder[], price: boolean) {
    const { orders, fulfillments, boxes, trackingBack } = this.deps;
    const [labels, presets, sent] = await Promise.all([
      orders.labelsOf(stored),
      orders.presets(),
      fulfillments.of(stored.map((order) => order.orderId)),
    ]);
    const views = [];
    const connected = {
      shopify: await trackingBack.connected('shopify'),
      nuvemshop: await trackingBack.connected('nuvemshop'),
    };
    for (const order of stored) {
      const items = packedItems(order, presets, boxes);
      const plan = planOf(items, boxes);
      const platform = order.source === 'shopify' || order.source === 'nuvemshop' ? order.source : undefined;
      const tracking =
        sent.get(order.orderId) ?? (platform && !connected[platform] ? 'not_connected' : undefined);
      const view = orderView(order, labels.get(order.orderId), items, plan, tracking);
      const priced = price && 'volumes' in plan ? await this.price(order, plan.volumes) : undefined;
      views.push(priced === undefined ? view : { ...view, price: priced });
    }
    return views;
  }

  /**
   * The store's price for the order's volumes with its service: one quote of the volumes (the quote core, cached), as
   * the desk's quote step asks it, with no cart value — the free-shipping rules are what the shopper was offered; the
   * store pays the carrier's price. Undefined when it cannot be had now (the desk's share is spent, no such service).
   */
  private async price(
    order: StoreOrder,
    volumes: readonly { weightGrams: number }[],
  ): Promise<number | undefined> {
    if (!order.serviceId || !/^\d{8}$/.test(order.recipient.endereco.cep)) return undefined;
    try {
      const quote = await this.deps.rates.quote(
        {
          destinationCep: order.recipient.endereco.cep,
          items: volumes.map((volume, i) => ({
            name: `volume ${i + 1}`,
            quantity: 1,
            unitPriceBRL: 0,
            weightKg: volume.weightGrams / 1000,
          })),
        },
        DESK_CALLER,
      );
      return quote.rates.find((rate) => rate.serviceId === order.serviceId)?.price;
    } catch (error) {
      if (isQuoteShareSpent(error)) return undefined;
      this.deps.logger.warn({ order: order.orderId }, 'orders: no price for the order now');
      return undefined;
    }
  }

  /**
   * The labels asked for on one São Paulo day (`day`: YYYY-MM-DD; default today), oldest first, at most `limit`:
   * "what shipped today?".
   */
  async labelsOfDay(day: string | undefined, limit = 500): Promise<{ day: string; labels: LedgerAttempt[] }> {
    const now = (this.deps.now ?? Date.now)();
    const at = day ? Date.parse(`${day}T12:00:00-03:00`) : now;
    const { start, end } = saoPauloDay(at);
    const labels: LedgerAttempt[] = [];
    let before = { createdAt: end, id: '' };
    for (;;) {
      const page = await this.deps.ledger.list({ before, limit: 200 });
      for (const attempt of page)
        if (attempt.createdAt >= start && attempt.createdAt < end) labels.push(attempt);
      const last = page.at(-1);
      if (!last || page.length < 200 || last.createdAt < start || labels.length >= limit) break;
      before = { createdAt: last.createdAt, id: last.id };
    }
    const date = new Date(start + 3 * 3_600_000).toISOString().slice(0, 10);
    return { day: date, labels: labels.slice(0, limit).reverse() };
  }

  /** The products' saved weights and sizes (the desk's presets). */
  presets() {
    return this.deps.orders.presets();
  }

  /** Issues every volume of each order (at most `BATCH_CONCURRENCY` orders at once), from `sender`. */
  async issue(orderIds: readonly string[], sender: PartyInput): Promise<OrderResult[]> {
    const results: OrderResult[] = new Array(orderIds.length);
    let next = 0;
    const worker = async () => {
      while (next < orderIds.length) {
        const i = next++;
        results[i] = await this.issueOne(orderIds[i] as string, sender);
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, orderIds.length) }, worker));
    void this.deps.trackingBack.drain().catch(() => undefined);
    return results;
  }

  private async issueOne(orderId: string, sender: PartyInput): Promise<OrderResult> {
    const { orders, boxes } = this.deps;
    const order = await orders.get(orderId);
    if (!order) return { orderId, volumes: [], refused: { reason: 'not_found', message: 'no such order' } };
    const closed = lifecycleRefusal(order);
    if (closed) return { orderId, volumes: [], refused: closed };
    const reviews = blockingReviews(order);
    if (reviews.length > 0)
      return {
        orderId,
        volumes: [],
        refused: {
          reason: 'needs_review',
          message: 'the order has fields to review before its labels',
          fields: reviews.map((review) => review.field),
        },
      };
    const plan = planOf(packedItems(order, await orders.presets(), boxes), boxes);
    if (!('volumes' in plan))
      return { orderId, volumes: [], refused: { reason: plan.reason, message: plan.message } };
    await orders.plan(orderId, plan.volumes.length);
    const { endereco, ...contact } = order.recipient;
    const requests = labelRequests(
      {
        orderId,
        serviceId: order.serviceId ?? '',
        sender,
        recipient: {
          ...contact,
          endereco: { ...endereco, ...(endereco.complemento ? {} : { complemento: undefined }) },
        },
        lines: plan.lines,
      },
      plan.volumes,
    );
    const volumes: VolumeResult[] = [];
    for (const [i, request] of requests.entries()) {
      const parsed = AgentLabelInputSchema.safeParse(stripEmpty(request));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        volumes.push({
          volume: i + 1,
          status: 422,
          answer: {
            reason: 'invalid_body',
            status: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
          },
        });
        continue;
      }
      const { structured, status } = describeAnswer(await this.deps.labels.generate(parsed.data, DESK));
      volumes.push({ volume: i + 1, status, answer: structured });
    }
    await this.queueTracking(order, volumes);
    return { orderId, volumes };
  }

  /**
   * The order's tracking back to its store, once every planned volume of this batch answered a label of the order with
   * its code (created now or told again). The codes are this batch's own answers, never the ledger's labels under the
   * number: a volume another request holds (`order_volume_conflict`), refused or unsettled queues nothing, so a label
   * the merchant did not issue for this order never reaches the store (issue 48, finding 1).
   */
  private async queueTracking(order: StoredOrder, volumes: readonly VolumeResult[]): Promise<void> {
    if (order.source !== 'shopify' && order.source !== 'nuvemshop') return;
    // Cancelled while its labels were being issued: nothing goes back to the store.
    if ((await this.deps.orders.get(order.orderId))?.cancelled) return;
    if (!(await this.deps.trackingBack.connected(order.source))) return;
    const codes: string[] = [];
    for (const { status, answer } of volumes) {
      if ((status !== 200 && status !== 201) || answer.reason !== undefined || !answer.trackingCode) return;
      codes.push(answer.trackingCode);
    }
    if (codes.length === 0) return;
    const url = `${this.deps.publicUrl}/track?codes=${codes.map(encodeURIComponent).join(',')}`;
    await this.deps.fulfillments.enqueue(
      order,
      codes.map((code) => ({ code, url })),
      (this.deps.now ?? Date.now)(),
    );
  }
}

/**
 * Why an order is never labelled, whoever asks (the desk's batch, an agent's `generate_label`): the store cancelled it,
 * or it is picked up at the store. Undefined: its life lets it be labelled.
 */
export function lifecycleRefusal(
  order: Pick<StoreOrder, 'cancelled' | 'pickup'>,
): { reason: 'order_cancelled' | 'order_not_shipped'; message: string } | undefined {
  if (order.cancelled)
    return {
      reason: 'order_cancelled',
      message: `the store cancelled this order (${order.cancelled.reason}): it is not shipped`,
    };
  if (order.pickup)
    return {
      reason: 'order_not_shipped',
      message: 'this order has no shipping address (picked up at the store): it is not shipped',
    };
  return undefined;
}

/** Optional party fields left empty are left out (the label's rules see only what the order says). */
function stripEmpty(request: object): unknown {
  return JSON.parse(
    JSON.stringify(request, (_key, value) => (value === '' || value === undefined ? undefined : value)),
  );
}

/** What the order list filters by (`list`'s `state`, the desk's `?state=`): a state, or `to_ship`. */
export const ORDER_LIST_STATES = [...ORDER_STATES, 'to_ship'] as const;
