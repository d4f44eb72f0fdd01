import type { AgentLabelInputRaw } from '../labels/agent-label.ts';
import { declaredValueCents } from '../labels/declared-value.ts';
import type { PartyInput } from '../labels/party.ts';
import type { PlannedVolume, PlanShipmentInput } from '../packing/plan.ts';

/**
 * An order's labels from its lines and its plan (one label per volume): the desk's issue form (bff/desk/client/) and
 * the batch of orders to ship (bff/orders/batch.ts) build them the same way.
 */

/** One line of the order as the issue form holds it: a unit's sides (cm), weight (g), how many, and its value (BRL). */
export interface OrderLine {
  id: string;
  comprimento: number;
  largura: number;
  altura: number;
  weightGrams: number;
  quantity: number;
  valor: number;
}

/** The plan request of the order (`POST /admin/api/plan`): its lines without their value. */
export function planRequest(lines: readonly OrderLine[]): PlanShipmentInput {
  return {
    items: lines.map(({ valor: _valor, ...item }) => item),
  };
}

/** The order's declared value in BRL: Σ quantity × unit value, computed as the BFF computes a label's. */
export function declaredValue(lines: readonly OrderLine[]): number {
  return declaredValueCents(lines.map((line) => ({ quantidade: line.quantity, valor: line.valor }))) / 100;
}

export interface IssueOrder {
  orderId: string;
  /** The quote's `serviceId`: the BFF maps it to the contract code. */
  serviceId: string;
  sender: PartyInput;
  recipient: PartyInput;
  lines: readonly OrderLine[];
}

/**
 * One `generate_label` input per volume of the plan: the order and its volume (1, 2, …), the chosen service, the
 * volume's weight and box, and a content declaration of what that box holds (at each line's unit value).
 */
export function labelRequests(order: IssueOrder, volumes: readonly PlannedVolume[]): AgentLabelInputRaw[] {
  const byId = new Map(order.lines.map((line) => [line.id, line]));
  return volumes.map((volume, i) => ({
    orderId: order.orderId,
    volume: i + 1,
    serviceId: order.serviceId,
    weightGrams: volume.weightGrams,
    dimensions: {
      comprimento: volume.dimensions.comprimento,
      largura: volume.dimensions.largura,
      altura: volume.dimensions.altura,
    },
    objectFormat: '2',
    sender: order.sender,
    recipient: order.recipient,
    declaredItems: volume.items.map((item) => ({
      conteudo: item.id,
      quantidade: item.quantity,
      valor: byId.get(item.id)?.valor ?? 0,
    })),
  }));
}
