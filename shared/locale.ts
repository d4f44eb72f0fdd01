/**
 * The languages the shopper-facing parts speak (the tracking page, both widgets, the shopper's e-mails):
 * Brazilian Portuguese by default, English and Spanish on request. One home for the list and for how a language tag
 * (`?lang=`, `Accept-Language`, an order's `locale`, a widget's `lang`) picks one of them.
 */
export const LOCALES = ['pt-BR', 'en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** The locale a language tag names (`en-GB` → `en`, `es-419` → `es`, `pt`/`pt-PT` → `pt-BR`), or undefined. */
export function localeOf(tag: string | null | undefined): Locale | undefined {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'en') return 'en';
  if (primary === 'es') return 'es';
  if (primary === 'pt') return 'pt-BR';
  return undefined;
}

/**
 * The best locale for an `Accept-Language` header (RFC 9110 §12.5.4: ranges by `q`, a `q=0` range refused, `*` any),
 * or undefined when it names none of ours.
 * @example negotiateLocale('fr-CA, es;q=0.8, en;q=0.5') // 'es'
 */
export function negotiateLocale(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    const locale = range.tag === '*' ? 'pt-BR' : localeOf(range.tag);
    if (locale) return locale;
  }
  return undefined;
}
