import { civilDate, isoDate, saoPauloDay } from './business-days.ts';
import type { Locale } from './locale.ts';
import { ON_ITS_WAY, type ParcelState, type ParcelStatus, parcelState } from './parcel-status.ts';
import type { TrackingResult } from './tracking.ts';

/**
 * A parcel's story as the shopper hears it, wherever they hear it (the tracking page, the e-mails, an agent's
 * `track_shipment`): its status (shared/parcel-status.ts) and whether the promise it was sold with has passed. One
 * function, so the page and the e-mails never disagree (ARCHITECTURE.md, "One story").
 */
export interface ParcelStory extends ParcelState {
  /** Still on its way after the promise's last day (São Paulo). */
  late: boolean;
}

/** The São Paulo calendar date of an instant, `YYYY-MM-DD`. */
export function saoPauloDate(at: number): string {
  return isoDate(civilDate(saoPauloDay(at).day));
}

/**
 * Whether a parcel is late: it was sold with a promise, it is still on its way (not delivered, returned, nor waiting at
 * a unit for its shopper), and São Paulo's day at `at` is after the promise's last day.
 */
export function isLate(status: ParcelStatus, promise: { to: string } | undefined, at: number): boolean {
  if (!promise || !ON_ITS_WAY.includes(status)) return false;
  return saoPauloDate(at) > promise.to;
}

/** One tracking result's story at `at`, against the promise it was sold with (if any). */
export function parcelStory(
  result: Pick<TrackingResult, 'found' | 'delivered' | 'events'>,
  promise: { to: string } | undefined,
  at: number,
): ParcelStory {
  const state = parcelState(result);
  return { ...state, late: isLate(state.status, promise, at) };
}

/**
 * What a late parcel's next step says: out for delivery it still arrives today (the status's own step); otherwise the
 * late step (what the shopper can do).
 */
export function lateStepApplies(story: Pick<ParcelStory, 'status' | 'late'>): boolean {
  return story.late && story.status !== 'out-for-delivery';
}

/** What a late parcel reads like, per language: the same words on the tracking page and in the e-mails. */
export interface LateWords {
  /** The tracking page's badge. */
  badge: string;
  /** An e-mail's headline and subject (`order`: "pedido 1234", or the generic word). */
  headline: (order: string) => string;
  /** What the shopper can do. */
  next: string;
}

export const LATE_WORDS: Record<Locale, LateWords> = {
  'pt-BR': {
    badge: 'Atrasado',
    headline: (order) => `Seu ${order} está atrasado`,
    next: 'Passou da data prevista e o objeto ainda está a caminho. A loja já foi avisada; se não chegar em poucos dias, fale com ela para combinar um novo envio ou o reembolso.',
  },
  en: {
    badge: 'Late',
    headline: (order) => `Your ${order} is late`,
    next: 'It is past the expected date and the parcel is still on its way. The store has been told; if it does not arrive in a few days, contact them to arrange a new shipment or a refund.',
  },
  es: {
    badge: 'Atrasado',
    headline: (order) => `Tu ${order} está atrasado`,
    next: 'Pasó la fecha prevista y el paquete sigue en camino. La tienda ya fue avisada; si no llega en unos días, habla con ella para un nuevo envío o un reembolso.',
  },
};
