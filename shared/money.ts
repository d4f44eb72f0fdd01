/**
 * Formats an amount in BRL for display exactly as `Intl.NumberFormat(locale, {style: 'currency', currency: 'BRL'})`
 * does for pt-BR (the default) and English locales, without Intl: a browser's first Intl.NumberFormat costs 20–70 ms
 * of ICU set-up, a long task in the middle of showing the options (measured by `npm run bench`). One deliberate
 * difference: an amount that rounds to zero is never signed (Intl writes `-R$ 0,00` for -0.004).
 * @example formatBRL(1234.5) // 'R$ 1.234,50' (with a non-breaking space)
 */
export function formatBRL(amount: number, locale = 'pt-BR'): string {
  const en = locale.toLowerCase().startsWith('en');
  const cents = Math.round(Math.abs(amount) * 100);
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, en ? ',' : '.');
  const fraction = String(cents % 100).padStart(2, '0');
  const text = en ? `R$${whole}.${fraction}` : `R$\u00a0${whole},${fraction}`;
  return amount < 0 && cents > 0 ? `-${text}` : text;
}

/**
 * An amount in BRL as whole centavos, rounded half-up (R$ 10,125 → 1013): the one rounding of money, wherever a
 * price is shown, charged or declared. Binary noise is not a half: the product is read to 15 significant digits (what
 * a double holds exactly) before it is rounded, so 19.99 × 100 (1998.9999999999998) gives 1999, 1.005 × 100
 * (100.49999999999999) gives 101, the half it stands for, and R$ 1.000.000.000.000 stays exact.
 * @example centavos(19.99) // 1999
 */
export function centavos(brl: number): number {
  return Math.round(Number((brl * 100).toPrecision(15)));
}

/** Rounds to whole centavos (half-up, `centavos`), as prices are shown and charged. */
export function roundCents(amount: number): number {
  return centavos(amount) / 100;
}
