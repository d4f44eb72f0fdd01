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

/**
 * Shopify (`orders/paid`, `orders/updated`): `name` is the `orderId`, `shipping_lines[0].code` the serviceId (the
 * carrier service's `service_code`). The street and number come together in `address1` ("Rua X, 123"): split only when
 * unambiguous (shared/orders/address.ts). Shopify has no neighbourhood field (the CEP fills it) and no product sizes
 * (the presets and boxes do); `grams` is one unit's weight.
 */
export function shopifyDraft(order: ShopifyOrder): DraftOrder {
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
  const name = text(address.name) || `${text(address.first_name)} ${text(address.last_name)}`.trim();
  const items: OrderItem[] = order.line_items
    .filter((item) => item.requires_shipping !== false && item.quantity > 0)
    .map((item) => ({
      name: (text(item.name) || text(item.title) || text(item.sku) || 'item').slice(0, 200),
      ...optional('sku', text(item.sku) || undefined),
      quantity: item.quantity,
      ...(item.grams ? { weightGrams: Math.round(item.grams) } : {}),
      valor: brl(item.price),
    }));
  const serviceId = text(order.shipping_lines?.[0]?.code);
  return {
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
    rawAddress: [text(address.address1), text(address.address2)].filter(Boolean).join(' | ').slice(0, 500),
  };
}

/** Nuvemshop's sizes (cm, strings or numbers): all three, or none. */
function nuvemshopDimensions(product: NuvemshopOrder['products'][number]): Dimensions | undefined {
  const sides = [product.depth, product.width, product.height].map((side) => Number(side ?? 0));
  if (!sides.every((side) => side > 0 && side <= 200)) return undefined;
  const [comprimento = 0, largura = 0, altura = 0] = sides;
  return { comprimento, largura, altura };
}

/**
 * Nuvemshop (read through its API after `order/paid`): `number` is the `orderId`, `shipping_option_code` the
 * serviceId (the carrier option's `code`). The address comes split (street, number, floor, locality); the province is
 * the state's name; products carry weight in kg and sizes in cm.
 */
export function nuvemshopDraft(order: NuvemshopOrder): DraftOrder {
  const address = order.shipping_address ?? {};
  const items: OrderItem[] = order.products
    .map((product) => ({ product, quantity: Number(product.quantity) }))
    .filter(({ quantity }) => Number.isInteger(quantity) && quantity > 0)
    .map(({ product, quantity }) => {
      const grams = Math.round(Number(product.weight ?? 0) * 1000);
      const dimensions = nuvemshopDimensions(product);
      return {
        name: (text(product.name) || text(product.sku) || 'item').slice(0, 200),
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
