import { chargeRates } from '../shared/charged-rates.ts';
import type { QuoteItem, Rate } from '../shared/quote.ts';
import { seededRandom } from '../shared/seeded-random.ts';
import type { Rule } from '../shared/shipping-rules.ts';
import { type Figure, median, round } from './stats.ts';

const SERVICES = ['correios-pac', 'correios-sedex', 'correios-mini', 'jadlog-package'];
const UFS = ['SP', 'RJ', 'MG', 'BA', 'PR', 'RS', 'SC', 'PE', 'CE', 'AM'] as const;
const CEPS = ['01310100', '20040020', '30130010', '40020000', '80010000', '90010000', '88010000', '69005000'];

/** A merchant's table of `count` rules, every kind of condition and effect, drawn from a seed. */
function ruleTable(random: () => number, count: number): Rule[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const effects: Rule['then'][] = [
    { free: true },
    { priceBRL: 9.9 },
    { markupPercent: 10, markupBRL: 3 },
    { extraDays: 2 },
    { hide: true },
    { label: 'Entrega econômica' },
  ];
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    when: {
      ufs: [pick(UFS), pick(UFS)],
      cepRanges: [['01000000', '39999999']],
      minSubtotalBRL: Math.floor(random() * 300),
      maxWeightKg: 1 + Math.floor(random() * 30),
      services: [pick(SERVICES)],
    },
    then: pick(effects),
  }));
}

/**
 * Figure 15: what the merchant's shipping rules cost a quote, in the BFF and in the shopper's browser alike (one
 * evaluator, shared/charged-rates.ts): 10,000 seeded quotes (4 rates, 1 to 5 cart lines) through a table of 100 rules
 * (the most a merchant may write), against the same quotes with no rules. The goal: under 50 µs per quote at 100
 * rules, nothing beside a quote's round trip to the platform (tens of milliseconds).
 */
export async function measureRules(quotes = 10_000, repetitions = 7): Promise<Figure> {
  const random = seededRandom(20_261_206);
  const table = ruleTable(random, 100);
  const carts = Array.from({ length: quotes }, () => {
    const lines = 1 + Math.floor(random() * 5);
    const items: QuoteItem[] = Array.from({ length: lines }, () => ({
      name: 'item',
      quantity: 1 + Math.floor(random() * 3),
      unitPriceBRL: Math.round(random() * 30_000) / 100,
      weightKg: Math.round(50 + random() * 4_000) / 1000,
    }));
    const rates: Rate[] = SERVICES.map((serviceId, i) => ({
      code: serviceId,
      serviceId,
      label: serviceId,
      price: Math.round(1_500 + random() * 6_000) / 100,
      deliveryDays: 2 + i,
    }));
    return { destinationCep: CEPS[Math.floor(random() * CEPS.length)] ?? '01310100', items, rates };
  });
  const microsPerQuote = (rules: readonly Rule[]) => {
    const started = performance.now();
    let kept = 0;
    for (const cart of carts) kept += chargeRates(cart.rates, cart, rules).length;
    const elapsed = performance.now() - started;
    if (kept < 0) throw new Error('unreachable');
    return (elapsed * 1000) / quotes;
  };
  const withRules: number[] = [];
  const without: number[] = [];
  // warm-up, then alternate the two so the machine's load falls on both alike
  microsPerQuote(table);
  microsPerQuote([]);
  for (let i = 0; i < repetitions; i++) {
    withRules.push(microsPerQuote(table));
    without.push(microsPerQuote([]));
  }
  const ruled = median(withRules);
  const plain = median(without);
  return {
    id: 15,
    figure: `shipping rules per quote: ${quotes} seeded quotes (4 rates) through 100 rules, in the one evaluator the calculator and the BFF run`,
    value: `${round(ruled)} µs per quote with 100 rules`,
    comparedWith: `${round(plain)} µs with no rules (the free-shipping rule alone)`,
    goal: '≤ 50 µs per quote at 100 rules',
    met: ruled <= 50,
    data: { quotes, repetitions, withRules, without },
  };
}
