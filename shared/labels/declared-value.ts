import { centavos } from '../money.ts';
import type { DeclaredItem } from './party.ts';

/**
 * The declared value of a content declaration, in whole centavos: the one computation of it. The plausibility rules
 * (the service's maximum), the agents' policies (approval threshold, declared value per day), the approvals, the
 * ledger and the issuer all read this number, so a limit is checked against the very total the label declares.
 *
 * `valor` is a unit value in BRL (spec 2.6), money, so it has at most two decimal places: the plausibility rules
 * refuse any other (`invalid_declared_item`, docs/agents/labels.md, "One declared value"), and only then is a total
 * computed. Without that rule, R$ 0,005 × 9,999 is R$ 99,99 rounded per unit and R$ 50,00 rounded on the total: two
 * honest roundings, and a limit checked against one number while the other is counted.
 */

/**
 * How far from a whole number of centavos a value may be and still be one: binary noise, not a third decimal.
 * 19.99 × 100 is 1998.9999999999998; 0.1 + 0.2 is 0.30000000000000004. A third decimal is ≥ 0.1 centavo away.
 * The relative part keeps a genuine two-decimal figure of billions (far over every carrier maximum) from being
 * refused as "more than 2 decimals" instead of "over the maximum".
 */
const NOISE_CENTAVOS = 1e-9;
const NOISE_RELATIVE = 1e-12;

/**
 * Whether an amount in BRL is a whole number of centavos (at most two decimal places), as a JSON number states it:
 * true for 19.99, 0.07, 1234.56 and 0.1 + 0.2; false for 0.005, 19.999, 0.0001, NaN and ±Infinity.
 * @example isWholeCentavos(0.07) // true
 * @example isWholeCentavos(0.005) // false
 */
export function isWholeCentavos(brl: number): boolean {
  if (!Number.isFinite(brl)) return false;
  const scaled = brl * 100;
  return Math.abs(scaled - Math.round(scaled)) <= NOISE_CENTAVOS + Math.abs(scaled) * NOISE_RELATIVE;
}

/**
 * Σ quantidade × valor of a content declaration, in centavos: each unit value in whole centavos times its quantity.
 * Exact for what the plausibility rules let through (whole-centavo unit values); a row stored before that rule, with
 * a third decimal, counts each unit value rounded to the centavo.
 * @example declaredValueCents([{ quantidade: 3, valor: 19.99 }]) // 5997
 */
export function declaredValueCents(items: readonly Pick<DeclaredItem, 'quantidade' | 'valor'>[]): number {
  let total = 0;
  for (const { quantidade, valor } of items) total += quantidade * centavos(valor);
  return total;
}
