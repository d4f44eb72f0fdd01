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

/**
 * What a late parcel reads like, per language: the tracking page's badge and what the shopper can do, the same words
 * in the e-mails (whose headline is theirs: bff/notifications/email-texts.ts). Short: the tracking element's budget.
 */
export const LATE_WORDS: Record<Locale, { badge: string; next: string }> = {
  'pt-BR': {
    badge: 'Atrasado',
    next: 'Passou da data prevista. A loja já foi avisada; se não chegar em poucos dias, fale com ela.',
  },
  en: {
    badge: 'Late',
    next: 'It is past the expected date. The store has been told; if it does not arrive in a few days, contact them.',
  },
  es: {
    badge: 'Atrasado',
    next: 'Pasó la fecha prevista. La tienda ya fue avisada; si no llega en unos días, habla con ella.',
  },
};

/**
 * What a stalled parcel reads like (no news from the carrier for days): the tracking page's badge and next step, and
 * the stall e-mail's next step (bff/notifications/email-texts.ts), in the same words.
 */
export const STALLED_WORDS: Record<Locale, { badge: string; next: string }> = {
  'pt-BR': { badge: 'Sem novidades', next: 'A loja já foi avisada e está acompanhando com os Correios.' },
  en: { badge: 'No news', next: 'The store has been told and is following it up with the carrier.' },
  es: { badge: 'Sin novedades', next: 'La tienda ya fue avisada y lo sigue con el transportista.' },
};
