import { describe, expect, it } from 'vitest';
import { arrivalText, promiseDates, sameDatesNote, shortDate, weekdayDate } from './promise-text.ts';

describe('promiseDates', () => {
  it('writes one date with its weekday, in each language', () => {
    const one = { from: '2026-11-27', to: '2026-11-27' };
    expect(promiseDates(one, 'pt-BR', weekdayDate)).toBe('até sex., 27/11');
    expect(promiseDates(one, 'en', weekdayDate)).toBe('by Fri, Nov 27');
    expect(promiseDates(one, 'es', weekdayDate)).toBe('a más tardar el vie., 27/11');
  });

  it('writes a range within a month, and across months and years', () => {
    expect(promiseDates({ from: '2026-12-03', to: '2026-12-05' }, 'pt-BR', weekdayDate)).toBe(
      'entre 3 e 5/12',
    );
    expect(promiseDates({ from: '2026-11-28', to: '2026-12-02' }, 'pt-BR', weekdayDate)).toBe(
      'entre 28/11 e 2/12',
    );
    expect(promiseDates({ from: '2026-12-30', to: '2027-01-04' }, 'en', weekdayDate)).toBe('Dec 30–Jan 4');
    expect(promiseDates({ from: '2026-12-03', to: '2026-12-05' }, 'es', weekdayDate)).toBe(
      'entre el 3 y el 5/12',
    );
  });

  it('writes one date without its weekday where asked (the tracking page)', () => {
    expect(promiseDates({ from: '2026-11-27', to: '2026-11-27' }, 'pt-BR', shortDate)).toBe('até 27/11');
    expect(promiseDates({ from: '2026-11-27', to: '2026-11-27' }, 'en', shortDate)).toBe('by Nov 27');
  });

  it('takes a range whose start is not before its end for one date (the end)', () => {
    expect(promiseDates({ from: '2026-12-06', to: '2026-12-05' }, 'pt-BR', weekdayDate)).toBe(
      'até sáb., 05/12',
    );
  });

  it('writes dates without a time zone: the same words wherever it runs', () => {
    expect(weekdayDate('2027-01-01', 'pt-BR')).toBe('sex., 01/01');
    expect(shortDate('2027-01-01', 'en')).toBe('Jan 1');
  });
});

describe('arrivalText', () => {
  it('is the one wording of a promise: one date with its weekday, or a range', () => {
    const one = { from: '2026-12-16', to: '2026-12-16' };
    const range = { from: '2026-12-21', to: '2026-12-24' };
    expect([arrivalText(one, 'pt-BR'), arrivalText(range, 'pt-BR')]).toEqual([
      'Chega até qua., 16/12',
      'Chega entre 21 e 24/12',
    ]);
    expect([arrivalText(one, 'en'), arrivalText(range, 'en')]).toEqual([
      'Arrives by Wed, Dec 16',
      'Arrives Dec 21–24',
    ]);
    expect([arrivalText(one, 'es'), arrivalText(range, 'es')]).toEqual([
      'Llega a más tardar el mié., 16/12',
      'Llega entre el 21 y el 24/12',
    ]);
  });
});

describe('sameDatesNote', () => {
  const window = { from: '2026-12-17', to: '2026-12-22' };
  const pac = { label: 'PAC', price: 21.5, promise: window };
  const sedex = { label: 'SEDEX', price: 25.5, promise: { ...window } };
  const mini = { label: 'Mini Envios', price: 18, promise: { ...window } };

  it('says under the dearer option that the cheapest with the same dates costs less, in each language', () => {
    const options = [pac, sedex, mini];
    expect(sameDatesNote(sedex, options, 'pt-BR')).toBe('Mini Envios: mesmas datas por menos');
    expect(sameDatesNote(pac, options, 'en')).toBe('Mini Envios: same dates for less');
    expect(sameDatesNote(mini, options, 'es')).toBeUndefined();
  });

  it('says nothing where the dates differ by a day, the prices are equal, or a free option is the dearer one', () => {
    const later = { ...sedex, promise: { ...window, to: '2026-12-23' } };
    expect(sameDatesNote(pac, [pac, later], 'pt-BR')).toBeUndefined();
    expect(sameDatesNote(later, [pac, later], 'pt-BR')).toBeUndefined();
    expect(sameDatesNote(sedex, [sedex, { ...pac, price: 25.5 }], 'pt-BR')).toBeUndefined();
    // Free counts as what the shopper pays: nothing.
    const free = { ...sedex, free: true };
    expect(sameDatesNote(pac, [pac, free], 'pt-BR')).toBe('SEDEX: mesmas datas por menos');
    expect(sameDatesNote(free, [pac, free], 'pt-BR')).toBeUndefined();
    expect(sameDatesNote({ ...sedex, promise: undefined }, [pac, sedex], 'pt-BR')).toBeUndefined();
  });
});
