/**
 * The tracking page's taxonomy lives in shared/parcel-status.ts (the BFF's shipment events use the same one); this
 * module adds what only the page needs: the carrier's clock reading as the shopper reads it.
 */
export { type ParcelStatus, parcelState, statusOf } from '../../shared/parcel-status.ts';

/**
 * A carrier timestamp as "20/11/2026 às 01:34", read from the string itself: spec 2.3 gives no time zone, so
 * nothing is converted (no `Date`). Anything that is not `YYYY-MM-DD[T ]HH:MM…` is shown as given.
 */
export function formatCarrierTimestamp(timestamp: string, at: string, yearFirst = false): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})/.exec(timestamp.trim());
  if (!match) return timestamp;
  const [, year, month, day, hours, minutes] = match;
  return `${yearFirst ? `${year}-${month}-${day}` : `${day}/${month}/${year}`} ${at} ${hours}:${minutes}`;
}
