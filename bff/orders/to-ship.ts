import type { OrderLine } from '../../shared/orders/label-requests.ts';
import type { Dimensions, OrderItem, Review, StoreOrder } from '../../shared/orders/order.ts';
import type { Box } from '../../shared/packing/box.ts';
import { isPlanRefusal, type PlannedVolume } from '../../shared/packing/plan.ts';
import { planShipment } from '../../shared/packing/planner.ts';
import type { Fulfillment } from '../stores/tracking-back.ts';
import { type OrderLabels, type Preset, presetKey, type StoredOrder } from './order-store.ts';

/** Where an item's sizes come from: the platform, the merchant's preset for the product, or the smallest box. */
export type SizeSource = 'platform' | 'preset' | 'box';

/** An item as the desk packs it. */
export interface PackedItem extends OrderItem {
  /** The line's id in the plan and the content declaration (its name, made unique within the order). */
  lineId: string;
  sizeSource: SizeSource | null;
  weightSource: 'platform' | 'preset' | null;
}

/** What the packer answers for the order: its volumes, or why it cannot pack it. */
export type OrderPlan =
  | { volumes: PlannedVolume[]; lines: OrderLine[] }
  | {
      reason: 'no_weight' | 'no_boxes_configured' | 'item_does_not_fit' | 'too_many_volumes';
      message: string;
    };

/** The smallest box of the catalog by volume: the size of an item nothing else tells (each unit fills one). */
function smallestBox(boxes: readonly Box[]): Dimensions | undefined {
  const [box] = [...boxes].sort(
    (a, b) => a.comprimento * a.largura * a.altura - b.comprimento * b.largura * b.altura,
  );
  return box ? { comprimento: box.comprimento, largura: box.largura, altura: box.altura } : undefined;
}

/**
 * The order's items with their weight and sizes (docs/orders.md, "Weights and sizes"): the platform's, else the preset
 * the merchant saved for the product (by SKU, else name), else — sizes only — the smallest box of `BFF_BOXES`, so an
 * item nothing describes still packs, one unit to a box (save a preset to pack tighter). A weight is never invented.
 */
export function packedItems(
  order: StoreOrder,
  presets: readonly Preset[],
  boxes: readonly Box[],
): PackedItem[] {
  const byKey = new Map(presets.map((preset) => [preset.key, preset]));
  const fallback = smallestBox(boxes);
  const used = new Set<string>();
  return order.items.map((item) => {
    const preset = byKey.get(presetKey(item));
    let lineId = item.name.slice(0, 90);
    for (let n = 2; used.has(lineId); n++) lineId = `${item.name.slice(0, 90)} (${n})`;
    used.add(lineId);
    const dimensions = item.dimensions ?? preset?.dimensions ?? fallback;
    const weightGrams = item.weightGrams ?? preset?.weightGrams;
    return {
      ...item,
      ...(dimensions ? { dimensions } : {}),
      ...(weightGrams ? { weightGrams } : {}),
      lineId,
      sizeSource: item.dimensions ? 'platform' : preset?.dimensions ? 'preset' : fallback ? 'box' : null,
      weightSource: item.weightGrams ? 'platform' : preset?.weightGrams ? 'preset' : null,
    };
  });
}

/** `plan_shipment`'s packer over the order's items: its volumes, and the lines each label's declaration is made of. */
export function planOf(items: readonly PackedItem[], boxes: readonly Box[]): OrderPlan {
  const unweighed = items.find((item) => item.weightGrams === undefined);
  if (unweighed)
    return { reason: 'no_weight', message: `${unweighed.name} has no weight: weigh it, or save a preset` };
  const lines: OrderLine[] = items.map((item) => ({
    id: item.lineId,
    comprimento: item.dimensions?.comprimento ?? 0,
    largura: item.dimensions?.largura ?? 0,
    altura: item.dimensions?.altura ?? 0,
    weightGrams: item.weightGrams ?? 0,
    quantity: item.quantity,
    valor: item.valor,
  }));
  // On the event loop, as the desk lists orders: planShipment refuses an order over the label's 999 volumes before
  // any packing (a cheap lower bound), so what is packed here is at most that (tens of milliseconds).
  const plan = planShipment({ items: lines.map(({ valor: _valor, ...line }) => line) }, boxes);
  if (isPlanRefusal(plan))
    return {
      reason:
        plan.reason === 'no_boxes_configured' || plan.reason === 'too_many_volumes'
          ? plan.reason
          : 'item_does_not_fit',
      message: plan.message,
    };
  return { volumes: plan.volumes, lines };
}

/** Reviews that tell what happened to a labelled order; they block nothing (its labels exist). */
export const AFTER_LABEL_REVIEWS: readonly Review['reason'][] = [
  'changed_after_label',
  'cancelled_after_label',
];

/** What blocks an order's labels: a field to review (not what happened after its labels). */
export function blockingReviews(order: StoreOrder): Review[] {
  return order.needsReview.filter((review) => !AFTER_LABEL_REVIEWS.includes(review.reason));
}

/** An order as the desk's list and the agents' tool show it (ARCHITECTURE "Store orders": `GET /admin/api/orders`). */
export function orderView(
  order: StoredOrder,
  labels: OrderLabels | undefined,
  items: readonly PackedItem[],
  plan: OrderPlan,
  tracking: Fulfillment | 'not_connected' | undefined,
) {
  return {
    orderId: order.orderId,
    source: order.source,
    ...(order.serviceId ? { serviceId: order.serviceId } : {}),
    recipient: order.recipient,
    needsReview: order.needsReview,
    ...(order.rawAddress ? { rawAddress: order.rawAddress } : {}),
    ...(order.cancelled ? { cancelled: order.cancelled } : {}),
    items: items.map(({ lineId: _id, ...item }) => item),
    state: labels?.state ?? 'new',
    plan:
      'volumes' in plan
        ? {
            volumes: plan.volumes.map((volume) => ({
              box: volume.box,
              items: volume.items,
              weightGrams: volume.weightGrams,
              dimensions: volume.dimensions,
            })),
          }
        : { reason: plan.reason, message: plan.message },
    labels: labels?.labels ?? [],
    ...(tracking === undefined
      ? {}
      : {
          trackingBack:
            tracking === 'not_connected'
              ? { state: 'not_connected' as const }
              : {
                  state: tracking.state,
                  tries: tracking.tries,
                  ...(tracking.lastError ? { error: tracking.lastError } : {}),
                  ...(tracking.sentAt ? { sentAt: new Date(tracking.sentAt).toISOString() } : {}),
                  codes: tracking.tracking.map((t) => t.code),
                },
        }),
    receivedAt: new Date(order.receivedAt).toISOString(),
  };
}
export type OrderView = ReturnType<typeof orderView>;
