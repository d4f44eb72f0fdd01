import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../shared/errors.ts';
import type { StoreOrder } from '../../shared/orders/order.ts';
import { bindingRefusal, StoreOrderBinding } from './binding.ts';

/**
 * The binding rule alone (bff/orders/binding.ts), in process: binding.test.ts and binding-oracle.test.ts state it
 * through a started BFF, the sandbox and an agent.
 */
const order = (change: Partial<StoreOrder> = {}): StoreOrder => ({
  orderId: '#1003',
  source: 'shopify',
  recipient: {
    nome: 'Ana',
    endereco: {
      cep: '01310-100',
      logradouro: 'Av. Paulista',
      numero: '1',
      bairro: 'Bela Vista',
      cidade: 'São Paulo',
      uf: 'SP',
    },
  },
  items: [{ name: 'Caneca', quantity: 1, weightGrams: 400, valor: 30 }],
  needsReview: [],
  ...change,
});

describe('a label under a store order’s number', () => {
  it('is let through to the order’s CEP, however the CEP is written', () => {
    expect(bindingRefusal(order(), '01310100')).toBeUndefined();
    expect(bindingRefusal(order(), '01310-100')).toBeUndefined();
  });

  it('is refused order_mismatch to another CEP, naming the order and never its CEP', () => {
    const refusal = bindingRefusal(order(), '20040002');
    expect(refusal).toEqual({
      reason: 'order_mismatch',
      field: 'recipient.endereco.cep',
      message: `${ERROR_MESSAGES.order_mismatch} Nothing was sent. Use order #1003's own recipient (on the desk), or another orderId for another parcel.`,
    });
    expect(refusal?.message).not.toContain('01310');
  });

  it('is refused order_mismatch when the order’s own CEP is not one, even to the same text', () => {
    const malformed = order();
    malformed.recipient.endereco.cep = '0131';
    expect(bindingRefusal(malformed, '0131')?.reason).toBe('order_mismatch');
    const empty = order();
    empty.recipient.endereco.cep = '';
    expect(bindingRefusal(empty, '')?.reason).toBe('order_mismatch');
  });

  it('is refused needs_review while the order has fields to review, naming each, the first as the field', () => {
    const refusal = bindingRefusal(
      order({
        needsReview: [
          { field: 'recipient.endereco.numero', reason: 'number_not_found' },
          { field: 'items[0].weightGrams', reason: 'no_weight' },
        ],
      }),
      '01310100',
    );
    expect(refusal).toEqual({
      reason: 'needs_review',
      field: 'recipient.endereco.numero',
      message:
        'Order #1003 has fields to review on the desk before its labels (recipient.endereco.numero, items[0].weightGrams); nothing was sent.',
    });
  });

  it('is not held by a review that comes after the label (changed or cancelled after it)', () => {
    const after = order({
      needsReview: [{ field: 'order', reason: 'changed_after_label', detail: 'items' }],
    });
    expect(bindingRefusal(after, '01310100')).toBeUndefined();
  });
});

describe('the binding over the stored orders', () => {
  it('refuses by the stored order of that exact id, and binds an id no order has to nothing', async () => {
    const asked: string[] = [];
    const binding = new StoreOrderBinding({
      get: async (orderId) => {
        asked.push(orderId);
        return orderId === '#1003' ? order() : undefined;
      },
    });
    expect((await binding.refusal('#1003', '20040002'))?.reason).toBe('order_mismatch');
    expect(await binding.refusal('#1003', '01310100')).toBeUndefined();
    expect(await binding.refusal('1003', '20040002')).toBeUndefined();
    expect(asked).toEqual(['#1003', '#1003', '1003']);
  });
});
