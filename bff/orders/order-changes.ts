import type { StoreOrder } from '../../shared/orders/order.ts';

/**
 * What of a store's order a label is made of, and what changed of it between two versions the platform sent
 * (ARCHITECTURE "Store orders as the store sees them"): the recipient's name and address, the items (name, SKU,
 * quantity left to ship) and the chosen service. Nothing else counts: Shopify and Nuvemshop send `orders/updated` /
 * `order/updated` for any change — the kit's own fulfillment, tags, notes, a payment captured — and none of those
 * changes a parcel.
 *
 * Versions are compared as the platform sent them (before the CEP service fills a neighbourhood, and before the
 * operator's corrections on the desk), so neither a CEP service answering differently nor the operator's own review
 * reads as the store's change.
 */
export interface LabelledContent {
  recipient: {
    nome: string;
    cep: string;
    logradouro: string;
    numero: string;
    complemento: string;
    cidade: string;
    uf: string;
  };
  items: { name: string; sku: string; quantity: number }[];
  serviceId: string;
}

/** The parts of an order its labels are made of. */
export function labelledContent(
  order: Pick<StoreOrder, 'recipient' | 'items' | 'serviceId'>,
): LabelledContent {
  const { nome, endereco } = order.recipient;
  return {
    recipient: {
      nome: nome.trim(),
      cep: endereco.cep.replace(/\D/g, ''),
      logradouro: endereco.logradouro.trim(),
      numero: endereco.numero.trim(),
      complemento: (endereco.complemento ?? '').trim(),
      cidade: endereco.cidade.trim(),
      uf: endereco.uf.trim().toUpperCase(),
    },
    items: order.items.map((item) => ({ name: item.name, sku: item.sku ?? '', quantity: item.quantity })),
    serviceId: order.serviceId ?? '',
  };
}

const FIELD_NAMES: Record<keyof LabelledContent['recipient'], string> = {
  nome: 'name',
  cep: 'CEP',
  logradouro: 'street',
  numero: 'number',
  complemento: 'complement',
  cidade: 'city',
  uf: 'UF',
};

const quoted = (value: string) => (value === '' ? '—' : value);

/** What changed from `before` to `after`, one phrase each ("CEP 20040020 → 22041001"); empty: nothing that counts. */
export function changesBetween(before: LabelledContent, after: LabelledContent): string[] {
  const changes: string[] = [];
  for (const key of Object.keys(FIELD_NAMES) as (keyof LabelledContent['recipient'])[]) {
    if (before.recipient[key] !== after.recipient[key])
      changes.push(`${FIELD_NAMES[key]} ${quoted(before.recipient[key])} → ${quoted(after.recipient[key])}`);
  }
  const was = byProduct(before.items);
  const now = byProduct(after.items);
  for (const [key, item] of was) {
    const next = now.get(key);
    if (!next) changes.push(`${item.name} removed (was ${item.quantity})`);
    else if (next.quantity !== item.quantity)
      changes.push(`${item.name} ${item.quantity} → ${next.quantity}`);
  }
  for (const [key, item] of now) if (!was.has(key)) changes.push(`${item.name} added (${item.quantity})`);
  if (before.serviceId !== after.serviceId)
    changes.push(`service ${quoted(before.serviceId)} → ${quoted(after.serviceId)}`);
  return changes;
}

/** The items by product (SKU and name), two lines of one product counted as one. */
function byProduct(items: LabelledContent['items']): Map<string, LabelledContent['items'][number]> {
  const found = new Map<string, LabelledContent['items'][number]>();
  for (const item of items) {
    const key = `${item.sku}\u0000${item.name}`;
    const seen = found.get(key);
    found.set(key, seen ? { ...seen, quantity: seen.quantity + item.quantity } : item);
  }
  return found;
}
