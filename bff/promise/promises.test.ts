import { describe, expect, it } from 'vitest';
import { addBusinessDays, isBusinessDay, saoPauloDay } from '../../shared/business-days.ts';
import { laneOf } from '../../shared/lanes.ts';
import type { DeliveredParcel, OpenParcel } from './estimate.ts';
import { HistoryPromises } from './promises.ts';

/** A history held in memory behind the port `HistoryPromises` reads (`delivered`, `open`). */
function historyOf(delivered: DeliveredParcel[], open: OpenParcel[] = []) {
  const withOrigin = <T>(parcels: T[]) => parcels.map((p) => ({ ...p, origin: '01310' }));
  return {
    delivered: async () => withOrigin(delivered),
    open: async () => withOrigin(open),
    reads: 0,
  };
}

const rio = laneOf('20040-020') as NonNullable<ReturnType<typeof laneOf>>;
const at = (iso: string) => Date.parse(iso);
/** 40 parcels to Rio, each `days` business days in transit where the platform quoted 6, delivered recently. */
function lane(days: (i: number) => number, now: number): DeliveredParcel[] {
  const today = saoPauloDay(now).day;
  return Array.from({ length: 60 }, (_, i) => ({
    ...rio,
    days: days(i),
    platformDays: 6,
    endedDay: today - 1 - (i % 30),
  }));
}
const input = (now: number, deliveryDays = 6) => ({
  destinationCep: '20040-020',
  serviceId: 'correios-pac',
  deliveryDays,
  at: now,
});

describe('HistoryPromises', () => {
  it('counts the learnt days after the handling day and the cut-off, across a weekend and a holiday', async () => {
    // Thursday 19/11/2026; Friday 20/11 is a national holiday (Consciência Negra), then the weekend.
    const before = at('2026-11-19T13:59:00-03:00');
    const after = at('2026-11-19T14:01:00-03:00');
    const promises = new HistoryPromises({
      history: historyOf(lane(() => 3, before)),
      settings: { quantile: 0.95, minParcels: 30 },
      storeDays: { handlingDays: 1, cutoffMinutes: 14 * 60 },
      now: () => before,
    });
    // Before the cut-off: posted today (Thu 19), one handling day → Mon 23, three carrier days → Thu 26; every parcel
    // of 60 took three days, so one date.
    expect(await promises.promiseFor(input(before))).toEqual({
      from: '2026-11-26',
      to: '2026-11-26',
      basis: 'history',
      parcels: 60,
    });
    // After it: from the next business day (Mon 23), one handling day → Tue 24, three days → Fri 27.
    expect((await promises.promiseFor(input(after))).to).toBe('2026-11-27');
  });

  it('learns from the label’s date: a store that posts the day it labels is not promised its handling day again', async () => {
    // Monday 23/11/2026. Each parcel was labelled at 10 h on a business day, posted that day (sooner than the one
    // handling day allows) and delivered three business days later, where the platform quoted six.
    const now = at('2026-11-23T10:00:00-03:00');
    const today = saoPauloDay(now).day;
    const labelDays = Array.from({ length: 100 }, (_, i) => today - 100 + i)
      .filter(isBusinessDay)
      .slice(-60);
    const delivered = labelDays.map((day) => ({
      ...rio,
      days: 3,
      platformDays: 6,
      endedDay: addBusinessDays(day, 3),
      labelledAt: day * 86_400_000 + 13 * 3_600_000,
    }));
    const promises = new HistoryPromises({
      history: historyOf(delivered),
      settings: { quantile: 0.95, minParcels: 30 },
      storeDays: { handlingDays: 1 },
      now: () => now,
    });
    // Three business days after Monday's label: Thursday 26 (from the posting, one handling day in front: Friday 27).
    expect(await promises.promiseFor(input(now))).toEqual({
      from: '2026-11-26',
      to: '2026-11-26',
      basis: 'history',
      parcels: 60,
    });
  });

  it('learns each service from its own parcels: SEDEX backing off to the region never pools PAC’s parcels', async () => {
    const now = at('2026-11-23T10:00:00-03:00');
    const today = saoPauloDay(now).day;
    const campinas = laneOf('13010-000') as NonNullable<ReturnType<typeof laneOf>>;
    // PAC: 60 parcels to Rio, two days later than the platform's 6. SEDEX: none to Rio, 60 to Campinas (same region),
    // a day sooner than the platform's 2.
    const parcels = (lane: typeof rio, days: number, platformDays: number): DeliveredParcel[] =>
      Array.from({ length: 60 }, (_, i) => ({ ...lane, days, platformDays, endedDay: today - 1 - (i % 30) }));
    const byService: Record<string, DeliveredParcel[]> = {
      'correios-pac': parcels(rio, 8, 6),
      'correios-sedex': parcels(campinas, 1, 2),
    };
    const promises = new HistoryPromises({
      history: {
        delivered: async (serviceId: string) =>
          (byService[serviceId] ?? []).map((p) => ({ ...p, origin: '01310' })),
        open: async () => [],
      },
      settings: { quantile: 0.95, minParcels: 30 },
      now: () => now,
    });
    const pac = await promises.promiseFor(input(now));
    const sedex = await promises.promiseFor({ ...input(now, 2), serviceId: 'correios-sedex' });
    // PAC: 6 + 2 = 8 business days (Mon 23 → Thu 3/12); SEDEX: 2 − 1 = 1 (Tue 24), on its own 60 parcels.
    expect(pac).toMatchObject({ to: '2026-12-03', basis: 'history', parcels: 60 });
    expect(sedex).toMatchObject({ from: '2026-11-24', to: '2026-11-24', basis: 'history', parcels: 60 });
  });

  it('moves the platform’s count by the lane’s offset: a lane two days early promises two days fewer', async () => {
    const now = at('2026-11-23T10:00:00-03:00');
    const promises = new HistoryPromises({
      history: historyOf(lane(() => 4, now)),
      settings: { quantile: 0.95, minParcels: 30 },
      now: () => now,
    });
    // Offset −2: the platform's 6 → 4 business days (Mon 23 → Fri 27); quoted 8 elsewhere → 6.
    expect((await promises.promiseFor(input(now))).to).toBe('2026-11-27');
    expect((await promises.promiseFor(input(now, 8))).to).toBe('2026-12-01');
  });

  it('promises the platform’s count, and says so, where the lane is thin, the CEP has no lane or the history fails', async () => {
    const now = at('2026-11-23T10:00:00-03:00');
    const thin = new HistoryPromises({
      history: historyOf(lane(() => 4, now).slice(0, 29)),
      settings: { quantile: 0.95, minParcels: 30 },
      now: () => now,
    });
    expect(await thin.promiseFor(input(now))).toEqual({
      from: '2026-12-01',
      to: '2026-12-01',
      basis: 'platform',
      parcels: 0,
    });
    expect((await thin.promiseFor({ ...input(now), destinationCep: '00000-100' })).basis).toBe('platform');
    const broken = new HistoryPromises({
      history: { delivered: () => Promise.reject(new Error('database down')), open: async () => [] },
      settings: { quantile: 0.95, minParcels: 30 },
      now: () => now,
    });
    expect((await broken.promiseFor(input(now))).basis).toBe('platform');
  });

  it('reads a service’s history once for many promises, and again once invalidated or a minute later', async () => {
    let now = at('2026-11-23T10:00:00-03:00');
    let reads = 0;
    const parcels = lane(() => 4, now);
    const promises = new HistoryPromises({
      history: {
        delivered: async () => {
          reads += 1;
          return parcels.map((p) => ({ ...p, origin: '01310' }));
        },
        open: async () => [],
      },
      settings: { quantile: 0.95, minParcels: 30 },
      now: () => now,
    });
    await Promise.all([
      promises.promiseFor(input(now)),
      promises.promiseFor(input(now)),
      promises.promiseFor(input(now)),
    ]);
    expect(reads).toBe(1);
    promises.invalidate('correios-pac');
    await promises.promiseFor(input(now));
    expect(reads).toBe(2);
    now += 61_000;
    await promises.promiseFor(input(now));
    expect(reads).toBe(3);
  });
});
