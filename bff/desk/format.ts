import type { Locale } from '../../shared/locale.ts';
import { formatBRL } from '../../shared/money.ts';

/**
 * How the desk writes numbers, weights, sizes, prices and times in each of its languages: the same functions on the
 * pages the BFF renders and in the desk's script. Times are São Paulo's, the merchant's clock (the pages say so).
 */
export function formatNumber(value: number, lang: Locale, maximumFractionDigits = 2): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits }).format(value);
}

/** `800 g`, `1,2 kg` (pt-BR, es), `1.2 kg` (en). */
export function formatWeight(grams: number, lang: Locale): string {
  return grams < 1000 ? `${formatNumber(grams, lang, 0)} g` : `${formatNumber(grams / 1000, lang, 3)} kg`;
}

/** `30 × 20 × 15 cm` (length, width, height). */
export function formatDimensions(
  dimensions: { comprimento: number; largura: number; altura: number },
  lang: Locale,
): string {
  const { comprimento, largura, altura } = dimensions;
  return `${[comprimento, largura, altura].map((side) => formatNumber(side, lang, 1)).join(' × ')} cm`;
}

/** `R$ 45,20` (pt-BR, es) or `R$45.20` (en), as the calculator writes prices. */
export function formatMoney(amount: number, lang: Locale): string {
  return formatBRL(amount, lang === 'en' ? 'en' : 'pt-BR');
}

/** A moment as São Paulo's date and time, e.g. `22/11/2026 14:05` (with `seconds`, `14:05:09`). */
export function formatWhen(at: string | number, lang: Locale, seconds = false): string {
  return new Intl.DateTimeFormat(lang, {
    dateStyle: 'short',
    timeStyle: seconds ? 'medium' : 'short',
    timeZone: 'America/Sao_Paulo',
  }).format(new Date(at));
}
