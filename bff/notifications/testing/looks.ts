import type { TrackingEvent, TrackingResult } from '../../../shared/tracking.ts';
import type { WatchState } from '../look.ts';

/** Tracking results and watch states for the tests of one look at a label (changes.test.ts, stall.test.ts). */
export const DAY = 86_400_000;
/** Monday 2026-11-23, 10:00 in São Paulo. */
export const MONDAY = Date.parse('2026-11-23T10:00:00-03:00');
export const ev = (code: string, type: string, timestamp: string, description = code): TrackingEvent => ({
  code,
  type,
  timestamp,
  description,
});
export const trackingResult = (events: TrackingEvent[], delivered = false): TrackingResult => ({
  code: 'QB123456785BR',
  found: true,
  delivered,
  events,
});
export const posted = ev('PO', '01', '2026-11-23T09:00:00');
export const moving = ev('RO', '01', '2026-11-23T20:00:00');
export const out = ev('OEC', '01', '2026-11-24T08:00:00');
export const watch = (over: Partial<WatchState> = {}): WatchState => ({
  status: 'no-events',
  eventKey: null,
  changedAt: MONDAY,
  stalled: false,
  ...over,
});
