import { describe, expect, it } from 'vitest';
import { localeOf, negotiateLocale } from './locale.ts';

describe('localeOf', () => {
  it.each([
    ['en', 'en'],
    ['EN-gb', 'en'],
    ['es-419', 'es'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['pt_BR', 'pt-BR'],
    ['fr', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s is %s', (tag, locale) => {
    expect(localeOf(tag)).toBe(locale);
  });
});

describe('negotiateLocale', () => {
  it('takes the highest q among our languages, the first listed on a tie', () => {
    expect(negotiateLocale('fr-CA, es;q=0.8, en;q=0.5')).toBe('es');
    expect(negotiateLocale('en;q=0.4, es;q=0.9')).toBe('es');
    expect(negotiateLocale('es, en')).toBe('es');
    expect(negotiateLocale('en-US,en;q=0.9,pt-BR;q=0.8')).toBe('en');
  });

  it('refuses q=0, answers nothing for languages we do not speak, and reads * as the default', () => {
    expect(negotiateLocale('en;q=0, es;q=0.1')).toBe('es');
    expect(negotiateLocale('fr, de')).toBeUndefined();
    expect(negotiateLocale('fr, *;q=0.1')).toBe('pt-BR');
    expect(negotiateLocale(undefined)).toBeUndefined();
    expect(negotiateLocale('en;q=garbage')).toBe('en');
  });
});
