import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../shared/locale.ts';
import { PARCEL_STATUSES } from '../../shared/parcel-status.ts';
import { EMAIL_TEXTS } from './email-texts.ts';

/**
 * Every sentence of the shopper's e-mail is written in every language: none is blank, each names what it is given (the
 * order, the unit, the date), none prints `undefined` when a value is absent, and no two statuses read alike.
 */
const ORDER = 'pedido PED-77';
const UNIT = 'AC Centro, São Paulo/SP';
const DATE = 'sex., 04/12';

describe.each(LOCALES)('EMAIL_TEXTS[%s]', (locale) => {
  const t = EMAIL_TEXTS[locale];

  it('says each status in its own headline, naming the order', () => {
    const headlines = PARCEL_STATUSES.map((status) => t.headline[status](ORDER));
    for (const line of headlines) expect(line).toMatch(/\S+ pedido PED-77|pedido PED-77 \S+/);
    expect(new Set(headlines).size).toBe(PARCEL_STATUSES.length);
    for (const line of [t.stalled(ORDER), t.atRisk(ORDER), t.pickupReminder(ORDER)]) {
      expect(line).toContain(ORDER);
      expect(line.length).toBeGreaterThan(ORDER.length + 5);
      expect(headlines).not.toContain(line);
    }
  });

  it('says what to do next for each status, in a sentence of its own', () => {
    const next = PARCEL_STATUSES.map((status) => t.next[status]());
    for (const line of next) {
      expect(line.length).toBeGreaterThan(10);
      expect(line).not.toContain('undefined');
    }
    expect(new Set(next).size).toBe(PARCEL_STATUSES.length);
    expect(t.stalledNext.length).toBeGreaterThan(10);
    expect(next).not.toContain(t.stalledNext);
  });

  it('names the unit to pick a parcel up at when the carrier gives one, and a generic unit otherwise', () => {
    const at = t.next['awaiting-pickup'](UNIT);
    const generic = t.next['awaiting-pickup']();
    expect(at).toContain(UNIT);
    expect(generic).not.toContain('undefined');
    expect(generic).not.toBe(at);
    expect(generic.length).toBeGreaterThan(20);
    for (const status of PARCEL_STATUSES.filter((s) => s !== 'awaiting-pickup'))
      expect(t.next[status](UNIT)).not.toContain(UNIT);
  });

  it('gives the last day to pick up, with the unit or without', () => {
    const at = t.pickupBy(DATE, UNIT);
    const generic = t.pickupBy(DATE);
    expect(at).toContain(DATE);
    expect(at).toContain(UNIT);
    expect(generic).toContain(DATE);
    expect(generic).not.toContain('undefined');
    expect(generic.length).toBeGreaterThan(DATE.length + 20);
  });

  it('repeats the promised dates of a parcel at risk', () => {
    expect(t.atRiskNext('até qua., 26/11')).toContain('até qua., 26/11');
    expect(t.atRiskNext('x').length).toBeGreaterThan(20);
  });

  it('greets by first name, or without one', () => {
    expect(t.greeting('Maria')).toContain('Maria');
    expect(t.greeting()).not.toContain('undefined');
    expect(t.greeting().length).toBeGreaterThan(2);
    expect(t.greeting()).not.toBe(t.greeting('Maria'));
  });

  it('names the order, the store and every label of the e-mail', () => {
    expect(t.order('PED-77')).toMatch(/\S+ PED-77/);
    expect(t.footer('Loja Demo')).toContain('Loja Demo');
    expect(t.footer('x').length).toBeGreaterThan(20);
    const words = [t.anOrder, t.promised, t.lastEvent, t.code, t.button, t.linkNote, t.theStore];
    for (const word of words) expect(word.length).toBeGreaterThan(4);
    expect(new Set(words).size).toBe(words.length);
  });
});

describe.each(LOCALES)('EMAIL_TEXTS[%s], written out', (locale) => {
  const t = EMAIL_TEXTS[locale];
  const sentences = [
    ...PARCEL_STATUSES.flatMap((status) => [t.next[status](), t.next[status](UNIT)]),
    t.pickupBy(DATE),
    t.pickupBy(DATE, UNIT),
    t.atRiskNext('até qua., 26/11'),
  ];

  it('starts and ends every sentence with a word, never a space, and never puts two spaces in a row', () => {
    for (const sentence of sentences) {
      expect(sentence).toMatch(/^\S.*\S$/);
      expect(sentence).not.toMatch(/ {2}/);
    }
  });
});

it('speaks each language in its own words', () => {
  const [pt, en, es] = LOCALES.map((locale) => EMAIL_TEXTS[locale]);
  expect(new Set([pt?.code, en?.code, es?.code]).size).toBe(3);
  expect(new Set([pt?.greeting(), en?.greeting(), es?.greeting()]).size).toBe(3);
});
