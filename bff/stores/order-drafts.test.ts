import { describe, expect, it } from 'vitest';
import { NuvemshopOrderSchema } from '../../shared/checkouts/nuvemshop.ts';
import { type ShopifyOrder, ShopifyOrderSchema } from '../../shared/checkouts/shopify.ts';
import { parseExactJson } from '../../shared/exact-json.ts';
import { NUVEMSHOP_ORDER, SHOPIFY_ORDERS_PAID } from './fixtures/example-orders.ts';
import { nuvemshopDraft, shopifyDraft } from './order-drafts.ts';

/** A paid Shopify order as its webhook carries it, the fields the kit reads. */
function shopify(change: Partial<ShopifyOrder> = {}): ShopifyOrder {
  return ShopifyOrderSchema.parse({
    id: 5001,
    admin_graphql_api_id: 'gid://shopify/Order/5001',
    name: '#1001',
    financial_status: 'paid',
    updated_at: '2026-12-01T10:00:00-03:00',
    shipping_address: {
      name: 'Ana Souza',
      address1: 'Rua da Assembleia, 10',
      city: 'Rio',
      province_code: 'RJ',
      zip: '20040-020',
    },
    line_items: [
      { name: 'Camiseta', sku: 'CAM', quantity: 3, current_quantity: 3, grams: 300, price: '59.90' },
      { name: 'Caneca', sku: 'CAN', quantity: 1, current_quantity: 1, grams: 400, price: '39.90' },
    ],
    shipping_lines: [{ code: 'correios-pac' }],
    ...change,
  });
}

describe("Shopify's example order (shopify.dev/docs/api/webhooks, orders/paid), fed verbatim", () => {
  const text = SHOPIFY_ORDERS_PAID;

  it('keeps its id above 2^53 exact, where JSON.parse would make it another order', () => {
    expect(String(JSON.parse(text).id)).toBe('820982911946154500');
    const order = ShopifyOrderSchema.parse(parseExactJson(text));
    expect(order.id).toBe('820982911946154508');
    const draft = shopifyDraft(order);
    expect(draft.externalId).toBe('gid://shopify/Order/820982911946154508');
    expect(draft.orderId).toBe('#9999');
  });

  it('reads it as Shopify means it: cancelled by the customer, two lines of one unit, a US address', () => {
    const draft = shopifyDraft(ShopifyOrderSchema.parse(parseExactJson(text)));
    expect(draft.cancelled).toEqual({ at: '2021-12-31T19:00:00-05:00', reason: 'customer' });
    expect(draft.pickup).toBeUndefined();
    expect(draft.items).toEqual([
      { name: 'IPod Nano - 8GB', sku: 'IPOD2008PINK', quantity: 1, weightGrams: 567, valor: 199 },
      { name: 'IPod Nano - 8GB', sku: 'IPOD2008PINK', quantity: 1, weightGrams: 567, valor: 199 },
    ]);
    expect(draft.recipient.endereco).toMatchObject({ cep: '40003', cidade: 'Shippington', uf: '' });
    expect(draft.serviceId).toBeUndefined();
  });
});

describe('shopifyDraft: what is left to ship', () => {
  it('ships what is left of each line after an edit or a refund, says what was ordered, and drops a line left at 0', () => {
    const draft = shopifyDraft(
      shopify({
        financial_status: 'partially_refunded',
        line_items: [
          { name: 'Camiseta', sku: 'CAM', quantity: 3, current_quantity: 1, grams: 300, price: '59.90' },
          { name: 'Caneca', sku: 'CAN', quantity: 1, current_quantity: 0, grams: 400, price: '39.90' },
          { name: 'Boné', sku: 'BON', quantity: 2, grams: 100, price: '20' },
        ],
      }),
    );
    expect(draft.items).toEqual([
      { name: 'Camiseta', sku: 'CAM', quantity: 1, ordered: 3, weightGrams: 300, valor: 59.9 },
      { name: 'Boné', sku: 'BON', quantity: 2, weightGrams: 100, valor: 20 },
    ]);
    expect(draft.cancelled).toBeUndefined();
  });

  it('calls an order with nothing left to ship off, showing what was ordered', () => {
    const draft = shopifyDraft(
      shopify({
        financial_status: 'partially_refunded',
        line_items: [
          { name: 'Camiseta', sku: 'CAM', quantity: 3, current_quantity: 0, grams: 300, price: '1' },
        ],
      }),
    );
    expect(draft.cancelled).toEqual({ at: '2026-12-01T10:00:00-03:00', reason: 'nothing_left_to_ship' });
    expect(draft.items).toEqual([{ name: 'Camiseta', sku: 'CAM', quantity: 3, weightGrams: 300, valor: 1 }]);
  });

  it('reads a cancellation, a refund and a void as called off, and a capture or a partial refund as not', () => {
    expect(
      shopifyDraft(shopify({ cancelled_at: '2026-12-02T09:00:00Z', cancel_reason: null })).cancelled,
    ).toEqual({
      at: '2026-12-02T09:00:00Z',
      reason: 'cancelled',
    });
    expect(shopifyDraft(shopify({ financial_status: 'refunded' })).cancelled).toEqual({
      at: '2026-12-01T10:00:00-03:00',
      reason: 'refunded',
    });
    expect(shopifyDraft(shopify({ financial_status: 'voided' })).cancelled?.reason).toBe('voided');
    for (const status of ['paid', 'partially_refunded', 'authorized'])
      expect(shopifyDraft(shopify({ financial_status: status })).cancelled).toBeUndefined();
  });

  it('takes an order without a shipping address as a pickup', () => {
    const pickup = shopifyDraft(
      shopify({ shipping_address: null, billing_address: { name: 'Rita Retira' } }),
    );
    expect(pickup.pickup).toBe(true);
    // The shopper is named by the billing address.
    expect(pickup.recipient.nome).toBe('Rita Retira');
    expect(shopifyDraft(shopify()).pickup).toBeUndefined();
  });
});

describe("Nuvemshop's example order (TiendaNube/api-docs resources/order.md, GET /orders/450789469), fed verbatim", () => {
  it('reads its numbers (the last "number" written, 101), its pending payment and its product', () => {
    const order = NuvemshopOrderSchema.parse(parseExactJson(NUVEMSHOP_ORDER));
    expect(order.payment_status).toBe('pending');
    const draft = nuvemshopDraft(order);
    expect(draft).toMatchObject({ orderId: '101', externalId: '450789469', source: 'nuvemshop' });
    expect(draft.cancelled).toBeUndefined();
    expect(draft.pickup).toBeUndefined();
    expect(draft.items).toEqual([{ name: 'item', quantity: 2, weightGrams: 2000, valor: 19 }]);
    expect(draft.recipient.endereco).toMatchObject({
      cep: '97475',
      logradouro: 'Evergreen Terrace',
      numero: '742',
    });
  });

  it('takes numbers written as strings (as its ?fields= example answers "number": "101") and as numbers alike', () => {
    const base = JSON.parse(NUVEMSHOP_ORDER);
    const strings = nuvemshopDraft(
      NuvemshopOrderSchema.parse({
        ...base,
        id: '450789469',
        number: '101',
        products: [{ ...base.products[0], quantity: '2', weight: '2.00' }],
      }),
    );
    expect(strings).toMatchObject({ orderId: '101', externalId: '450789469' });
    expect(strings.items).toEqual([{ name: 'item', quantity: 2, weightGrams: 2000, valor: 19 }]);
    expect(NuvemshopOrderSchema.safeParse({ ...base, products: [{ quantity: 'two' }] }).success).toBe(false);
  });

  it('reads a cancelled, refunded or voided order as called off, and a pickup as not shipped', () => {
    const base = JSON.parse(NUVEMSHOP_ORDER);
    const read = (change: object) => nuvemshopDraft(NuvemshopOrderSchema.parse({ ...base, ...change }));
    expect(
      read({ status: 'cancelled', cancel_reason: 'fraud', cancelled_at: '2026-12-03T10:00:00-03:00' })
        .cancelled,
    ).toEqual({
      at: '2026-12-03T10:00:00-03:00',
      reason: 'fraud',
    });
    expect(read({ payment_status: 'refunded' }).cancelled).toEqual({
      at: '2008-01-10T11:00:00-05:00',
      reason: 'refunded',
    });
    expect(read({ payment_status: 'voided' }).cancelled?.reason).toBe('voided');
    expect(read({ payment_status: 'paid' }).cancelled).toBeUndefined();
    expect(read({ shipping_pickup_type: 'pickup' }).pickup).toBe(true);
    expect(read({ shipping_address: null }).pickup).toBe(true);
  });
});
