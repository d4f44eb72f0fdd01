import {
  type EmulatedFulfillmentOrder,
  type EmulatedOrder,
  nextVersion,
  type SentWebhook,
} from './emulated-order.ts';
import type { StoreOrders } from './store-orders.ts';

/**
 * What happens to an emulated order after it is paid, as each platform does it and says it (sandbox/README.md, "Store
 * orders"): cancelled or refunded (Shopify: `cancelled_at`, `cancel_reason`, `financial_status`, `orders/cancelled`
 * then `orders/updated` — shopify.dev/docs/api/webhooks; Nuvemshop: `status: cancelled`, `payment_status`,
 * `order/cancelled` — github.com/TiendaNube/api-docs resources/order.md and webhook.md), edited (Shopify: a line's
 * `current_quantity`, `orders/updated`), fulfilled (Shopify sends `orders/updated` after any change, the app's own
 * fulfillment included), a held or scheduled fulfillment order released (`fulfillment_orders/hold_released`,
 * `fulfillment_orders/scheduled_fulfillment_order_ready`).
 */

export const fulfillmentOrdersOf = (order: EmulatedOrder) =>
  (order.body.fulfillment_orders ?? []) as EmulatedFulfillmentOrder[];

const lines = (order: EmulatedOrder) =>
  (order.platform === 'shopify' ? order.body.line_items : order.body.products) as Record<string, unknown>[];

/** Cancels the order (`refund`: the money goes back too) and sends the platform's webhooks. */
export async function cancelOrder(
  orders: StoreOrders,
  order: EmulatedOrder,
  options: { refund: boolean; reason: string },
  now: number,
): Promise<SentWebhook[]> {
  const at = nextVersion(order, now);
  if (order.platform === 'shopify') {
    order.body.cancelled_at = at;
    order.body.cancel_reason = options.reason;
    if (options.refund) order.body.financial_status = 'refunded';
    for (const fo of fulfillmentOrdersOf(order)) if (fo.status !== 'CLOSED') fo.status = 'CANCELLED';
    return [
      ...(await orders.announce(order, 'orders/cancelled')),
      ...(await orders.announce(order, 'orders/updated')),
    ];
  }
  order.body.status = 'cancelled';
  order.body.cancel_reason = options.reason;
  order.body.cancelled_at = at;
  if (options.refund) order.body.payment_status = 'refunded';
  return orders.announce(order, 'order/cancelled');
}

/** Refunds the whole order without cancelling it (every line refunded: nothing left to ship). */
export async function refundOrder(
  orders: StoreOrders,
  order: EmulatedOrder,
  now: number,
): Promise<SentWebhook[]> {
  nextVersion(order, now);
  if (order.platform === 'shopify') {
    order.body.financial_status = 'refunded';
    for (const line of lines(order)) line.current_quantity = 0;
    return orders.announce(order, 'orders/updated');
  }
  order.body.payment_status = 'refunded';
  return orders.announce(order, 'order/updated');
}

/** Sets what is left of some lines (an edit, or a partial refund) and sends `updated`. */
export async function editOrder(
  orders: StoreOrders,
  order: EmulatedOrder,
  quantities: readonly { index: number; quantity: number }[],
  now: number,
): Promise<SentWebhook[]> {
  const list = lines(order);
  for (const { index, quantity } of quantities) {
    const line = list[index];
    if (!line) continue;
    if (order.platform === 'shopify') {
      line.current_quantity = quantity;
      line.fulfillable_quantity = quantity;
    } else line.quantity = String(quantity);
  }
  nextVersion(order, now);
  return orders.announce(order, order.platform === 'shopify' ? 'orders/updated' : 'order/updated');
}

/** Releases a held or scheduled fulfillment order (1-based `n`): it is `OPEN`, and the platform says so. */
export async function releaseFulfillmentOrder(
  orders: StoreOrders,
  order: EmulatedOrder,
  n: number,
): Promise<SentWebhook[] | undefined> {
  const fo = fulfillmentOrdersOf(order)[n - 1];
  if (!fo || (fo.status !== 'ON_HOLD' && fo.status !== 'SCHEDULED')) return undefined;
  const topic =
    fo.status === 'ON_HOLD'
      ? 'fulfillment_orders/hold_released'
      : 'fulfillment_orders/scheduled_fulfillment_order_ready';
  fo.status = 'OPEN';
  fo.fulfillAt = null;
  return orders.announce(order, topic, { fulfillment_order: { id: fo.id, status: 'open' } });
}

/** After the app's fulfillment: the order's status, its version, and `updated` sent as the platform sends it. */
export function afterFulfillment(orders: StoreOrders, order: EmulatedOrder, now: number): void {
  if (order.platform === 'shopify') {
    const all = fulfillmentOrdersOf(order).filter((fo) => fo.status !== 'CANCELLED');
    order.body.fulfillment_status = all.every((fo) => fo.status === 'CLOSED') ? 'fulfilled' : 'partial';
  }
  nextVersion(order, now);
  orders.later(order, order.platform === 'shopify' ? 'orders/updated' : 'order/updated');
}
