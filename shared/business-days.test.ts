import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBusinessDays,
  arrivalDate,
  businessDaysAfter,
  civilDate,
  easter,
  firstPostingDay,
  isBusinessDay,
  isHoliday,
  parseCutoff,
  saoPauloDay,
} from './business-days.ts';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const iso = (n: number) => {
  const { year, month, day: d } = civilDate(n);
  return `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};
const arrival = (
  now: string,
  deliveryDays: number,
  more: { handlingDays?: number; cutoffMinutes?: number } = {},
) => {
  const { year, month, day: d } = arrivalDate({ now: Date.parse(now), deliveryDays, ...more });
  return `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

/**
 * Every day off of 2025–2030, written out by hand from the federal calendar (not computed): the fixed national
 * holidays, Good Friday, and the days we count (Carnival Monday/Tuesday, Corpus Christi).
 */
const TABLE: Record<number, { easter: string; movable: string[] }> = {
  2025: { easter: '2025-04-20', movable: ['2025-03-03', '2025-03-04', '2025-04-18', '2025-06-19'] },
  2026: { easter: '2026-04-05', movable: ['2026-02-16', '2026-02-17', '2026-04-03', '2026-06-04'] },
  2027: { easter: '2027-03-28', movable: ['2027-02-08', '2027-02-09', '2027-03-26', '2027-05-27'] },
  2028: { easter: '2028-04-16', movable: ['2028-02-28', '2028-02-29', '2028-04-14', '2028-06-15'] },
  2029: { easter: '2029-04-01', movable: ['2029-02-12', '2029-02-13', '2029-03-30', '2029-05-31'] },
  2030: { easter: '2030-04-21', movable: ['2030-03-04', '2030-03-05', '2030-04-19', '2030-06-20'] },
};
const FIXED = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '11-20', '12-25'];

describe('Brazilian holidays 2025–2030', () => {
  for (const [year, { easter: sunday, movable }] of Object.entries(TABLE)) {
    it(`knows every day off of ${year} and no other`, () => {
      expect(iso(easter(Number(year)))).toBe(sunday);
      const expected = new Set([...FIXED.map((md) => `${year}-${md}`), ...movable]);
      const found: string[] = [];
      for (let n = day(`${year}-01-01`); n <= day(`${year}-12-31`); n++) if (isHoliday(n)) found.push(iso(n));
      expect(new Set(found)).toEqual(expected);
    });
  }

  it('counts Nov 20 only from 2024, when it became national (Lei 14.759/2023)', () => {
    expect(isHoliday(day('2023-11-20'))).toBe(false);
    expect(isHoliday(day('2024-11-20'))).toBe(true);
  });

  it('finds Easter in years far from 2025–2030, at both ends of its range (22 March – 25 April)', () => {
    const known: Record<number, string> = {
      1818: '1818-03-22',
      1900: '1900-04-15',
      1943: '1943-04-25',
      1961: '1961-04-02',
      2000: '2000-04-23',
      2008: '2008-03-23',
      2011: '2011-04-24',
      2019: '2019-04-21',
      2024: '2024-03-31',
      2038: '2038-04-25',
      2285: '2285-03-22',
    };
    for (const [year, sunday] of Object.entries(known)) expect(iso(easter(Number(year))), year).toBe(sunday);
  });

  it('keeps Ash Wednesday a business day', () => {
    expect(isBusinessDay(day('2026-02-18'))).toBe(true);
  });

  it('skips weekends and holidays when adding business days', () => {
    // Fri 2026-12-24 + 1 → Mon 28 (25 is Christmas, then the weekend)
    expect(iso(addBusinessDays(day('2026-12-24'), 1))).toBe('2026-12-28');
    // Thu 2026-04-02 + 1 → Mon 6 (Good Friday, weekend)
    expect(iso(addBusinessDays(day('2026-04-02'), 1))).toBe('2026-04-06');
    // Fri 2026-02-13 + 1 → Wed 18 (weekend, Carnival)
    expect(iso(addBusinessDays(day('2026-02-13'), 1))).toBe('2026-02-18');
    expect(iso(addBusinessDays(day('2026-11-23'), 0))).toBe('2026-11-23');
  });
});

describe('arrivalDate', () => {
  it('counts from today on a business day before the cut-off', () => {
    // Mon 2026-11-23 10:00 in São Paulo, 4 business days → Fri 27
    expect(arrival('2026-11-23T10:00:00-03:00', 4, { cutoffMinutes: 14 * 60 })).toBe('2026-11-27');
  });

  it('counts from the next business day at and after the cut-off', () => {
    expect(arrival('2026-11-23T14:00:00-03:00', 4, { cutoffMinutes: 14 * 60 })).toBe('2026-11-30');
    expect(arrival('2026-11-23T13:59:00-03:00', 4, { cutoffMinutes: 14 * 60 })).toBe('2026-11-27');
  });

  it('counts from the next business day on a weekend or holiday, cut-off or not', () => {
    // Fri 2026-11-20 is Consciência Negra: posting Mon 23, + 4 → Fri 27
    expect(arrival('2026-11-20T08:00:00-03:00', 4)).toBe('2026-11-27');
    // Sun 2026-11-22
    expect(arrival('2026-11-22T08:00:00-03:00', 4)).toBe('2026-11-27');
  });

  it('adds the handling days before the carrier days', () => {
    expect(arrival('2026-11-23T10:00:00-03:00', 4, { handlingDays: 2 })).toBe('2026-12-01');
  });

  it('crosses the year end over Christmas and New Year', () => {
    // Wed 2026-12-23 + 5: 24, 28, 29, 30, 31 → Thu 31; + 6 → Mon 2027-01-04 (Jan 1 and the weekend)
    expect(arrival('2026-12-23T10:00:00-03:00', 5)).toBe('2026-12-31');
    expect(arrival('2026-12-23T10:00:00-03:00', 6)).toBe('2027-01-04');
  });

  it('uses São Paulo time: 01:30 UTC on Tuesday is still Monday 22:30 in São Paulo', () => {
    // past a 14 h cut-off on Monday → posting Tue 24, + 1 → Wed 25
    expect(arrival('2026-11-24T01:30:00Z', 1, { cutoffMinutes: 14 * 60 })).toBe('2026-11-25');
    // the same instant, written in Tokyo's offset, is the same instant
    expect(arrival('2026-11-24T10:30:00+09:00', 1, { cutoffMinutes: 14 * 60 })).toBe('2026-11-25');
  });

  it('rounds a fractional or nonsense day count to a date never earlier than promised', () => {
    expect(arrival('2026-11-23T10:00:00-03:00', 1.2)).toBe('2026-11-25');
    expect(arrival('2026-11-23T10:00:00-03:00', -3)).toBe('2026-11-23');
    expect(arrival('2026-11-23T10:00:00-03:00', Number.NaN)).toBe('2026-11-23');
    expect(arrival('2026-11-23T10:00:00-03:00', Number.POSITIVE_INFINITY)).toBe('2026-11-23');
  });

  it('gives the same date whatever the time zone of the machine (TZ switched under the running process)', () => {
    const saved = process.env.TZ;
    const answers = new Map<string, unknown>();
    try {
      for (const zone of [
        'America/Sao_Paulo',
        'Asia/Tokyo',
        'Pacific/Kiritimati',
        'America/Los_Angeles',
        'UTC',
      ]) {
        process.env.TZ = zone;
        // the instrument: the zone really changed for this process (Node applies TZ at once)
        answers.set(`${zone} offset`, new Date(Date.UTC(2026, 10, 23, 12)).getTimezoneOffset());
        const dates = [0, 5, 13, 14, 20, 23].map((hour) =>
          arrivalDate({ now: Date.UTC(2026, 10, 23, hour + 3, 30), deliveryDays: 3, cutoffMinutes: 14 * 60 }),
        );
        answers.set(zone, dates);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
    expect(answers.get('Asia/Tokyo offset')).toBe(-540);
    expect(answers.get('America/Los_Angeles offset')).toBe(480);
    const thu = { year: 2026, month: 11, day: 26, weekday: 4 };
    const fri = { year: 2026, month: 11, day: 27, weekday: 5 };
    for (const zone of [
      'America/Sao_Paulo',
      'Asia/Tokyo',
      'Pacific/Kiritimati',
      'America/Los_Angeles',
      'UTC',
    ])
      expect(answers.get(zone), zone).toEqual([thu, thu, thu, fri, fri, fri]);
  });
});

describe('saoPauloDay', () => {
  it('is the São Paulo calendar day of an instant, with its start and end', () => {
    const monday = day('2026-11-23');
    const start = Date.parse('2026-11-23T00:00:00-03:00');
    const whole = { day: monday, start, end: start + 86_400_000 };
    expect(saoPauloDay(start)).toEqual(whole);
    expect(saoPauloDay(Date.parse('2026-11-23T23:59:59.999-03:00'))).toEqual(whole);
    // 01:00 UTC on the 24th is still the 23rd in São Paulo; 03:00 UTC is its midnight
    expect(saoPauloDay(Date.parse('2026-11-24T01:00:00Z')).day).toBe(monday);
    expect(saoPauloDay(Date.parse('2026-11-24T03:00:00Z')).day).toBe(monday + 1);
  });
});

describe('firstPostingDay', () => {
  it('is today before the cut-off, else the next business day; the next one from a weekend or a holiday', () => {
    expect(firstPostingDay(Date.parse('2026-11-23T13:59:00-03:00'), 14 * 60)).toBe(day('2026-11-23'));
    expect(firstPostingDay(Date.parse('2026-11-23T14:00:00-03:00'), 14 * 60)).toBe(day('2026-11-24'));
    expect(firstPostingDay(Date.parse('2026-11-23T23:00:00-03:00'))).toBe(day('2026-11-23'));
    // Thursday after the cut-off: Friday 20/11 is a holiday, then the weekend
    expect(firstPostingDay(Date.parse('2026-11-19T15:00:00-03:00'), 14 * 60)).toBe(day('2026-11-23'));
    expect(firstPostingDay(Date.parse('2026-11-21T09:00:00-03:00'), 14 * 60)).toBe(day('2026-11-23'));
  });
});

describe('parseCutoff', () => {
  it.each([
    ['14', 840],
    ['14h', 840],
    ['14:30', 870],
    ['14h30', 870],
    [' 9 ', 540],
    ['0', 0],
    ['24', 1440],
    ['14 h', 840],
    ['14 : 30', 870],
    ['14H', 840],
  ])('reads %s as %i minutes', (text, minutes) => {
    expect(parseCutoff(text)).toBe(minutes);
  });

  it.each(['', 'abc', '25', '14:60', '24:30', '-1', '14.5', null, '14xh', '14:3', '140', 'h14'])(
    'refuses %j',
    (text) => {
      expect(parseCutoff(text)).toBeUndefined();
    },
  );
});

describe('arrivalDate properties (any instant 2025–2030, any deadline)', () => {
  const instant = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2030, 11, 20) });
  const days = fc.integer({ min: 0, max: 30 });
  const spToday = (now: number) => Math.floor((now - 3 * 3_600_000) / 86_400_000);
  const toDay = (d: { year: number; month: number; day: number }) =>
    Date.UTC(d.year, d.month - 1, d.day) / 86_400_000;

  it('never promises fewer business days than handling + delivery, and lands on a business day', () => {
    fc.assert(
      fc.property(
        instant,
        days,
        fc.integer({ min: 0, max: 5 }),
        fc.option(fc.integer({ min: 0, max: 1440 })),
        (now, d, h, cutoff) => {
          const arrival = toDay(
            arrivalDate({
              now,
              deliveryDays: d,
              handlingDays: h,
              ...(cutoff === null ? {} : { cutoffMinutes: cutoff }),
            }),
          );
          const today = spToday(now);
          let between = 0;
          for (let n = today + 1; n <= arrival; n++) if (isBusinessDay(n)) between += 1;
          expect(between).toBeGreaterThanOrEqual(d + h);
          if (d + h > 0 || !isBusinessDay(today)) expect(isBusinessDay(arrival)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never moves earlier when the order is placed later', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 10 * 86_400_000 }), days, (now, later, d) => {
        const a = toDay(arrivalDate({ now, deliveryDays: d, cutoffMinutes: 840 }));
        const b = toDay(arrivalDate({ now: now + later, deliveryDays: d, cutoffMinutes: 840 }));
        expect(b).toBeGreaterThanOrEqual(a);
      }),
      { numRuns: 500 },
    );
  });
});

describe('businessDaysAfter', () => {
  it('counts the business days after posting up to the delivery, skipping weekends and holidays', () => {
    expect(businessDaysAfter(day('2026-11-23'), day('2026-11-25'))).toBe(2); // Mon → Wed
    expect(businessDaysAfter(day('2026-11-27'), day('2026-11-30'))).toBe(1); // Fri → Mon
    expect(businessDaysAfter(day('2026-11-19'), day('2026-11-23'))).toBe(1); // Thu → Mon, Fri 20/11 a holiday
    expect(businessDaysAfter(day('2026-11-28'), day('2026-11-30'))).toBe(1); // posted on a Saturday
    expect(businessDaysAfter(day('2026-11-25'), day('2026-11-25'))).toBe(0);
  });
});
