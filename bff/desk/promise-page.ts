import { type Html, html } from '../../shared/html.ts';
import type { Locale } from '../../shared/locale.ts';
import type { LaneKept } from '../promise/kept.ts';
import { formatNumber } from './format.ts';
import type { Messages } from './messages.ts';

export interface PromiseView {
  t: Messages;
  lang: Locale;
  /** How many days back the scores reach. */
  days: number;
  all: Omit<LaneKept, 'serviceId' | 'uf' | 'area'>;
  lanes: readonly LaneKept[];
}

const share = (lang: Locale, n: number, of: number) =>
  of === 0 ? '—' : `${formatNumber((100 * n) / of, lang, 1)} %`;

/** "2 dias antes", "no dia", "1 dia depois": a median of business days against the promised day. */
function medianWords(t: Messages, lang: Locale, days: number): string {
  if (days === 0) return t.onTheDay;
  const shown = formatNumber(Math.abs(days), lang, 1);
  return days < 0 ? t.daysEarly(-days, shown) : t.daysLate(days, shown);
}

function laneRow(view: PromiseView, lane: LaneKept): Html {
  const { t, lang } = view;
  const short = lane.onTime / lane.parcels < 0.95;
  return html`<tr>
<th scope="row">${lane.uf} <span class="muted">${lane.area === 'capital' ? t.capital : t.interior}</span></th>
<td>${lane.serviceId}</td>
<td class="number">${formatNumber(lane.parcels, lang, 0)}</td>
<td class="number${short ? ' warn' : ''}">${share(lang, lane.onTime, lane.parcels)}</td>
<td>${medianWords(t, lang, lane.medianLateDays)}</td>
</tr>`;
}

/**
 * The promise kept, per lane and service: the share of deliveries by the promised day, the median of business days
 * early or late, and how many deliveries it rests on. A share under 95 % is marked (the word says it; the colour only
 * repeats it).
 */
export function promiseBody(view: PromiseView): Html {
  const { t, lang, all } = view;
  return html`<h1>${t.promiseTitle}</h1>
<p class="lead">${t.promiseIntro(view.days)}</p>
${
  all.parcels === 0
    ? html`<p class="empty">${t.noScores}</p>`
    : html`<p class="summary"><strong>${t.promiseAll(share(lang, all.onTime, all.parcels), all.parcels)}</strong> · ${medianWords(t, lang, all.medianLateDays)}</p>
<div class="table-scroll" role="region" aria-labelledby="promise-caption" tabindex="0">
<table>
<caption id="promise-caption">${t.promiseCaption}</caption>
<thead><tr><th scope="col">${t.colLane}</th><th scope="col">${t.colService}</th><th scope="col" class="number">${t.colParcels}</th><th scope="col" class="number">${t.colOnTime}</th><th scope="col">${t.colMedianLate}</th></tr></thead>
<tbody>${view.lanes.map((lane) => laneRow(view, lane))}</tbody>
</table>
</div>`
}`;
}
