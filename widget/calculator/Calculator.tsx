import { formatBRL } from '../../shared/money.ts';
import type { Rate } from '../../shared/quote.ts';
import type { Messages } from './messages.ts';
import type { CalculatorModel, View } from './model.ts';

export interface CalculatorProps {
  model: CalculatorModel;
  t: Messages;
  locale: string;
  /** Unique per element, for label/aria ids inside the shadow root. */
  id: string;
}

/** The shopper's flow: CEP field, submit, options (or an honest "no quote"), errors with a retry. */
export function Calculator({ model, t, locale, id }: CalculatorProps) {
  const view = model.view.value;
  const error = model.fieldError.value;
  const errorId = `${id}-error`;
  const loading = view.kind === 'loading';
  return (
    <div part="container" class="calculator" lang={locale}>
      <form
        part="form"
        class="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void model.quote();
        }}
      >
        <label part="label" for={`${id}-cep`} class="label">
          {t.cepLabel}
        </label>
        <div class="row">
          <input
            part="input"
            id={`${id}-cep`}
            class="input"
            type="text"
            inputMode="numeric"
            autoComplete="postal-code"
            placeholder="00000-000"
            maxLength={9}
            value={model.cep.value}
            aria-invalid={error ? 'true' : 'false'}
            aria-describedby={error ? errorId : undefined}
            onInput={(event) => model.setCep(event.currentTarget.value)}
          />
          <button part="button" class="button" type="submit" aria-busy={loading ? 'true' : 'false'}>
            {/* Both labels take space, one is hidden: the button never changes width. */}
            <span class={loading ? 'hidden' : ''}>{t.submit}</span>
            <span class={loading ? '' : 'hidden'}>{t.loading}</span>
          </button>
        </div>
        <p part="error" id={errorId} class="field-error" role={error ? 'alert' : undefined}>
          {error === 'invalid' ? t.invalidCep : error === 'unknown' ? t.unknownCep : ''}
        </p>
      </form>
      <p class="sr-only" role="status" aria-live="polite">
        {announce(view, t)}
      </p>
      <div part="results" class="results" aria-busy={loading ? 'true' : 'false'}>
        <Results view={view} model={model} t={t} locale={locale} id={id} />
      </div>
    </div>
  );
}

/** The honest "no quote" message: never a word of free shipping (spec 4.1 rule 1). */
function noQuoteMessage(reason: 'no_coverage' | 'merchant' | 'unknown', t: Messages): string {
  if (reason === 'no_coverage') return t.noCoverage;
  return reason === 'merchant' ? t.unavailable : t.noQuote;
}

/** What the live region says: one short sentence per state. */
function announce(view: View, t: Messages): string {
  switch (view.kind) {
    case 'idle':
      return '';
    case 'loading':
      return t.loading;
    case 'rates':
      return t.options(view.rates.length);
    case 'no-quote':
      return noQuoteMessage(view.reason, t);
    case 'unavailable':
      return t.unavailable;
    case 'busy':
      return t.busy;
    case 'network':
      return t.network;
  }
}

function Results({ view, model, t, locale, id }: CalculatorProps & { view: View }) {
  switch (view.kind) {
    case 'idle':
      return null;
    case 'loading':
      return (
        <p part="message" class="message loading">
          {t.loading}
        </p>
      );
    case 'rates':
      return <RateList rates={view.rates} model={model} t={t} locale={locale} id={id} />;
    case 'no-quote':
      return (
        <p part="message" class="message no-quote">
          {noQuoteMessage(view.reason, t)}
        </p>
      );
    case 'unavailable':
      return (
        <p part="message" class="message">
          {t.unavailable}
        </p>
      );
    case 'busy':
    case 'network':
      return (
        <div class="message">
          <p part="message">{view.kind === 'busy' ? t.busy : t.network}</p>
          <button part="retry" class="retry" type="button" onClick={() => void model.quote()}>
            {t.retry}
          </button>
        </div>
      );
  }
}

function RateList({ rates, model, t, locale, id }: CalculatorProps & { rates: Rate[] }) {
  const selected = model.selected.value;
  return (
    <fieldset part="options" class="options">
      <legend class="legend">{t.options(rates.length)}</legend>
      {rates.map((rate) => (
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
          <span part="option-days" class="option-days">
            {t.days(rate.deliveryDays)}
          </span>
          <span part="option-price" class={`option-price${rate.free === true ? ' free' : ''}`}>
            {/* The honesty rule: "Grátis" only for free: true; a price of 0 without it is shown as R$ 0,00. */}
            {rate.free === true ? t.free : formatBRL(rate.price, locale)}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
