import { arrivalDate, isoDate, MAX_ARRIVAL_BUSINESS_DAYS } from '../../shared/business-days.ts';
import type { DeliveryPromise as StorePromise } from '../../shared/delivery-promise.ts';
import type { Locale } from '../../shared/locale.ts';
import { formatBRL, roundCents } from '../../shared/money.ts';
import { arrivalText, sameDatesNote } from '../../shared/promise-text.ts';
import type { Rate } from '../../shared/quote.ts';
import { ufOfCep } from '../../shared/uf.ts';
import type { CalculatorMessages } from './messages.ts';
import type { CalculatorModel, View } from './model.ts';
import type { Promises } from './promises.ts';

export interface CalculatorProps {
  model: CalculatorModel;
  t: CalculatorMessages;
  locale: string;
  /** Unique per element, for label/aria ids inside the shadow root. */
  id: string;
  /** The merchant's settings from the element's attributes. */
  prefs: CalculatorPrefs;
  /** The store's promises from its BFF, when the element has a `promises-url`. */
  promises?: Promises | undefined;
}

/** What the merchant tells the element about its store (attributes `handling-days`, `cutoff`, `free-shipping-from`). */
export interface CalculatorPrefs {
  /**
   * Whether the store said when it posts (`handling-days` or `cutoff`): then each option promises its arrival date;
   * otherwise the carrier's "até N dias úteis". Never both: one promise per option.
   */
  dated: boolean;
  handlingDays: number;
  cutoffMinutes: number | undefined;
  /** The subtotal (BRL) from which the store offers free shipping: a hint only, "Grátis" comes from `free: true`. */
  freeFrom: number | undefined;
  /** The clock, for the arrival date (injectable in tests). */
  now: () => number;
}

/** What the live region says: one short sentence per state (the results area shows the same words). */
export function announce(view: View, t: CalculatorMessages, locale: string): string {
  switch (view.kind) {
    case 'idle':
      return '';
    case 'rates':
      return t.options(view.rates.length);
    case 'from':
      // "Grátis" only for free: true (spec 4.1 rule 1), as on an option
      return t.from(view.rate.free === true ? undefined : formatBRL(view.rate.price, locale));
    case 'no-quote':
      // the honest "no quote": never a word of free shipping (spec 4.1 rule 1)
      if (view.reason === 'no_coverage') return t.noCoverage;
      return view.reason === 'merchant' ? t.unavailable : t.noQuote;
    default:
      return t[view.kind];
  }
}

/**
 * The results area: the options (or an honest "no quote", a from-price, an error with a retry). Preact renders it
 * alone; the form above it stays the plain HTML of the first paint (skeleton.ts), kept in step by app.tsx.
 */
export function Results({ view, ...props }: CalculatorProps & { view: View }) {
  const { model, t, locale } = props;
  switch (view.kind) {
    case 'idle':
      return null;
    case 'rates':
      return <RateList rates={view.rates} {...props} />;
    case 'from':
      return (
        <p part="from-price" class="message from">
          {announce(view, t, locale)}
        </p>
      );
    case 'busy':
    case 'carrier':
    case 'network':
      return (
        <div class="message">
          <p part="message">{t[view.kind]}</p>
          <button part="retry" class="retry" type="button" onClick={() => void model.quote()}>
            {t.retry}
          </button>
        </div>
      );
    default:
      return (
        <p part="message" class={view.kind === 'unavailable' ? 'message' : `message ${view.kind}`}>
          {announce(view, t, locale)}
        </p>
      );
  }
}

function RateList({ rates, model, t, locale, id, prefs, promises }: CalculatorProps & { rates: Rate[] }) {
  const selected = model.selected.value;
  const cep = model.quotedCep.value;
  const uf = ufOfCep(cep);
  const now = prefs.now();
  // Each option's one promise, so one with the same dates as a cheaper one says so (shared/promise-text.ts).
  const dated = rates.map((rate) => ({
    ...rate,
    promise: shownPromise(rate, prefs, now, promises?.of(cep, rate)),
  }));
  return (
    <fieldset part="options" class="options">
      <legend class="legend">
        {t.options(rates.length)}
        {uf ? <span part="destination"> · {t.deliverTo(uf)}</span> : null}
      </legend>
      {rates.map((rate, index) => {
        const shown = dated[index]?.promise;
        const note = sameDatesNote(dated[index] ?? rate, dated, locale as Locale);
        return (
          <label
            part="option"
            class={`option${selected === rate.serviceId ? ' selected' : ''}`}
            key={rate.serviceId}
          >
            <input
              type="radio"
              name={`${id}-rate`}
              value={rate.serviceId}
              checked={selected === rate.serviceId}
              onChange={() => model.select(rate)}
            />
            <span part="option-label" class="option-label">
              {rate.label}
            </span>
            {/* One promise per option (shownPromise): its dates, else the carrier's business days. */}
            {shown ? (
              <span part="option-arrival" class="option-promise" data-basis={shown.basis}>
                {arrivalText(shown, locale as Locale)}
              </span>
            ) : (
              <span part="option-days" class="option-promise">
                {t.days(rate.deliveryDays)}
              </span>
            )}
            {note && (
              <span part="option-same" class="option-same">
                {note}
              </span>
            )}
            <span part="option-price" class={`option-price${rate.free === true ? ' free' : ''}`}>
              {/* The honesty rule: "Grátis" only for free: true; a price of 0 without it is shown as R$ 0,00. */}
              {rate.free === true ? t.free : formatBRL(rate.price, locale)}
            </span>
          </label>
        );
      })}
      <Progress rates={rates} model={model} t={t} locale={locale} prefs={prefs} />
    </fieldset>
  );
}

/**
 * One promise per option: the store's own when its BFF gave one (`promises-url`: learnt from its parcels, its handling
 * days and cut-off included), else the arrival date when the store said when it posts (handling days, cut-off), else
 * none (the carrier's business days) — never two, so they cannot disagree.
 */
function shownPromise(
  rate: Rate,
  prefs: CalculatorPrefs,
  now: number,
  promise: StorePromise | undefined,
): { from: string; to: string; basis?: StorePromise['basis'] } | undefined {
  if (promise) return promise;
  const date = prefs.dated ? arrivalOf(rate, prefs, now) : undefined;
  return date ? { from: date, to: date } : undefined;
}

/**
 * The latest arrival (`YYYY-MM-DD`) in São Paulo business days, handling days and cut-off included; none beyond
 * `MAX_ARRIVAL_BUSINESS_DAYS` (the option then shows "até N dias úteis", what the platform said).
 */
export function arrivalOf(rate: Rate, prefs: CalculatorPrefs, now: number): string | undefined {
  if (!(rate.deliveryDays + prefs.handlingDays <= MAX_ARRIVAL_BUSINESS_DAYS)) return undefined;
  return isoDate(arrivalDate({ ...prefs, now, deliveryDays: rate.deliveryDays }));
}

/**
 * "Faltam R$ 59,20 para frete grátis": a hint from the merchant's threshold, only while no option is free and the
 * cart is below it. It never makes an option free (spec 4.1 rule 1: only `free: true` does).
 */
function Progress({
  rates,
  model,
  t,
  locale,
  prefs,
}: Pick<CalculatorProps, 'model' | 't' | 'locale' | 'prefs'> & { rates: Rate[] }) {
  const from = prefs.freeFrom;
  if (from === undefined || rates.some((rate) => rate.free === true)) return null;
  const subtotal = model.quotedItems.value.reduce((sum, item) => sum + item.quantity * item.unitPriceBRL, 0);
  const missing = roundCents(from - roundCents(subtotal));
  if (missing <= 0) return null;
  return (
    <p part="progress" class="progress">
      {t.missing(formatBRL(missing, locale))}
    </p>
  );
}
