import type { OrderItem, Review } from '../../shared/orders/order.ts';
import type { DraftOrder } from './review.ts';

/**
 * A store's paid order is never refused for its content (ARCHITECTURE "What no caller can do"): the platform signed
 * it, the shopper paid, and a refusal makes the platform retry for hours and then drop the subscription. What the kit
 * cannot put on a label as sent — more lines than an order holds, a quantity, a weight or a value out of range, a
 * field longer than the label takes — is fitted into the stored order's bounds (shared/orders/order.ts) and named in
 * a blocking `needsReview` (`out_of_bounds`, `detail`: what came and the bound), so the order is kept, shown, logged
 * and never labelled with a value the store did not send unless the operator decides. A CEP that does not fit is
 * `malformed`, emptied (never cut into another CEP). A product's name and SKU, and the address as written, only
 * describe: they are cut to fit, not flagged.
 */

/** The bounds of a stored order (shared/orders/order.ts's StoreOrderSchema), in one place for the fitting. */
export const ORDER_BOUNDS = {
  orderId: 160,
  serviceId: 60,
  lines: 50,
  itemName: 200,
  sku: 100,
  quantity: 999,
  weightGrams: 100_000,
  valor: 1_000_000,
  rawAddress: 500,
  recipient: { nome: 200, cpfCnpj: 20, telefone: 40, email: 200 },
  endereco: {
    cep: 9,
    logradouro: 200,
    numero: 40,
    complemento: 200,
    bairro: 120,
    cidade: 120,
    uf: 2,
  },
} as const;

/** The draft within the stored order's bounds, each value that did not fit named in `needsReview`. */
export function withinBounds(draft: DraftOrder): DraftOrder {
  const needsReview: Review[] = [...(draft.needsReview ?? [])];
  const flag = (field: string, detail: string, reason: Review['reason'] = 'out_of_bounds') => {
    if (!needsReview.some((r) => r.field === field)) needsReview.push({ field, reason, detail });
  };
  const cut = (field: string, value: string, max: number): string => {
    if (value.length <= max) return value;
    flag(field, `${value.length} characters (at most ${max})`);
    return value.slice(0, max);
  };

  const recipient = structuredClone(draft.recipient);
  for (const key of ['nome', 'cpfCnpj', 'telefone', 'email'] as const) {
    const value = recipient[key];
    if (value !== undefined) recipient[key] = cut(`recipient.${key}`, value, ORDER_BOUNDS.recipient[key]);
  }
  const endereco = recipient.endereco;
  if (endereco.cep.length > ORDER_BOUNDS.endereco.cep) {
    flag('recipient.endereco.cep', endereco.cep.slice(0, 40), 'malformed');
    endereco.cep = '';
  }
  for (const key of ['logradouro', 'numero', 'bairro', 'cidade', 'uf'] as const)
    endereco[key] = cut(`recipient.endereco.${key}`, endereco[key], ORDER_BOUNDS.endereco[key]);
  if (endereco.complemento !== undefined)
    endereco.complemento = cut(
      'recipient.endereco.complemento',
      endereco.complemento,
      ORDER_BOUNDS.endereco.complemento,
    );

  if (draft.items.length > ORDER_BOUNDS.lines)
    flag(
      'items',
      `${draft.items.length} lines (at most ${ORDER_BOUNDS.lines}): the first ${ORDER_BOUNDS.lines} are shown`,
    );
  const items = draft.items.slice(0, ORDER_BOUNDS.lines).map((item, i) => fitItem(item, `items[${i}]`, flag));

  const serviceId =
    draft.serviceId === undefined ? undefined : cut('serviceId', draft.serviceId, ORDER_BOUNDS.serviceId);
  const { serviceId: _serviceId, rawAddress, ...rest } = draft;
  return {
    ...rest,
    orderId: cut('orderId', draft.orderId, ORDER_BOUNDS.orderId),
    ...(serviceId === undefined ? {} : { serviceId }),
    recipient,
    items,
    needsReview,
    ...(rawAddress === undefined ? {} : { rawAddress: rawAddress.slice(0, ORDER_BOUNDS.rawAddress) }),
  };
}

function fitItem(item: OrderItem, path: string, flag: (field: string, detail: string) => void): OrderItem {
  const { weightGrams, ordered, ...rest } = item;
  // A product's name and SKU only describe it (the label declares the first 90 characters): cut, never a review.
  const fitted: OrderItem = {
    ...rest,
    name: item.name.slice(0, ORDER_BOUNDS.itemName),
    ...(item.sku === undefined ? {} : { sku: item.sku.slice(0, ORDER_BOUNDS.sku) }),
  };
  if (item.quantity > ORDER_BOUNDS.quantity) {
    flag(`${path}.quantity`, `${item.quantity} (at most ${ORDER_BOUNDS.quantity})`);
    fitted.quantity = ORDER_BOUNDS.quantity;
  }
  if (ordered !== undefined && ordered > fitted.quantity) fitted.ordered = ordered;
  if (weightGrams !== undefined) {
    if (weightGrams > ORDER_BOUNDS.weightGrams)
      flag(`${path}.weightGrams`, `${weightGrams} g (at most ${ORDER_BOUNDS.weightGrams})`);
    else fitted.weightGrams = weightGrams;
  }
  if (item.valor > ORDER_BOUNDS.valor) {
    flag(`${path}.valor`, `R$ ${item.valor} (at most R$ ${ORDER_BOUNDS.valor})`);
    fitted.valor = ORDER_BOUNDS.valor;
  }
  return fitted;
}
