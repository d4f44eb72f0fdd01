import { type CivilDate, civilDate, DAY_MS, pad2 } from './business-days.ts';
import type { Locale } from './locale.ts';

/**
 * How a delivery promise reads, in each language, wherever the kit shows it (the calculator's "Chega …", the tracking
 * page's "Previsão de entrega: …", the shopper's e-mails): one date, "até qua., 26/11", where the store's parcels
 * arrive within a day of each other; a range, "entre 3 e 5/12", where they spread wider (docs/promise.md). No `Intl`:
 * the same words in every browser and in Node, from the date as written (São Paulo's calendar date).
 */

const WEEKDAYS: Record<Locale, readonly string[]> = {
  'pt-BR': /* @__PURE__ */ 'dom. seg. ter. qua. qui. sex. sáb.'.split(' '),
  en: /* @__PURE__ */ 'Sun Mon Tue Wed Thu Fri Sat'.split(' '),
  es: /* @__PURE__ */ 'dom. lun. mar. mié. jue. vie. sáb.'.split(' '),
};
const MONTHS_EN = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/** The civil date of `YYYY-MM-DD` (business-days.ts's, read from the date as written). */
const civil = (iso: string): CivilDate => civilDate(Date.parse(iso) / DAY_MS);

/** "qua., 26/11" · "Wed, Nov 26" · "mié., 26/11": a date with its weekday. */
export function weekdayDate(iso: string, locale: Locale): string {
  const { day, month, weekday } = civil(iso);
  const name = WEEKDAYS[locale][weekday] ?? '';
  return locale === 'en' ? `${name}, ${MONTHS_EN[month - 1]} ${day}` : `${name}, ${pad2(day)}/${pad2(month)}`;
}

/** "26/11" · "Nov 26": a date without its weekday. */
export function shortDate(iso: string, locale: Locale): string {
  const { day, month } = civil(iso);
  return locale === 'en' ? `${MONTHS_EN[month - 1]} ${day}` : `${pad2(day)}/${pad2(month)}`;
}

/**
 * The dates of a promise: "até qua., 26/11" or "entre 3 e 5/12" (pt-BR), "by Wed, Nov 26" or "Dec 3–5" (en),
 * "a más tardar el mié., 26/11" or "entre el 3 y el 5/12" (es). One date is written by `oneDate`: `weekdayDate`
 * (the calculator, the e-mails) or `shortDate` ("até 26/11": the tracking page, whose budget has no room for the
 * weekdays' names).
 */
export function promiseDates(
  promise: { from: string; to: string },
  locale: Locale,
  oneDate: (iso: string, locale: Locale) => string,
): string {
  if (promise.from >= promise.to) {
    const date = oneDate(promise.to, locale);
    return locale === 'en' ? `by ${date}` : locale === 'es' ? `a más tardar el ${date}` : `até ${date}`;
  }
  const from = civil(promise.from);
  const to = civil(promise.to);
  const sameMonth = from.month === to.month;
  if (locale === 'en') {
    const end = sameMonth ? String(to.day) : shortDate(promise.to, locale);
    return `${shortDate(promise.from, locale)}–${end}`;
  }
  const start = sameMonth ? String(from.day) : shortDate(promise.from, locale);
  const end = `${to.day}/${pad2(to.month)}`;
  return locale === 'es' ? `entre el ${start} y el ${end}` : `entre ${start} e ${end}`;
}

const ARRIVES: Record<Locale, string> = { 'pt-BR': 'Chega', en: 'Arrives', es: 'Llega' };

/**
 * A rate's promise as every surface writes it (the calculator, the checkouts' descriptions, the MCP app, the agents'
 * text in English): "Chega até qua., 26/11" or "Chega entre 3 e 5/12", "Arrives by Wed, Nov 26" or "Arrives Dec 3–5",
 * "Llega a más tardar el mié., 26/11" or "Llega entre el 3 y el 5/12".
 */
export function arrivalText(promise: { from: string; to: string }, locale: Locale): string {
  return `${ARRIVES[locale]} ${promiseDates(promise, locale, weekdayDate)}`;
}

/** An option as the same-dates rule reads it: its name, what the shopper pays, and its promise's dates. */
export interface DatedOption {
  label: string;
  price: number;
  free?: boolean | undefined;
  promise?: { from: string; to: string } | undefined;
}

const SAME_DATES: Record<Locale, string> = {
  'pt-BR': 'mesmas datas por menos',
  en: 'same dates for less',
  es: 'mismas fechas por menos',
};

const paid = (option: DatedOption) => (option.free === true ? 0 : option.price);

/**
 * Where two services promise the same dates, the dearer one says so ("PAC: mesmas datas por menos"), so
 * nobody pays for speed that is not there: the cheapest option with the same `from` and `to` that costs less than
 * `option`, or undefined.
 */
export function sameDatesNote(
  option: DatedOption,
  options: readonly DatedOption[],
  locale: Locale,
): string | undefined {
  const { promise } = option;
  let cheaper: DatedOption | undefined;
  for (const other of options)
    if (
      other.promise?.from === promise?.from &&
      other.promise?.to === promise?.to &&
      paid(other) < paid(cheaper ?? option)
    )
      cheaper = other;
  return promise && cheaper ? `${cheaper.label}: ${SAME_DATES[locale]}` : undefined;
}
