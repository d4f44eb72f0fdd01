import { describe, expect, it } from 'vitest';
import { PARCEL_STATUSES } from './parcel-status.ts';
import { isLate, LATE_WORDS, lateStepApplies, parcelStory, saoPauloDate } from './parcel-story.ts';

const promise = { from: '2026-12-10', to: '2026-12-16' };
const moving = {
  found: true,
  delivered: false,
  events: [{ code: 'RO', description: 'Objeto em trânsito', timestamp: '2026-12-11T08:00:00' }],
};

describe('isLate', () => {
  it('turns late at São Paulo midnight after the last day, not at UTC midnight', () => {
    // 2026-12-17 02:59 UTC is still the 16th in São Paulo (UTC−3).
    expect(isLate('in-transit', promise, Date.parse('2026-12-17T02:59:59Z'))).toBe(false);
    expect(isLate('in-transit', promise, Date.parse('2026-12-17T03:00:00Z'))).toBe(true);
    expect(saoPauloDate(Date.parse('2026-12-17T02:59:59Z'))).toBe('2026-12-16');
  });

  it('is never late without a promise, delivered, returned or waiting at a unit for its shopper', () => {
    const after = Date.parse('2026-12-30T12:00:00Z');
    expect(isLate('in-transit', undefined, after)).toBe(false);
    const late = PARCEL_STATUSES.filter((status) => isLate(status, promise, after));
    expect(late).toEqual(['posted', 'in-transit', 'out-for-delivery', 'problem', 'no-events']);
  });

  it('reads the last day only, whatever the first (a one-day promise too)', () => {
    const one = { from: '2026-12-16', to: '2026-12-16' };
    expect(isLate('posted', one, Date.parse('2026-12-16T23:00:00Z'))).toBe(false);
    expect(isLate('posted', one, Date.parse('2026-12-17T12:00:00Z'))).toBe(true);
  });
});

describe('parcelStory', () => {
  it('gives the page and the e-mails the status and whether it is late, from one result', () => {
    expect(parcelStory(moving, promise, Date.parse('2026-12-18T12:00:00Z'))).toMatchObject({
      status: 'in-transit',
      late: true,
    });
    expect(
      parcelStory({ ...moving, delivered: true }, promise, Date.parse('2026-12-18T12:00:00Z')).late,
    ).toBe(false);
  });

  it('keeps "arrives today" for a late parcel out for delivery, and the late step for the others', () => {
    expect(lateStepApplies({ status: 'out-for-delivery', late: true })).toBe(false);
    expect(lateStepApplies({ status: 'posted', late: true })).toBe(true);
    expect(lateStepApplies({ status: 'posted', late: false })).toBe(false);
  });

  it('says late in every language, with what the shopper can do', () => {
    expect(LATE_WORDS['pt-BR'].badge).toBe('Atrasado');
    expect(LATE_WORDS.en.badge).toBe('Late');
    expect(LATE_WORDS.es.badge).toBe('Atrasado');
    for (const words of Object.values(LATE_WORDS)) expect(words.next).toMatch(/loja|store|tienda/);
  });
});
