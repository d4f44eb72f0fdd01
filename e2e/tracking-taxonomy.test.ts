import { describe, expect, it } from 'vitest';
import { deliveryPlan, returnPlan, TrackingBook } from '../sandbox/carrier/tracking.ts';
import { parcelState } from '../widget/tracking/status.ts';

// The widget's taxonomy over every event the sandbox's carrier emits, at every hour of a parcel's life (this file
// sits in e2e/ because it imports both the widget and the sandbox).
const HOUR = 3_600_000;
const route = {
  originUf: 'SP',
  originCity: 'São Paulo',
  destinationUf: 'PR',
  destinationCity: 'Curitiba',
} as const;

function walk(plan: ReturnType<typeof deliveryPlan>): string[] {
  const book = new TrackingBook();
  book.register('JT202600011BR', 0, plan);
  const seen: string[] = [];
  for (let hour = 0; hour <= 800; hour++) {
    const status = parcelState(book.lookup('JT202600011BR', hour * HOUR)).status;
    if (seen.at(-1) !== status) seen.push(status);
  }
  return seen;
}

describe('the tracking taxonomy over the sandbox carrier', () => {
  it('follows a delivery: no events, posted, in transit, out for delivery, delivered', () => {
    expect(walk(deliveryPlan('JT202600011BR', route, 6))).toEqual([
      'no-events',
      'posted',
      'in-transit',
      'out-for-delivery',
      'delivered',
    ]);
  });

  it('follows a return: … out for delivery, delivery problem, awaiting pickup, returned to sender', () => {
    expect(walk(returnPlan('JT202600011BR', route, 6))).toEqual([
      'no-events',
      'posted',
      'in-transit',
      'out-for-delivery',
      'problem',
      'awaiting-pickup',
      'returned',
    ]);
  });

  it('maps every code/status pair the carrier emits to a named status', () => {
    const pairs = new Set(
      [...deliveryPlan('JT202600011BR', route, 6), ...returnPlan('JT202600011BR', route, 6)].map(
        (e) => `${e.code}/${e.type}`,
      ),
    );
    expect([...pairs].sort()).toEqual(['BDE/01', 'BDE/02', 'BDE/23', 'LDI/01', 'OEC/01', 'PO/01', 'RO/01']);
  });

  it('calls an unknown code not found', () => {
    expect(parcelState(new TrackingBook().lookup('JT202600011BR', 0)).status).toBe('not-found');
  });
});
