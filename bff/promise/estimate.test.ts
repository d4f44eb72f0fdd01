import { describe, expect, it } from 'vitest';
import { addBusinessDays } from '../../shared/business-days.ts';
import { type Lane, laneOf } from '../../shared/lanes.ts';
import { seededRandom } from '../../shared/seeded-random.ts';
import { type DeliveredParcel, estimateLane, type OpenParcel } from './estimate.ts';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const lane = (cep: string): Lane => {
  const found = laneOf(cep);
  if (!found) throw new Error(cep);
  return found;
};
const CAMPINAS = lane('13035-680'); // SP interior, prefix 130
const SOROCABA = lane('18035-000'); // SP interior, prefix 180
const SAO_PAULO = lane('01310-100'); // SP capital
const RIO = lane('20040-020'); // RJ capital
const options = { quantile: 0.95, minParcels: 30, today: day('2026-11-27') };

/** `n` parcels to `to`, each taking `days` (a function of its index), delivered on consecutive days before today. */
function parcels(
  to: Lane,
  n: number,
  days: (i: number) => number,
  endedDay = options.today,
): DeliveredParcel[] {
  return Array.from({ length: n }, (_, i) => ({
    ...to,
    days: days(i),
    platformDays: 0,
    endedDay: endedDay - (i % 60),
  }));
}

describe('estimateLane', () => {
  it('rests on recent parcels only: a lane whose parcels are older than 90 days backs off, or gives up', () => {
    const old = parcels(CAMPINAS, 40, () => 3, options.today - 100);
    expect(estimateLane(CAMPINAS, old, [], options)).toBeUndefined();
    const wider = [...old, ...parcels(SOROCABA, 40, () => 5)];
    expect(estimateLane(CAMPINAS, wider, [], options)).toMatchObject({
      level: 'area',
      toOffset: 5,
      parcels: 40,
    });
  });

  it('rests on the CEP prefix when it has enough parcels', () => {
    const history = [...parcels(CAMPINAS, 60, () => 3), ...parcels(SOROCABA, 60, () => 8)];
    expect(estimateLane(CAMPINAS, history, [], options)).toEqual({
      level: 'prefix',
      fromOffset: 3,
      toOffset: 3,
      parcels: 60,
    });
  });

  it('backs off from the prefix to capital/interior, to the state, to the region, and then gives up', () => {
    const interior = [...parcels(CAMPINAS, 20, () => 3), ...parcels(SOROCABA, 20, () => 5)];
    expect(estimateLane(CAMPINAS, interior, [], options)).toMatchObject({ level: 'area', parcels: 40 });
    const state = [...parcels(CAMPINAS, 10, () => 3), ...parcels(SAO_PAULO, 25, () => 2)];
    expect(estimateLane(CAMPINAS, state, [], options)).toMatchObject({ level: 'uf', parcels: 35 });
    const region = [...parcels(CAMPINAS, 10, () => 3), ...parcels(RIO, 25, () => 4)];
    expect(estimateLane(CAMPINAS, region, [], options)).toMatchObject({ level: 'region', parcels: 35 });
    const thin = parcels(CAMPINAS, 29, () => 3);
    expect(estimateLane(CAMPINAS, thin, [], options)).toBeUndefined();
    expect(estimateLane(lane('69005-000'), region, [], options)).toBeUndefined(); // Manaus: another region
  });

  it('gives a range where the lane’s parcels spread, one date where they do not', () => {
    const spread = parcels(CAMPINAS, 100, (i) => 2 + (i % 5)); // 2…6 days
    const wide = estimateLane(CAMPINAS, spread, [], options);
    expect(wide?.fromOffset).toBe(2);
    expect(wide?.toOffset).toBe(6);
    const narrow = parcels(CAMPINAS, 100, (i) => 3 + (i % 2)); // 3 or 4 days
    expect(estimateLane(CAMPINAS, narrow, [], options)).toMatchObject({ fromOffset: 4, toOffset: 4 });
  });

  it('is never later than the platform’s own promise on a lane where that is kept by 95 % beyond a sample’s doubt', () => {
    // 60 of 60 parcels within the platform's count of 4 days (at least 95.7 % kept, at 95 % confidence): its day.
    const kept = parcels(CAMPINAS, 60, (i) => (i % 2 === 0 ? 3 : 4)).map((p) => ({ ...p, platformDays: 4 }));
    expect(estimateLane(CAMPINAS, kept, [], options)).toMatchObject({ toOffset: 0 });
    // 29 of 30 (96.7 % seen, at least 88 % beyond doubt): what a lane keeping 93 % shows one time in three. Not capped:
    // the slowest of the 30 is promised (bench figure 14: capped so, SP capital SEDEX was kept 94.9 %).
    const few = parcels(CAMPINAS, 30, (i) => (i === 7 ? 6 : 4)).map((p) => ({ ...p, platformDays: 4 }));
    expect(estimateLane(CAMPINAS, few, [], options)).toMatchObject({ toOffset: 2 });
    // 27 of 30 (90 %): the platform's count is not kept, the lane's own days are promised.
    const broken = parcels(CAMPINAS, 30, (i) => (i % 10 === 7 ? 6 : 4)).map((p) => ({
      ...p,
      platformDays: 4,
    }));
    expect(estimateLane(CAMPINAS, broken, [], options)).toMatchObject({ toOffset: 2 });
    // Parcels on the way already past the platform's count count as broken: 60 of 66 is under 95 %.
    const overdue: OpenParcel[] = [0, 1, 2, 3, 4, 5].map((i) => ({
      ...CAMPINAS,
      postedDay: options.today - 10 - i,
      platformDays: 4,
    }));
    expect(estimateLane(CAMPINAS, kept, overdue, options)?.toOffset).toBeGreaterThan(0);
  });

  it('keeps 95 % of the next parcels where a lane’s window keeps the platform’s count 93 % (seeded, held out)', () => {
    // A lane whose parcels keep the platform's day 93 % of the time (SP capital SEDEX on the bench's carrier: a day
    // early 60 %, on the day 33 %, a day late 5 %, two 2 %). Windows of 35 parcels, each followed by the 35 next ones:
    // the promise of each window is scored on the parcels after it, and so is its one date where it gives one.
    const random = seededRandom(50);
    const draw = () => {
      const u = random();
      return u < 0.6 ? 3 : u < 0.93 ? 4 : u < 0.98 ? 5 : 6;
    };
    let kept = 0;
    let scored = 0;
    let single = 0;
    let keptSingle = 0;
    for (let w = 0; w < 200; w += 1) {
      const window = parcels(CAMPINAS, 35, draw).map((p) => ({ ...p, platformDays: 4 }));
      const estimate = estimateLane(CAMPINAS, window, [], options);
      if (!estimate) throw new Error('a window of 35 parcels is enough');
      for (let i = 0; i < 35; i += 1) {
        const ok = draw() - 4 <= estimate.toOffset ? 1 : 0;
        kept += ok;
        scored += 1;
        if (estimate.fromOffset === estimate.toOffset) {
          single += 1;
          keptSingle += ok;
        }
      }
    }
    expect(kept / scored).toBeGreaterThanOrEqual(0.95);
    // One date only where it is kept 95 % (here none: 35 parcels cannot tell 93 % from 95 %).
    expect(single === 0 || keptSingle / single >= 0.95).toBe(true);
  });

  it('counts a lane’s kept share from its labels’ dates, the store’s handling days and cut-off in front', () => {
    // Labelled on Monday 23/11/2026 at 15 h, after a 14 h cut-off: counted from Tuesday, one handling day, four
    // carrier days: the platform's promise is Tuesday 1/12. Delivered on Monday 30/11 is a day inside it.
    const labelledAt = Date.parse('2026-11-23T15:00:00-03:00');
    const parcel = (endedDay: number) => ({ ...CAMPINAS, days: 6, platformDays: 4, endedDay, labelledAt });
    const storeDays = { handlingDays: 1, cutoffMinutes: 14 * 60 };
    const today = day('2026-12-04');
    const early = Array.from({ length: 30 }, () => parcel(day('2026-11-30')));
    expect(estimateLane(CAMPINAS, early, [], { ...options, today, storeDays })).toMatchObject({
      toOffset: -1,
    });
    // The same parcels without a cut-off: counted from Monday, due Monday 30/11, delivered on the day.
    expect(
      estimateLane(CAMPINAS, early, [], { ...options, today, storeDays: { handlingDays: 1 } }),
    ).toMatchObject({
      toOffset: 0,
    });
    // Delivered on Saturday 5/12: the least count that keeps it ends on Monday 7/12, four days after the 1/12 promise.
    const saturday = Array.from({ length: 30 }, () => parcel(day('2026-12-05')));
    expect(
      estimateLane(CAMPINAS, saturday, [], { ...options, today: day('2026-12-06'), storeDays }),
    ).toMatchObject({
      toOffset: 4,
    });
  });

  it('gives one date only where 95 % of the parcels arrive on it or the business day before, beyond a sample’s doubt', () => {
    // 200 parcels: 196 in 3 or 4 days (98 %, at least 96 % at 95 % confidence), 4 in 2: one date.
    const tight = parcels(CAMPINAS, 200, (i) => (i < 4 ? 2 : i % 2 === 0 ? 3 : 4));
    expect(estimateLane(CAMPINAS, tight, [], options)).toMatchObject({ fromOffset: 4, toOffset: 4 });
    // 100 parcels, 95 on it or the day before (95 % seen, 90 % beyond doubt): a range.
    const lumpy = parcels(CAMPINAS, 100, (i) => (i < 3 ? 2 : i < 4 ? 3 : i < 98 ? 4 : 5));
    expect(estimateLane(CAMPINAS, lumpy, [], options)).toMatchObject({ fromOffset: 2, toOffset: 4 });
    // 35 of 35 on it or the day before (at least 92.8 %): a range too — a lane keeping 93 % shows that one time in 13.
    const few = parcels(CAMPINAS, 35, (i) => (i % 3 === 0 ? 4 : 3));
    expect(estimateLane(CAMPINAS, few, [], options)).toMatchObject({ fromOffset: 2, toOffset: 4 });
  });

  it('follows a strike: up before its parcels arrive (the overdue ones), and back down once it is over', () => {
    // Six months of a steady lane: 4 days, a few 5s.
    const steady = (until: number, from: number) =>
      Array.from({ length: until - from }, (_, i) => ({
        ...CAMPINAS,
        days: i % 10 === 0 ? 5 : 4,
        platformDays: 0,
        endedDay: from + i,
      }));
    const before = steady(day('2026-08-01'), day('2026-02-01'));
    const normal = estimateLane(CAMPINAS, before, [], { ...options, today: day('2026-08-01') });
    expect(normal?.toOffset).toBe(5);

    // The strike: nothing arrives for two weeks; the parcels posted meanwhile are overdue.
    const strikeDay = day('2026-08-14');
    const stuck: OpenParcel[] = Array.from({ length: 10 }, (_, i) => ({
      ...CAMPINAS,
      postedDay: day('2026-08-03') + i,
      platformDays: 0,
    }));
    const during = estimateLane(CAMPINAS, before, stuck, { ...options, today: strikeDay });
    expect(during?.toOffset).toBeGreaterThan(5);

    // The strike's parcels arrive late (12 days), then the lane runs as before.
    const late = Array.from({ length: 20 }, (_, i) => ({
      ...CAMPINAS,
      days: 12,
      platformDays: 0,
      endedDay: day('2026-08-17') + i,
    }));
    const right = estimateLane(CAMPINAS, [...before, ...late], [], { ...options, today: day('2026-09-06') });
    expect(right?.toOffset).toBe(12);
    // Still there while its parcels are in the 90-day window…
    const after = steady(day('2026-12-10'), day('2026-09-06'));
    const history = [...before, ...late, ...after];
    expect(estimateLane(CAMPINAS, history, [], { ...options, today: day('2026-11-30') })?.toOffset).toBe(12);
    // …and gone once the last of them has left it.
    expect(estimateLane(CAMPINAS, history, [], { ...options, today: day('2026-12-10') })?.toOffset).toBe(5);
  });

  it('pools lanes the platform quotes differently by their offset from its count, not their days', () => {
    // São Paulo's interior quoted 4 days, arriving in 3; Rio's capital quoted 6, arriving in 5: one day early, both.
    const sp = parcels(CAMPINAS, 30, () => 3).map((p) => ({ ...p, platformDays: 4 }));
    const rj = parcels(RIO, 30, () => 5).map((p) => ({ ...p, platformDays: 6 }));
    expect(estimateLane(lane('30130-000'), [...sp, ...rj], [], options)).toMatchObject({
      level: 'region',
      fromOffset: -1,
      toOffset: -1,
      parcels: 60,
    });
  });

  it('promises the slowest days a lane has taken when its history is small', () => {
    const history = parcels(CAMPINAS, 30, (i) => (i === 7 ? 9 : 3));
    expect(estimateLane(CAMPINAS, history, [], options)?.toOffset).toBe(9);
    // The margin shrinks as the history grows: one slow parcel in 400 is not promised.
    const more = parcels(CAMPINAS, 400, (i) => (i === 7 ? 9 : 3));
    expect(estimateLane(CAMPINAS, more, [], options)?.toOffset).toBe(3);
    expect(addBusinessDays(0, 0)).toBe(0);
  });
});
