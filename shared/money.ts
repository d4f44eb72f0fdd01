const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Formats an amount in BRL for display, pt-BR by default.
 * @example formatBRL(1234.5) // 'R$ 1.234,50' (with a non-breaking space)
 */
export function formatBRL(amount: number, locale = 'pt-BR'): string {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency: 'BRL' });
    formatters.set(locale, formatter);
  }
  return formatter.format(amount);
}

/** Rounds to whole centavos, as prices are shown and charged. */
export function roundCents(amount: number): number {
  return Math.round(amount * 100) / 100;
}
