import type { NuvemshopOrder } from '../../shared/checkouts/nuvemshop.ts';
import type { ShopifyOrder } from '../../shared/checkouts/shopify.ts';
import { splitStreetLine } from '../../shared/orders/address.ts';
import type { Dimensions, OrderItem, Review } from '../../shared/orders/order.ts';
import { ufOfProvince } from '../../shared/orders/states.ts';
import type { DraftOrder } from '../orders/review.ts';

/**
 * A store platform's paid order as the desk's order to ship (docs/orders.md): the recipient split as Correios needs
 * it, the items with their weights (and sizes where the platform has them), the shopper's chosen service. What cannot
 * be split is left empty and named in `needsReview` (bff/orders/review.ts adds the CEP's checks).
 */

const text = (value: string | null | undefined) => (value ?? '').trim();
/** Digits of a CPF (11) or CNPJ (14), when the text is one. */
const taxId = (value: string | null | undefined) => {
  const digits = text(value).replace(/\D/g, '');
  return digits.length === 11 || digits.length === 14 ? digits : undefined;
};
const optional = <K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> =>
  value ? ({ [key]: value } as Record<K, string>) : {};
/** A money text or number ("19.90") as BRL, at least 0. */
const brl = (value: string | number | null | undefined) => Math.max(0, Number(value ?? 0) || 0);

/** What a line's quantities come to: what is left to ship, and what was ordered when that differs. */
const quantities = (ordered: number, left: number) =>
  left < ordered && left > 0 ? { quantity: left, ordered } : { quantity: left };

/** Shopify's financial statuses that mean the money went back (or was never taken): the order is not shipped. */
const SHOPIFY_UNPAID = new Set(['refunded', 'voided']);

/**
 * Whether the store called the order off (Shopify's Order resource: `cancelled_at` with `cancel_reason`, or a
 * `financial_status` of `refunded` / `voided`).
 */
function shopifyCancelled(order: ShopifyOrder): DraftOrder['cancelled'] {
  const at = text(order.cancelled_at) || text(order.updated_at);
  if (text(order.cancelled_at))
    return { at, reason: (text(order.cancel_reason) || 'cancelled').slice(0, 60) };
  const status = text(order.financial_status);
  return SHOPIFY_UNPAID.has(status) ? { at, reason: status } : undefined;
}

/**
 * Shopify (`orders/paid`, `orders/updated`, `orders/cancelled`): `name` is the `orderId`, `shipping_lines[0].code`
 * the serviceId (the carrier service's `service_code`). The street and number come together in `address1` ("Rua X,
 * 123"): split only when unambiguous (shared/orders/address.ts). Shopify has no neighbourhood field (the CEP fills
 * it) and no product sizes (the presets and boxes do); `grams` is one unit's weight. A line's quantity is what is left
 * to ship (`current_quantity`, after edits and refunds); a line with nothing left leaves. No shipping address: a
 * pickup.
 */
export function shopifyDraft(order: ShopifyOrder): DraftOrder {
  const cancelled = shopifyCancelled(order);
  const address = order.shipping_address ?? {};
  const line = splitStreetLine(text(address.address1));
  const needsReview: Review[] = [];
  if (text(address.address1) && !line.numberFound)
    needsReview.push({
      field: 'recipient.endereco.numero',
      reason: 'number_not_found',
      detail: text(address.address1),
    });
  const complemento = [line.complemento, text(address.address2)].filter(Boolean).join(' — ');
  // A pickup has no shipping address: the billing address names the shopper.
  const named = order.shipping_address ?? order.billing_address ?? {};
  const name = text(named.name) || `${text(named.first_name)} ${text(named.last_name)}`.trim();
  const shipped = order.line_items.filter((item) => item.requires_shipping !== false);
  const left = (item: (typeof shipped)[number]) => item.current_quantity ?? item.quantity;
  // Nothing left of a paid order (every line refunded or edited away): called off, as a cancellation is. A cancelled
  // order shows what was ordered.
  const nothingLeft =
    !cancelled && shipped.some((item) => item.quantity > 0) && shipped.every((i) => left(i) <= 0);
  const called = nothingLeft ? { at: text(order.updated_at), reason: 'nothing_left_to_ship' } : cancelled;
  const lifecycle = {
    ...(called ? { cancelled: called } : {}),
    ...(order.shipping_address ? {} : { pickup: true as const }),
  };
  const items: OrderItem[] = shipped
    .map((item) => ({ item, left: called ? item.quantity : left(item) }))
    .filter(({ left }) => left > 0)
    .map(({ item, left }) => ({
      name: text(item.name) || text(item.title) || text(item.sku) || 'item',
      ...optional('sku', text(item.sku) || undefined),
      ...quantities(item.quantity, left),
      ...(item.grams ? { weightGrams: Math.round(item.grams) } : {}),
      valor: brl(item.price),
    }));
  const serviceId = text(order.shipping_lines?.[0]?.code);
  return {
    ...lifecycle,
    orderId: order.name,
    source: 'shopify',
    externalId: order.admin_graphql_api_id ?? `gid://shopify/Order/${order.id}`,
    ...(serviceId ? { serviceId } : {}),
    recipient: {
      nome: name,
      ...optional('telefone', text(address.phone) || text(order.phone) || undefined),
      ...optional('email', text(order.email) || undefined),
      endereco: {
        cep: text(address.zip),
        logradouro: line.logradouro,
        numero: line.numero,
        ...optional('complemento', complemento || undefined),
        bairro: '',
        cidade: text(address.city),
        uf: ufOfProvince(address.province_code) || ufOfProvince(address.province),
      },
    },
    items,
    needsReview,
    rawAddress: [text(address.address1), text(address.address2)].filter(Boolean).join(' | '),
  };
}

/** Nuvemshop's sizes (cm, strings or numbers): all three, or none. */
function nuvemshopDimensions(product: NuvemshopOrder['products'][number]): Dimensions | undefined {
  const sides = [product.depth, product.width, product.height].map((side) => Number(side ?? 0));
  if (!sides.every((side) => side > 0 && side <= 200)) return undefined;
  const [comprimento = 0, largura = 0, altura = 0] = sides;
  return { comprimento, largura, altura };
}

/** Nuvemshop's order called off: `status: cancelled`, or a `payment_status` of `refunded` / `voided`. */
function nuvemshopCancelled(order: NuvemshopOrder): DraftOrder['cancelled'] {
  const at = text(order.cancelled_at) || text(order.updated_at);
  if (text(order.status) === 'cancelled')
    return { at, reason: (text(order.cancel_reason) || 'cancelled').slice(0, 60) };
  const status = text(order.payment_status);
  return status === 'refunded' || status === 'voided' ? { at, reason: status } : undefined;
}

/**
 * Nuvemshop (read through its API after `order/paid`, `order/updated`, `order/cancelled`): `number` is the `orderId`,
 * `shipping_option_code` the serviceId (the carrier option's `code`). The address comes split (street, number, floor,
 * locality); the province is the state's name; products carry weight in kg and sizes in cm; numbers come as numbers
 * or numeric strings. `shipping_pickup_type: "pickup"` (or no shipping address): picked up at a branch, not shipped.
 */
export function nuvemshopDraft(order: NuvemshopOrder): DraftOrder {
  const cancelled = nuvemshopCancelled(order);
  const pickup = text(order.shipping_pickup_type) === 'pickup' || !order.shipping_address;
  const address = order.shipping_address ?? {};
  const items: OrderItem[] = order.products
    .map((product) => ({ product, quantity: Number(product.quantity) }))
    .filter(({ quantity }) => Number.isInteger(quantity) && quantity > 0)
    .map(({ product, quantity }) => {
      const grams = Math.round(Number(product.weight ?? 0) * 1000);
      const dimensions = nuvemshopDimensions(product);
      return {
        name: text(product.name) || text(product.sku) || 'item',
        ...optional('sku', text(product.sku) || undefined),
        quantity,
        ...(grams > 0 ? { weightGrams: grams } : {}),
        ...(dimensions ? { dimensions } : {}),
        valor: brl(product.price),
      };
    });
  const serviceId = text(order.shipping_option_code);
  const cpfCnpj = taxId(order.contact_identification);
  return {
    ...(cancelled ? { cancelled } : {}),
    ...(pickup ? { pickup: true as const } : {}),
    orderId: String(order.number),
    source: 'nuvemshop',
    externalId: String(order.id),
    ...(serviceId ? { serviceId } : {}),
    recipient: {
      nome: text(address.name),
      ...optional('cpfCnpj', cpfCnpj),
      ...optional('telefone', text(address.phone) || text(order.contact_phone) || undefined),
      ...optional('email', text(order.contact_email) || undefined),
      endereco: {
        cep: text(address.zipcode),
        logradouro: text(address.address),
        numero: text(address.number),
        ...optional('complemento', text(address.floor) || undefined),
        bairro: text(address.locality),
        cidade: text(address.city),
        uf: ufOfProvince(address.province),
      },
    },
    items,
  };
}
