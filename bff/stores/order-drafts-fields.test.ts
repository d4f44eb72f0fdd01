import { describe, expect, it } from 'vitest';
import { NuvemshopOrderSchema } from '../../shared/checkouts/nuvemshop.ts';
import { type ShopifyOrder, ShopifyOrderSchema } from '../../shared/checkouts/shopify.ts';
import { NUVEMSHOP_ORDER } from './fixtures/example-orders.ts';
import { nuvemshopDraft, shopifyDraft } from './order-drafts.ts';

// Every field of the desk's order as each platform's order gives it, whole (toEqual): a field the drafts drop, rename,
// default or trim differently fails here (the mutation run of bff/stores found these unstated).

const shopify = (change: Record<string, unknown> = {}): ShopifyOrder =>
  ShopifyOrderSchema.parse({
    id: 5001,
    admin_graphql_api_id: 'gid://shopify/Order/5001',
    name: '#1001',
    email: '  ana@example.com ',
    phone: '+55 21 99999-0000',
    financial_status: 'paid',
    updated_at: '2026-12-01T10:00:00-03:00',
    shipping_address: {
      name: ' Ana Souza ',
      address1: 'Rua da Assembleia, 10, sala 5',
      address2: 'fundos',
      city: ' Rio de Janeiro ',
      province_code: 'RJ',
      zip: '20040-020',
      phone: '21 3333-4444',
    },
    line_items: [
      { name: 'Camiseta', sku: 'CAM', quantity: 3, current_quantity: 3, grams: 300.4, price: '59.90' },
      { title: 'Caneca', quantity: 1, current_quantity: 1, price: '39.90' },
      { name: 'Gift card', quantity: 1, requires_shipping: false, price: '50.00' },
    ],
    shipping_lines: [{ code: 'correios-pac' }],
    ...change,
  });

describe('a Shopify order, every field of its draft', () => {
  it('maps the order whole: recipient split, contact, items (unshipped lines left out), service', () => {
    expect(shopifyDraft(shopify())).toEqual({
      orderId: '#1001',
      source: 'shopify',
      externalId: 'gid://shopify/Order/5001',
      serviceId: 'correios-pac',
      recipient: {
        nome: 'Ana Souza',
        telefone: '21 3333-4444',
        email: 'ana@example.com',
        endereco: {
          cep: '20040-020',
          logradouro: 'Rua da Assembleia',
          numero: '10',
          complemento: 'sala 5 — fundos',
          bairro: '',
          cidade: 'Rio de Janeiro',
          uf: 'RJ',
        },
      },
      items: [
        { name: 'Camiseta', sku: 'CAM', quantity: 3, weightGrams: 300, valor: 59.9 },
        { name: 'Caneca', quantity: 1, valor: 39.9 },
      ],
      needsReview: [],
      rawAddress: 'Rua da Assembleia, 10, sala 5 | fundos',
    });
  });

  it('names the shopper from first and last names, the phone from the order, the id from the numeric id', () => {
    const draft = shopifyDraft(
      shopify({
        admin_graphql_api_id: undefined,
        shipping_lines: [],
        shipping_address: {
          first_name: 'Ana',
          last_name: 'Souza',
          address1: 'Rua da Assembleia, 10',
          city: 'Rio',
          province: 'Rio de Janeiro',
          zip: '20040-020',
        },
      }),
    );
    expect(draft.externalId).toBe('gid://shopify/Order/5001');
    expect(draft.serviceId).toBeUndefined();
    expect('serviceId' in draft).toBe(false);
    expect(draft.recipient.nome).toBe('Ana Souza');
    expect(draft.recipient.telefone).toBe('+55 21 99999-0000');
    expect(draft.recipient.endereco.uf).toBe('RJ');
    expect('complemento' in draft.recipient.endereco).toBe(false);
    expect(draft.rawAddress).toBe('Rua da Assembleia, 10');
    // a name of first name only has no trailing space
    const first = shopifyDraft(
      shopify({ shipping_address: { first_name: 'Ana', address1: 'Rua A, 1', zip: '20040-020' } }),
    );
    expect(first.recipient.nome).toBe('Ana');
  });

  it('leaves no email or phone key when the order has none', () => {
    const draft = shopifyDraft(
      shopify({
        email: '  ',
        phone: null,
        shipping_address: { name: 'Ana', address1: 'Rua A, 1', zip: '20040-020' },
      }),
    );
    expect(Object.keys(draft.recipient).sort()).toEqual(['endereco', 'nome']);
  });

  it('sends a street line without a number to review, naming the line, and keeps it whole', () => {
    const draft = shopifyDraft(
      shopify({ shipping_address: { name: 'Ana', address1: 'Rua sem número', zip: '20040-020' } }),
    );
    expect(draft.needsReview).toEqual([
      { field: 'recipient.endereco.numero', reason: 'number_not_found', detail: 'Rua sem número' },
    ]);
    expect(draft.recipient.endereco).toMatchObject({ logradouro: 'Rua sem número', numero: '' });
    // no street line at all is not a number to find (the CEP's checks name it)
    const none = shopifyDraft(shopify({ shipping_address: { name: 'Ana', zip: '20040-020' } }));
    expect(none.needsReview).toEqual([]);
  });

  it('names an item by its name, else title, else SKU, else "item"', () => {
    const names = shopifyDraft(
      shopify({
        line_items: [
          { name: ' ', title: 'Título', quantity: 1, price: '1' },
          { sku: 'SKU-9', quantity: 1, price: '1' },
          { quantity: 1, price: '1' },
        ],
      }),
    ).items.map((item) => item.name);
    expect(names).toEqual(['Título', 'SKU-9', 'item']);
  });

  it('says "cancelled" when the cancellation names no reason, and cuts a long reason at 60 characters', () => {
    const plain = shopifyDraft(shopify({ cancelled_at: '2026-12-02T09:00:00-03:00' }));
    expect(plain.cancelled).toEqual({ at: '2026-12-02T09:00:00-03:00', reason: 'cancelled' });
    const long = shopifyDraft(
      shopify({ cancelled_at: '2026-12-02T09:00:00-03:00', cancel_reason: 'x'.repeat(80) }),
    );
    expect(long.cancelled?.reason).toBe('x'.repeat(60));
    // a refund is dated by the order's last update
    expect(shopifyDraft(shopify({ financial_status: 'refunded' })).cancelled).toEqual({
      at: '2026-12-01T10:00:00-03:00',
      reason: 'refunded',
    });
  });

  it('ships what is left, not more than ordered, and never a negative price', () => {
    const draft = shopifyDraft(
      shopify({
        line_items: [
          { name: 'A', quantity: 3, current_quantity: 1, price: '-5' },
          { name: 'B', quantity: 2, current_quantity: 2, price: 'abc' },
          { name: 'C', quantity: 2, current_quantity: 0, price: '1' },
        ],
      }),
    );
    expect(draft.items).toEqual([
      { name: 'A', quantity: 1, ordered: 3, valor: 0 },
      { name: 'B', quantity: 2, valor: 0 },
    ]);
    expect(draft.cancelled).toBeUndefined();
  });
  it('calls off only an order that had something to ship and has nothing left, keeping a cancellation its reason', () => {
    const only = (line_items: unknown[]) => shopifyDraft(shopify({ line_items })).cancelled;
    // nothing to ship from the start (a gift card, a line of 0) is not "nothing left"
    expect(only([{ name: 'Gift card', quantity: 1, requires_shipping: false, price: '50' }])).toBeUndefined();
    expect(only([{ name: 'Zero', quantity: 0, current_quantity: 0, price: '1' }])).toBeUndefined();
    // a cancelled order whose lines were all refunded keeps the store's reason
    const cancelled = shopifyDraft(
      shopify({
        cancelled_at: '2026-12-02T09:00:00-03:00',
        cancel_reason: 'customer',
        line_items: [{ name: 'A', quantity: 2, current_quantity: 0, price: '1' }],
      }),
    );
    expect(cancelled.cancelled).toEqual({ at: '2026-12-02T09:00:00-03:00', reason: 'customer' });
    expect(cancelled.items).toEqual([{ name: 'A', quantity: 2, valor: 1 }]);
  });

  it('reads an order without shipping lines as one with no service chosen', () => {
    const order = shopify();
    delete (order as { shipping_lines?: unknown }).shipping_lines;
    expect('serviceId' in shopifyDraft(order)).toBe(false);
  });
});

describe('a Nuvemshop order, every field of its draft', () => {
  const base = JSON.parse(NUVEMSHOP_ORDER);
  const read = (change: Record<string, unknown>) =>
    nuvemshopDraft(NuvemshopOrderSchema.parse({ ...base, ...change }));
  const address = {
    name: ' Ana Souza ',
    address: 'Rua Augusta',
    number: '1500',
    floor: 'apto 12',
    locality: 'Consolação',
    city: 'São Paulo',
    province: 'São Paulo',
    zipcode: '01304-001',
    phone: '11 98888-7777',
  };

  it('maps the order whole: the address as it comes split, the tax id, contact, sizes in cm, weight in kg', () => {
    const draft = read({
      number: 205,
      id: 9001,
      shipping_option_code: 'correios-sedex',
      contact_identification: '123.456.789-09',
      contact_email: ' ana@example.com ',
      shipping_address: address,
      products: [
        {
          name: 'Livro',
          sku: 'LIV',
          quantity: 2,
          weight: '0.35',
          price: '45.50',
          depth: 20,
          width: 14,
          height: '3',
        },
      ],
    });
    expect(draft).toEqual({
      orderId: '205',
      source: 'nuvemshop',
      externalId: '9001',
      serviceId: 'correios-sedex',
      recipient: {
        nome: 'Ana Souza',
        cpfCnpj: '12345678909',
        telefone: '11 98888-7777',
        email: 'ana@example.com',
        endereco: {
          cep: '01304-001',
          logradouro: 'Rua Augusta',
          numero: '1500',
          complemento: 'apto 12',
          bairro: 'Consolação',
          cidade: 'São Paulo',
          uf: 'SP',
        },
      },
      items: [
        {
          name: 'Livro',
          sku: 'LIV',
          quantity: 2,
          weightGrams: 350,
          dimensions: { comprimento: 20, largura: 14, altura: 3 },
          valor: 45.5,
        },
      ],
    });
  });

  it('keeps a CPF (11 digits) or a CNPJ (14), and nothing else as a tax id', () => {
    const taxId = (value: string) =>
      read({ contact_identification: value, shipping_address: address }).recipient.cpfCnpj;
    expect(taxId('12.345.678/0001-95')).toBe('12345678000195');
    expect(taxId('12345678909')).toBe('12345678909');
    for (const wrong of ['1234567890', '123456789012', '1234567890123', '123456789012345', '', 'abc'])
      expect(taxId(wrong)).toBeUndefined();
    expect('cpfCnpj' in read({ contact_identification: 'x', shipping_address: address }).recipient).toBe(
      false,
    );
  });

  it('takes sizes only when all three are between 1 and 200 cm', () => {
    const sizes = (depth: unknown, width: unknown, height: unknown) =>
      read({
        products: [{ name: 'P', quantity: 1, price: '1', depth, width, height }],
        shipping_address: address,
      }).items[0]?.dimensions;
    expect(sizes(200, 200, 200)).toEqual({ comprimento: 200, largura: 200, altura: 200 });
    expect(sizes(1, 1, 1)).toEqual({ comprimento: 1, largura: 1, altura: 1 });
    expect(sizes(201, 10, 10)).toBeUndefined();
    expect(sizes(10, 0, 10)).toBeUndefined();
    expect(sizes(10, 10, undefined)).toBeUndefined();
  });

  it('falls back to the contact phone, names an item by SKU, drops lines of no whole quantity', () => {
    const draft = read({
      contact_phone: '11 2222-3333',
      shipping_address: { ...address, phone: '' },
      products: [
        { sku: 'ONLY-SKU', quantity: 1, price: '1' },
        { name: 'Half', quantity: 1.5, price: '1' },
        { name: 'None', quantity: 0, price: '1' },
        { name: 'Free', quantity: 1, price: '-2', weight: '0' },
      ],
    });
    expect(draft.recipient.telefone).toBe('11 2222-3333');
    expect(draft.items).toEqual([
      { name: 'ONLY-SKU', sku: 'ONLY-SKU', quantity: 1, valor: 1 },
      { name: 'Free', quantity: 1, valor: 0 },
    ]);
    expect('complemento' in read({ shipping_address: { ...address, floor: ' ' } }).recipient.endereco).toBe(
      false,
    );
  });

  it('says "cancelled" when the cancellation names no reason, dated by the update when it has no date', () => {
    expect(read({ status: 'cancelled', cancel_reason: null, cancelled_at: null }).cancelled).toEqual({
      at: '2008-01-10T11:00:00-05:00',
      reason: 'cancelled',
    });
    expect(read({ status: 'cancelled', cancel_reason: 'y'.repeat(90) }).cancelled?.reason).toBe(
      'y'.repeat(60),
    );
  });
});
