import { describe, expect, it } from 'vitest';
import { chargeRates, laterPromise, type RuleCart } from './charged-rates.ts';
import type { Rate } from './quote.ts';
import type { Rule } from './shipping-rules.ts';

const pac: Rate = { code: 'PAC', serviceId: 'correios-pac', label: 'PAC', price: 19.9, deliveryDays: 5 };
const sedex: Rate = {
  code: 'SEDEX',
  serviceId: 'correios-sedex',
  label: 'SEDEX',
  price: 39.9,
  deliveryDays: 2,
};
const sp: RuleCart = {
  destinationCep: '01310-100',
  items: [{ quantity: 2, unitPriceBRL: 79.9, weightKg: 0.5 }],
};
const shown = (rates: Rate[], cart: RuleCart, rules: Rule[]) =>
  chargeRates(rates, cart, rules).map((rate) => [
    rate.serviceId,
    rate.price,
    rate.free,
    rate.deliveryDays,
    rate.label,
  ]);

describe('chargeRates', () => {
  it('with no rules keeps every price exactly, drops a zero without free and charges free: true zero', () => {
    expect(chargeRates([pac, sedex], sp)).toEqual([pac, sedex]);
    const odd = { ...pac, price: 19.999 };
    expect(chargeRates([odd], sp)[0]?.price).toBe(19.999);
    expect(
      chargeRates(
        [
          { ...pac, price: 0 },
          { ...sedex, price: -1 },
        ],
        sp,
      ),
    ).toEqual([]);
    expect(chargeRates([{ ...pac, price: 12, free: true }], sp)[0]).toEqual({ ...pac, price: 0, free: true });
  });

  it('applies free, fixed, markup, extra days, hide and label only where the conditions hold', () => {
    const rules: Rule[] = [
      {
        id: 'sudeste',
        when: { ufs: ['SP'], minSubtotalBRL: 150, services: ['correios-pac'] },
        then: { free: true },
      },
      { id: 'fixo-rj', when: { ufs: ['RJ'] }, then: { priceBRL: 9.9 } },
      { id: 'embalagem', when: { services: ['correios-sedex'] }, then: { markupPercent: 10, markupBRL: 3 } },
      { id: 'manuseio', then: { extraDays: 2 } },
      { id: 'nome', when: { services: ['correios-pac'] }, then: { label: 'Econômica' } },
      { id: 'sem-sedex-norte', when: { ufs: ['AM'], services: ['correios-sedex'] }, then: { hide: true } },
    ];
    expect(shown([pac, sedex], sp, rules)).toEqual([
      ['correios-pac', 0, true, 7, 'Econômica'],
      // 39.90 × 1.10 = 43.89, + 3 = 46.89
      ['correios-sedex', 46.89, undefined, 4, 'SEDEX'],
    ]);
    // R$ 149,99: one centavo under the threshold
    const under = { ...sp, items: [{ quantity: 1, unitPriceBRL: 149.99, weightKg: 0.3 }] };
    expect(shown([pac], under, rules)[0]?.slice(1, 3)).toEqual([19.9, undefined]);
    expect(shown([pac, sedex], { ...sp, destinationCep: '20040-020' }, rules)).toEqual([
      ['correios-pac', 9.9, undefined, 7, 'Econômica'],
      ['correios-sedex', 13.89, undefined, 4, 'SEDEX'],
    ]);
    expect(shown([pac, sedex], { ...sp, destinationCep: '69005-000' }, rules).map((r) => r[0])).toEqual([
      'correios-pac',
    ]);
  });

  it('rounds half-up to the centavo and makes a price brought to zero free, never a zero without free', () => {
    const half = { ...pac, price: 10.25 };
    // 10.25 × 0.5 = 5.125 → 5.13 (half-up), not 5.12 (half-even)
    expect(shown([half], sp, [{ id: 'meio', then: { markupPercent: -50 } }])[0]?.[1]).toBe(5.13);
    expect(shown([pac], sp, [{ id: 'menos', then: { markupBRL: -19.9 } }])[0]).toEqual([
      'correios-pac',
      0,
      true,
      5,
      'PAC',
    ]);
    expect(shown([pac], sp, [{ id: 'muito-menos', then: { markupBRL: -50 } }])[0]?.slice(1, 3)).toEqual([
      0,
      true,
    ]);
    expect(shown([pac], sp, [{ id: 'zero', then: { priceBRL: 0 } }])[0]?.slice(1, 3)).toEqual([0, true]);
  });

  it('keeps the platform’s free shipping whatever a price rule says, and applies the rules in their order', () => {
    const free = { ...pac, price: 15, free: true };
    expect(
      shown([free], sp, [
        { id: 'caro', then: { priceBRL: 30 } },
        { id: 'mais', then: { markupBRL: 5 } },
      ]),
    ).toEqual([['correios-pac', 0, true, 5, 'PAC']]);
    // fixed then markup: 10 + 10 % = 11; markup then fixed: 10
    const fixedFirst: Rule[] = [
      { id: 'a', then: { priceBRL: 10 } },
      { id: 'b', then: { markupPercent: 10 } },
    ];
    expect(shown([pac], sp, fixedFirst)[0]?.[1]).toBe(11);
    expect(shown([pac], sp, [...fixedFirst].reverse())[0]?.[1]).toBe(10);
    // a hide before a free: the option is gone, whatever comes after
    expect(
      shown([pac], sp, [
        { id: 'h', then: { hide: true } },
        { id: 'f', then: { free: true } },
      ]),
    ).toEqual([]);
  });

  it('matches CEP ranges at both ends, sums the weights, and SKUs only when the cart has them', () => {
    const range: Rule[] = [
      { id: 'r', when: { cepRanges: [['01310100', '01310199']] }, then: { priceBRL: 1 } },
    ];
    for (const [cep, price] of [
      ['01310100', 1],
      ['01310-199', 1],
      ['01310200', 19.9],
      ['01310099', 19.9],
    ] as const)
      expect(shown([pac], { ...sp, destinationCep: cep }, range)[0]?.[1]).toBe(price);
    const light: Rule[] = [{ id: 'l', when: { maxWeightKg: 0.9 }, then: { priceBRL: 1 } }];
    expect(
      shown([pac], { ...sp, items: [{ quantity: 3, unitPriceBRL: 1, weightKg: 0.3 }] }, light)[0]?.[1],
    ).toBe(1);
    expect(
      shown([pac], { ...sp, items: [{ quantity: 4, unitPriceBRL: 1, weightKg: 0.3 }] }, light)[0]?.[1],
    ).toBe(19.9);
    const sku: Rule[] = [{ id: 's', when: { skus: ['CANECA'] }, then: { free: true } }];
    expect(shown([pac], sp, sku)[0]?.[2]).toBeUndefined();
    expect(shown([pac], { ...sp, skus: ['CAMISA', 'CANECA'] }, sku)[0]?.[2]).toBe(true);
  });

  it('does not place a magic CEP below 01000-000 in any state', () => {
    expect(
      shown([pac], { ...sp, destinationCep: '00000-001' }, [
        { id: 'sp', when: { ufs: ['SP'] }, then: { hide: true } },
      ]),
    ).toHaveLength(1);
  });
});

describe('laterPromise', () => {
  it('moves both dates by business days over weekends and holidays, keeping the basis', () => {
    const promise = { from: '2026-12-23', to: '2026-12-24', basis: 'history' as const, parcels: 40 };
    // Christmas (Fri 25) and the weekend are skipped
    expect(laterPromise(promise, 1)).toEqual({ ...promise, from: '2026-12-24', to: '2026-12-28' });
    expect(laterPromise(promise, 0)).toBe(promise);
  });
});
