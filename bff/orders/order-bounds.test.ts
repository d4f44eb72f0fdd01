import { describe, expect, it } from 'vitest';
import { StoreOrderSchema } from '../../shared/orders/order.ts';
import { withinBounds } from './order-bounds.ts';
import type { DraftOrder } from './review.ts';

function draft(change: Partial<DraftOrder> = {}): DraftOrder {
  return {
    orderId: '#1001',
    source: 'shopify',
    externalId: 'gid://shopify/Order/1',
    serviceId: 'correios-pac',
    recipient: {
      nome: 'Ana Souza',
      email: 'ana@example.com',
      endereco: {
        cep: '20040-020',
        logradouro: 'Rua da Assembleia',
        numero: '10',
        complemento: 'sala 5',
        bairro: '',
        cidade: 'Rio de Janeiro',
        uf: 'RJ',
      },
    },
    items: [{ name: 'Camiseta', sku: 'CAM', quantity: 2, weightGrams: 300, valor: 59.9 }],
    ...change,
  };
}

const item = { name: 'Caneca', quantity: 1, weightGrams: 400, valor: 39.9 };

describe('withinBounds: a paid order is kept whatever its content, and what a label cannot take is said', () => {
  it('leaves an order within bounds as it is, with nothing to review', () => {
    const fitted = withinBounds(draft());
    expect(fitted).toEqual({ ...draft(), needsReview: [] });
    expect(StoreOrderSchema.safeParse(fitted).success).toBe(true);
  });

  it('keeps the first 50 of 51 lines and says there were 51', () => {
    const lines = Array.from({ length: 51 }, (_, i) => ({ ...item, name: `Item ${i + 1}` }));
    const fitted = withinBounds(draft({ items: lines }));
    expect(fitted.items).toHaveLength(50);
    expect(fitted.items.at(-1)?.name).toBe('Item 50');
    expect(fitted.needsReview).toEqual([
      { field: 'items', reason: 'out_of_bounds', detail: '51 lines (at most 50): the first 50 are shown' },
    ]);
    expect(StoreOrderSchema.safeParse(fitted).success).toBe(true);
    expect(withinBounds(draft({ items: lines.slice(0, 50) })).needsReview).toEqual([]);
  });

  it('says a quantity of 1000 (999 passes), a weight over 100 kg, and an item over R$ 1,000,000', () => {
    const fitted = withinBounds(
      draft({
        items: [
          { ...item, quantity: 1000 },
          { ...item, quantity: 999, weightGrams: 100_001 },
          { ...item, valor: 1_000_000.01, ordered: 2 },
          { ...item, quantity: 999, weightGrams: 100_000, valor: 1_000_000 },
        ],
      }),
    );
    expect(fitted.needsReview).toEqual([
      { field: 'items[0].quantity', reason: 'out_of_bounds', detail: '1000 (at most 999)' },
      { field: 'items[1].weightGrams', reason: 'out_of_bounds', detail: '100001 g (at most 100000)' },
      { field: 'items[2].valor', reason: 'out_of_bounds', detail: 'R$ 1000000.01 (at most R$ 1000000)' },
    ]);
    expect(fitted.items).toEqual([
      { name: 'Caneca', quantity: 999, weightGrams: 400, valor: 39.9 },
      { name: 'Caneca', quantity: 999, valor: 39.9 },
      { name: 'Caneca', quantity: 1, ordered: 2, weightGrams: 400, valor: 1_000_000 },
      { name: 'Caneca', quantity: 999, weightGrams: 100_000, valor: 1_000_000 },
    ]);
    expect(StoreOrderSchema.safeParse(fitted).success).toBe(true);
  });

  it('says a field one character too long, for each field a label prints (the bound itself passes)', () => {
    const long = (n: number) => 'x'.repeat(n);
    const fitted = withinBounds(
      draft({
        orderId: long(161),
        serviceId: long(61),
        recipient: {
          nome: long(201),
          cpfCnpj: long(21),
          telefone: long(41),
          email: long(201),
          endereco: {
            cep: '20040-020',
            logradouro: long(201),
            numero: long(41),
            complemento: long(201),
            bairro: long(121),
            cidade: long(121),
            uf: long(3),
          },
        },
        items: [{ ...item, name: long(201), sku: long(101) }],
        rawAddress: long(501),
      }),
    );
    const said = Object.fromEntries((fitted.needsReview ?? []).map((r) => [r.field, r.detail]));
    expect(said).toEqual({
      orderId: '161 characters (at most 160)',
      serviceId: '61 characters (at most 60)',
      'recipient.nome': '201 characters (at most 200)',
      'recipient.cpfCnpj': '21 characters (at most 20)',
      'recipient.telefone': '41 characters (at most 40)',
      'recipient.email': '201 characters (at most 200)',
      'recipient.endereco.logradouro': '201 characters (at most 200)',
      'recipient.endereco.numero': '41 characters (at most 40)',
      'recipient.endereco.complemento': '201 characters (at most 200)',
      'recipient.endereco.bairro': '121 characters (at most 120)',
      'recipient.endereco.cidade': '121 characters (at most 120)',
      'recipient.endereco.uf': '3 characters (at most 2)',
    });
    expect((fitted.needsReview ?? []).every((r) => r.reason === 'out_of_bounds')).toBe(true);
    expect(fitted.rawAddress).toHaveLength(500);
    // A product's name and SKU only describe it: cut to fit, never a review.
    expect(fitted.items[0]?.name).toHaveLength(200);
    expect(fitted.items[0]?.sku).toHaveLength(100);
    expect(StoreOrderSchema.safeParse(fitted).success).toBe(true);
    const exact = withinBounds(
      draft({ orderId: long(160), recipient: { ...draft().recipient, nome: long(200) } }),
    );
    expect(exact.needsReview).toEqual([]);
  });

  it('empties a CEP longer than a CEP and says what came, never cutting it into another CEP', () => {
    const fitted = withinBounds(
      draft({
        recipient: { ...draft().recipient, endereco: { ...draft().recipient.endereco, cep: '20040-0201' } },
      }),
    );
    expect(fitted.recipient.endereco.cep).toBe('');
    expect(fitted.needsReview).toEqual([
      { field: 'recipient.endereco.cep', reason: 'malformed', detail: '20040-0201' },
    ]);
  });

  it('keeps what the source itself flagged, first', () => {
    const own = {
      field: 'recipient.endereco.numero',
      reason: 'number_not_found' as const,
      detail: 'Rua X 10',
    };
    const fitted = withinBounds(draft({ needsReview: [own], items: [{ ...item, quantity: 1000 }] }));
    expect(fitted.needsReview).toEqual([
      own,
      { field: 'items[0].quantity', reason: 'out_of_bounds', detail: '1000 (at most 999)' },
    ]);
  });
});
