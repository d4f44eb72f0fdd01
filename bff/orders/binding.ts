import { normalizeCep } from '../../shared/cep.ts';
import { ERROR_MESSAGES } from '../../shared/errors.ts';
import type { StoreOrder } from '../../shared/orders/order.ts';
import type { LabelRefusal } from '../labels/answer.ts';
import { blockingReviews } from './to-ship.ts';

/**
 * How a label belongs to an order by more than its number (issue 48, finding 1; ARCHITECTURE "What no caller can do"):
 * a label is **bound** to a store order when it carries the order's `orderId` *and* goes to the order's CEP. The order's
 * state, the tracking sent back to its store and its lookup count only bound labels; a label asked for under a store
 * order's number to another CEP is refused (`order_mismatch`) before anything is sent, and one asked for while the
 * order has fields to review is refused (`needs_review`), as the desk's batch refuses it.
 *
 * Why the CEP decides at reading time too, not only when the label is asked for: a label issued under a number before
 * the store's order arrived (a webhook late, a CSV imported after) was checked against nothing; read through this rule
 * it counts for the order only if it goes where the order goes. A look-alike number (`1003` for `#1003`, another
 * channel's `1003`) is another `orderId`: ids are compared exactly, never normalised. The rule itself
 * (`isBound`) is in shared/orders/label-binding.ts, where the order store reads it without a circle.
 */

/** Why a label under this store order's number may not be sent (to another CEP, or the order is under review). */
export function bindingRefusal(order: StoreOrder, recipientCep: string): LabelRefusal | undefined {
  const cep = normalizeCep(order.recipient.endereco.cep);
  if (cep === null || normalizeCep(recipientCep) !== cep)
    return {
      reason: 'order_mismatch',
      field: 'recipient.endereco.cep',
      // Not the order's CEP: agents read no orders, and order numbers are sequential (bff/orders/binding-oracle.test.ts).
      message: `${ERROR_MESSAGES.order_mismatch} Nothing was sent. Use order ${order.orderId}'s own recipient (on the desk), or another orderId for another parcel.`,
    };
  const reviews = blockingReviews(order);
  if (reviews.length > 0)
    return {
      reason: 'needs_review',
      field: reviews[0]?.field,
      message: `Order ${order.orderId} has fields to review on the desk before its labels (${reviews.map((r) => r.field).join(', ')}); nothing was sent.`,
    };
  return undefined;
}

/** Where the store orders are read (`OrderStore`). */
interface StoredOrders {
  get(orderId: string): Promise<StoreOrder | undefined>;
}

/** The port the label service asks before sending under an `orderId` (bff/labels/service.ts). */
export interface OrderBinding {
  refusal(orderId: string, recipientCep: string): Promise<LabelRefusal | undefined>;
}

/** The binding rule over the stored orders: an `orderId` no store order has binds to nothing and is not refused. */
export class StoreOrderBinding implements OrderBinding {
  private readonly orders: StoredOrders;

  constructor(orders: StoredOrders) {
    this.orders = orders;
  }

  async refusal(orderId: string, recipientCep: string): Promise<LabelRefusal | undefined> {
    const order = await this.orders.get(orderId);
    return order ? bindingRefusal(order, recipientCep) : undefined;
  }
}
