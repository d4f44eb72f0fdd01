/**
 * How long the Correios hold a parcel at a unit for the recipient to pick up: 7 calendar days from the day it became
 * available (the "prazo de guarda" of national parcels), then it goes back to the sender. The tracking page and the
 * shopper's e-mail show the last day ("Retire até sex., 04/12"); the BFF's watcher reminds the shopper
 * `PICKUP_REMINDER_DAYS` before it (`shipment.pickup_reminder`); the sandbox's carrier returns an uncollected parcel
 * after it. Calendar days: the hold counts Saturdays, Sundays and holidays alike.
 */
export const PICKUP_HOLD_DAYS = 7;

/** The reminder goes out this many days before the last day to pick up (on the 5th day of 7). */
export const PICKUP_REMINDER_DAYS = 2;

/** The last day (day number) to pick up a parcel that became available on `availableDay`. */
export function pickupLastDay(availableDay: number): number {
  return availableDay + PICKUP_HOLD_DAYS;
}
