import { describe, expect, it } from 'vitest';
import { arrivalText } from '../../shared/promise-text.ts';
import { CALCULATOR_MESSAGES, messagesFor } from './messages.ts';

describe('messagesFor', () => {
  it.each([
    ['en', 'en'],
    ['en-US', 'en'],
    ['EN-gb', 'en'],
    ['es', 'es'],
    ['es-AR', 'es'],
    ['ES', 'es'],
    ['pt-BR', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['fr', 'pt-BR'],
    ['', 'pt-BR'],
    [null, 'pt-BR'],
    [undefined, 'pt-BR'],
  ] as const)('speaks %j as %s (anything unknown is pt-BR)', (lang, locale) => {
    const chosen = messagesFor(lang);
    expect(chosen.locale).toBe(locale);
    expect(chosen.t).toBe(CALCULATOR_MESSAGES[locale]);
  });
});

describe('the calculator words', () => {
  const pt = messagesFor('pt-BR').t;
  const en = messagesFor('en').t;
  const es = messagesFor('es').t;

  it('counts options in the singular for one and the plural otherwise', () => {
    expect([pt.options(1), pt.options(2), pt.options(0)]).toEqual([
      '1 opção de entrega',
      '2 opções de entrega',
      '0 opções de entrega',
    ]);
    expect([en.options(1), en.options(3)]).toEqual(['1 shipping option', '3 shipping options']);
    expect([es.options(1), es.options(4)]).toEqual(['1 opción de envío', '4 opciones de envío']);
  });

  it('says the deadline in business days, singular for one', () => {
    expect([pt.days(1), pt.days(6)]).toEqual(['até 1 dia útil', 'até 6 dias úteis']);
    expect([en.days(1), en.days(6)]).toEqual(['up to 1 business day', 'up to 6 business days']);
    expect([es.days(1), es.days(6)]).toEqual(['hasta 1 día hábil', 'hasta 6 días hábiles']);
  });

  it('writes the arrival date as each language does: qua., 26/11 · Wed, Nov 26 · mié., 26/11', () => {
    const one = { from: '2026-11-26', to: '2026-11-26' };
    const range = { from: '2026-12-03', to: '2026-12-05' };
    expect(arrivalText(one, 'pt-BR')).toBe('Chega até qui., 26/11');
    expect(arrivalText(range, 'pt-BR')).toBe('Chega entre 3 e 5/12');
    expect(arrivalText(one, 'en')).toBe('Arrives by Thu, Nov 26');
    expect(arrivalText(range, 'en')).toBe('Arrives Dec 3–5');
    expect(arrivalText(one, 'es')).toBe('Llega a más tardar el jue., 26/11');
    expect(arrivalText(range, 'es')).toBe('Llega entre el 3 y el 5/12');
  });

  it('names the destination state and what is missing for free shipping', () => {
    expect(pt.deliverTo('RJ')).toBe('Entrega para RJ');
    expect(en.deliverTo('RJ')).toBe('Delivery to RJ');
    expect(es.deliverTo('RJ')).toBe('Envío a RJ');
    expect(pt.missing('R$ 59,20')).toBe('Faltam R$ 59,20 para frete grátis');
    expect(en.missing('R$59.20')).toBe('R$59.20 more for free shipping');
    expect(es.missing('R$ 59,20')).toBe('Faltan R$ 59,20 para el envío gratis');
  });

  it('has every word in every language, none left empty', () => {
    for (const t of [pt, en, es]) {
      expect(Object.keys(t).sort()).toEqual(Object.keys(pt).sort());
      for (const [key, word] of Object.entries(t)) {
        if (typeof word === 'string') expect(word.length, key).toBeGreaterThan(0);
      }
    }
  });
});
