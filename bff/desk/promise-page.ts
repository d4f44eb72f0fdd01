import type { DeliveryPromise } from '../../shared/delivery-promise.ts';
import { type Html, html } from '../../shared/html.ts';
import type { Locale } from '../../shared/locale.ts';
import { promiseDates, shortDate } from '../../shared/promise-text.ts';
import { serviceName } from '../../shared/service-name.ts';
import type { LaneKept } from '../promise/kept.ts';
import { formatNumber } from './format.ts';
import type { Messages } from './messages.ts';

/** The share of deliveries on time the README promises (≥ 95 %): a lane under it is late. */
export const PROMISE_GOAL = 0.95;
/** Fewer scored deliveries than this on a lane: too thin to judge, set apart. */
export const THIN_LANE_PARCELS = 10;

export interface PromiseView {
  t: Messages;
  lang: Locale;
  /** How many days back the scores reach. */
  days: number;
  all: Omit<LaneKept, 'serviceId' | 'uf' | 'area' | 'latest'>;
  /** Each lane with the promise a quote would get on it today (undefined: it could not be asked). */
  lanes: readonly (LaneKept & { today?: DeliveryPromise | undefined })[];
}

type Lane = PromiseView['lanes'][number];

const share = (lang: Locale, n: number, of: number) =>
  of === 0 ? '—' : `${formatNumber((100 * n) / of, lang, 1)} %`;

/** "2 dias antes", "no dia", "1 dia depois": a median of business days against the promised day. */
function medianWords(t: Messages, lang: Locale, days: number): string {
  if (days === 0) return t.onTheDay;
  const shown = formatNumber(Math.abs(days), lang, 1);
  return days < 0 ? t.daysEarly(-days, shown) : t.daysLate(days, shown);
}

const isLate = (lane: Lane) => lane.onTime / lane.parcels < PROMISE_GOAL;

function todayWords(view: PromiseView, lane: Lane): string {
  const { t, lang } = view;
  if (!lane.today) return '—';
  const dates = promiseDates(lane.today, lang, shortDate);
  return lane.today.basis === 'history' ? t.todayLearnt(dates, lane.today.parcels) : t.todayPlatform(dates);
}

function laneRow(view: PromiseView, lane: Lane, advise: boolean): Html {
  const { t, lang } = view;
  const late = isLate(lane);
  // The days a rule would add: what 95 % of the lane's deliveries stayed within, at least one.
  const days = Math.max(1, Math.ceil(lane.lateAtGoal));
  return html`<tr>
<th scope="row">${lane.uf} <span class="muted">${lane.area === 'capital' ? t.capital : t.interior}</span></th>
<td>${serviceName(lane.serviceId)}</td>
<td class="number">${formatNumber(lane.parcels, lang, 0)}</td>
<td class="number${late ? ' warn' : ''}">${share(lang, lane.onTime, lane.parcels)}</td>
<td class="number">${share(lang, lane.byBasis.history.onTime, lane.byBasis.history.parcels)}</td>
<td class="number">${share(lang, lane.byBasis.platform.onTime, lane.byBasis.platform.parcels)}</td>
<td>${medianWords(t, lang, lane.medianLateDays)}</td>
<td>${todayWords(view, lane)}</td>
${advise ? html`<td>${t.advice(days)}</td>` : ''}
</tr>`;
}

function laneTable(
  view: PromiseView,
  id: string,
  title: string,
  lanes: readonly Lane[],
  advise: boolean,
): Html | '' {
  const { t } = view;
  if (lanes.length === 0) return '';
  return html`<h2 id="${id}">${title}</h2>
<div class="table-scroll" role="region" aria-labelledby="${id}" tabindex="0">
<table>
<thead><tr><th scope="col">${t.colLane}</th><th scope="col">${t.colService}</th><th scope="col" class="number">${t.colParcels}</th><th scope="col" class="number">${t.colOnTime}</th><th scope="col" class="number">${t.colHistory}</th><th scope="col" class="number">${t.colPlatform}</th><th scope="col">${t.colMedianLate}</th><th scope="col">${t.colToday}</th>${advise ? html`<th scope="col">${t.colAdvice}</th>` : ''}</tr></thead>
<tbody>${lanes.map((lane) => laneRow(view, lane, advise))}</tbody>
</table>
</div>`;
}

/**
 * The promise kept, to act on: which promise is scored (the learnt one and the platform's, side by side), the late
 * lanes first with what to do (a rule of +N days, handling days, the cut-off), the lanes on time, and the lanes too
 * thin to judge set apart; each with the promise a quote gets on it today. A share under 95 % is marked (the word says
 * it; the colour only repeats it).
 */
export function promiseBody(view: PromiseView): Html {
  const { t, lang, all } = view;
  const judged = view.lanes.filter((lane) => lane.parcels >= THIN_LANE_PARCELS);
  const thin = view.lanes.filter((lane) => lane.parcels < THIN_LANE_PARCELS);
  const late = judged
    .filter(isLate)
    .sort((a, b) => a.onTime / a.parcels - b.onTime / b.parcels || b.parcels - a.parcels);
  const { history, platform } = all.byBasis;
  return html`<h1>${t.promiseTitle}</h1>
<p class="lead">${t.promiseIntro(view.days)}</p>
${
  all.parcels === 0
    ? html`<p class="empty">${t.noScores}</p>`
    : html`<p class="summary"><strong>${t.promiseAll(share(lang, all.onTime, all.parcels), all.parcels)}</strong> · ${medianWords(t, lang, all.medianLateDays)}</p>
<p>${t.promiseBasis(share(lang, history.onTime, history.parcels), history.parcels, share(lang, platform.onTime, platform.parcels), platform.parcels)}</p>
<p class="hint">${t.promiseGoal}</p>
${laneTable(view, 'late-lanes', t.lateLanesTitle, late, true)}
${laneTable(
  view,
  'ok-lanes',
  t.okLanesTitle,
  judged.filter((lane) => !isLate(lane)),
  false,
)}
${laneTable(view, 'thin-lanes', t.thinLanesTitle(THIN_LANE_PARCELS), thin, false)}`
}`;
}
