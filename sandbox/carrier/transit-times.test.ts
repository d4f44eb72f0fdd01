import { describe, expect, it } from 'vitest';
import { isBusinessDay, saoPauloDay } from '../../shared/business-days.ts';
import { laneOf } from '../../shared/lanes.ts';
import { makeS10 } from '../../shared/s10.ts';
import { HOUR_MS } from './clock.ts';
import { drawTransit, isCarrierDay, isPeakDay, isStrikeDay, PROFILES, profileOf } from './transit-times.ts';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const at = (iso: string) => Date.parse(iso);
const route = (destinationUf: 'RJ' | 'AM' | 'BA', destinationCity: string) => ({
  originUf: 'SP' as const,
  originCity: 'São Paulo',
  destinationUf,
  destinationCity,
});

/** `n` parcels to a CEP, created on a Monday morning outside any strike or peak. */
function sample(
  cep: string,
  serviceCode: string,
  platformDays: number,
  n = 2000,
  createdAt = at('2026-03-02T09:00:00-03:00'),
) {
  const to = route(cep.startsWith('2') ? 'RJ' : cep.startsWith('4') ? 'BA' : 'AM', 'Cidade');
  return Array.from({ length: n }, (_, i) =>
    drawTransit({
      code: makeS10('QB', i),
      route: to,
      destinationCep: cep,
      serviceCode,
      platformDays,
      createdAt,
    }),
  );
}
const kept = (transits: { days: number }[], platformDays: number) =>
  transits.filter((t) => t.days <= platformDays).length / transits.length;

describe('the carrier’s transit times', () => {
  it('gives each lane and service the profile sandbox/README.md lists', () => {
    const lane = (cep: string) => laneOf(cep) ?? (undefined as never);
    expect(profileOf('SP', lane('20040-020'), '03298')).toBe('early'); // PAC to Rio de Janeiro (capital)
    expect(profileOf('SP', lane('13035-680'), '03298')).toBe('on-time'); // PAC to Campinas
    expect(profileOf('SP', lane('44001-000'), '03298')).toBe('late'); // PAC to Feira de Santana (BA interior)
    expect(profileOf('SP', lane('69400-000'), '03220')).toBe('late'); // SEDEX to the AM interior
    expect(profileOf('SP', lane('40010-000'), '03220')).toBe('on-time'); // SEDEX to Salvador
    for (const shares of Object.values(PROFILES))
      expect(shares.reduce((sum, [, share]) => sum + share, 0)).toBeCloseTo(1, 10);
  });

  it('keeps the platform’s count ~90 % on time lanes, always on early ones, < 80 % on late ones', () => {
    expect(kept(sample('13035-680', '03298', 4), 4)).toBeGreaterThan(0.85);
    expect(kept(sample('13035-680', '03298', 4), 4)).toBeLessThan(0.95);
    const early = sample('20040-020', '03298', 6);
    expect(kept(early, 6)).toBe(1);
    expect(early.filter((t) => t.days <= 5).length / early.length).toBeGreaterThan(0.96);
    expect(kept(sample('44001-000', '03298', 8), 8)).toBeLessThan(0.8);
  });

  it('moves one code the same way on every run', () => {
    const input = {
      code: 'QB000000015BR',
      route: route('RJ', 'Rio de Janeiro'),
      destinationCep: '20040-020',
      serviceCode: '03298',
      platformDays: 6,
      createdAt: at('2026-03-02T09:00:00-03:00'),
    };
    expect(drawTransit(input)).toEqual(drawTransit(input));
  });

  it('posts within 24 h, delivers on a carrier day between 9 h and 17 h, events in order', () => {
    for (const t of sample('69005-000', '03298', 11, 300, at('2026-04-30T16:00:00-03:00'))) {
      const hours = t.plan.map((e) => e.afterHours);
      expect(hours[0]).toBeLessThan(24);
      expect([...hours].sort((a, b) => a - b)).toEqual(hours);
      const delivered = at('2026-04-30T16:00:00-03:00') + (hours.at(-1) ?? 0) * HOUR_MS;
      const local = saoPauloDay(delivered);
      expect(isCarrierDay(local.day)).toBe(true);
      const hour = (delivered - local.start) / HOUR_MS;
      expect(hour).toBeGreaterThanOrEqual(9);
      expect(hour).toBeLessThanOrEqual(17);
    }
  });

  it('stops for the strike week of 15 May and runs late in the peak season', () => {
    expect([11, 12, 13, 14, 15].map((d) => isStrikeDay(day(`2026-05-${d}`)))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(isStrikeDay(day('2026-05-16'))).toBe(false);
    expect(isStrikeDay(day('2027-05-10'))).toBe(true); // 15/05/2027 is a Saturday: its week is 10–14 May
    expect(isBusinessDay(day('2026-05-12')) && !isCarrierDay(day('2026-05-12'))).toBe(true);
    const normal = sample('13035-680', '03298', 4, 500);
    const struck = sample('13035-680', '03298', 4, 500, at('2026-05-08T09:00:00-03:00'));
    const mean = (ts: { days: number }[]) => ts.reduce((sum, t) => sum + t.days, 0) / ts.length;
    expect(mean(struck) - mean(normal)).toBeGreaterThan(4);
    expect(isPeakDay(day('2026-11-25'))).toBe(true);
    expect(isPeakDay(day('2026-12-24'))).toBe(false);
    const peak = sample('13035-680', '03298', 4, 2000, at('2026-11-30T09:00:00-03:00'));
    expect(mean(peak) - mean(normal)).toBeGreaterThan(0.25);
  });
});
