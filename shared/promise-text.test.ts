import { describe, expect, it } from 'vitest';
import { promiseDates, shortDate, weekdayDate } from './promise-text.ts';

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
