import { LATE_WORDS, lateStepApplies, STALLED_WORDS } from '../../shared/parcel-story.ts';
import { promiseDates, shortDate } from '../../shared/promise-text.ts';
import type { TrackingEvent } from '../../shared/tracking.ts';
import type { TrackingLookupResult } from '../../shared/tracking-lookup.ts';
import type { TrackingMessages } from './messages.ts';
import type { TrackingModel } from './model.ts';
import { formatCarrierTimestamp, parcelState } from './status.ts';

export interface TrackingProps {
  model: TrackingModel;
  t: TrackingMessages;
  id: string;
}

/** The order form's two fields, each a label over an input; an empty one is flagged, as is a CEP not 8 digits. */
const ORDER_FIELDS = [
  {
    name: 'orderId',
    suffix: 'order',
    label: 'orderLabel',
    attrs: { autoComplete: 'off', spellcheck: false },
  },
  {
    name: 'cep',
    suffix: 'cep',
    label: 'cepLabel',
    attrs: { inputMode: 'numeric', autoComplete: 'postal-code', placeholder: '00000-000' },
  },
] as const;

/** The tracking forms (codes; or order number and CEP) and one card per code. */
export function Tracking({ model, t, id }: TrackingProps) {
  const view = model.view.value;
  const invalid = model.invalid.value;
  const problem = model.orderProblem.value;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const orderErrorId = `${id}-order-error`;
  const count = view.kind === 'results' ? view.items.length : 0;
  return (
    <div part="container" class="tracking">
      <form
        part="form"
        class="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void model.track();
        }}
      >
        <label part="label" class="label" for={`${id}-codes`}>
          {t.label}
        </label>
        <p id={hintId} class="hint">
          {t.hint}
        </p>
        <div class="row">
          <input
            part="input"
            class="input"
            id={`${id}-codes`}
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellcheck={false}
            placeholder="AA123456785BR"
            value={model.text.value}
            aria-invalid={invalid ? 'true' : 'false'}
            aria-describedby={invalid ? `${hintId} ${errorId}` : hintId}
            onInput={(event) => model.setText(event.currentTarget.value)}
          />
          <button part="button" class="button" type="submit">
            {t.submit}
          </button>
        </div>
        <p part="error" id={errorId} class="field-error" role={invalid ? 'alert' : undefined}>
          {invalid === 'empty' ? t.empty : invalid ? t.invalid(invalid.join(', ')) : ''}
        </p>
      </form>
      <form
        part="order-form"
        class="form order-form"
        noValidate
        aria-label={t.orderTitle}
        onSubmit={(event) => {
          event.preventDefault();
          void model.findOrder();
        }}
      >
        <p class="label">{t.orderTitle}</p>
        <div class="row">
          {ORDER_FIELDS.map(({ name, suffix, label, attrs }) => (
            <span key={name} class={name === 'cep' ? 'field field-cep' : 'field'}>
              <label class="hint" for={`${id}-${suffix}`}>
                {t[label]}
              </label>
              <input
                part={`input ${suffix}-input`}
                class="input input-plain"
                id={`${id}-${suffix}`}
                type="text"
                {...attrs}
                value={model[name].value}
                aria-invalid={
                  (problem === 'empty' ? !model[name].value.trim() : problem === name) ? 'true' : 'false'
                }
                aria-describedby={problem ? orderErrorId : undefined}
                onInput={(event) => model.setOrder(name, event.currentTarget.value)}
              />
            </span>
          ))}
          <button part="button order-button" class="button button-end" type="submit">
            {t.orderSubmit}
          </button>
        </div>
        <p part="error" id={orderErrorId} class="field-error" role={problem ? 'alert' : undefined}>
          {problem === 'empty' ? t.orderEmpty : problem === 'cep' ? t.cepInvalid : ''}
        </p>
      </form>
      <p class="sr-only" role="status" aria-live="polite">
        {view.kind === 'loading' ? t.loading : view.kind === 'results' ? t.results(count) : ''}
      </p>
      <div part="results" class="results" aria-busy={view.kind === 'loading' ? 'true' : 'false'}>
        {view.kind === 'loading' && <p class="message">{t.loading}</p>}
        {view.kind === 'error' && (
          <div class="message" role="alert">
            <p>{t[view.error]}</p>
            {view.error !== 'orderNotFound' && (
              <button part="retry" class="retry" type="button" onClick={() => void model.retry()}>
                {t.retry}
              </button>
            )}
          </div>
        )}
        {view.kind === 'results' && view.orderId && (
          <h2 part="order-heading" class="order-heading">
            {t.order(view.orderId)}
          </h2>
        )}
        {view.kind === 'results' &&
          view.items.map((item) =>
            item.kind === 'result' ? (
              <Card key={item.result.code} result={item.result} t={t} />
            ) : (
              <InvalidCard key={`invalid-${item.code}`} code={item.code} t={t} />
            ),
          )}
      </div>
    </div>
  );
}

/** A code that failed the check digit, flagged on its own card: the other codes were looked up. */
function InvalidCard({ code, t }: { code: string; t: TrackingMessages }) {
  const headingId = `card-invalid-${code.replace(/[^A-Z0-9]/gi, '')}`;
  return (
    <article part="card" class="card card-invalid" aria-labelledby={headingId}>
      <header class="card-head">
        <h2 id={headingId} class="code">
          {code}
        </h2>
        <span part="badge" class="badge badge-invalid">
          {t.invalidBadge}
        </span>
      </header>
      <p part="next" class="next">
        {t.invalidNext}
      </p>
    </article>
  );
}

function Card({ result, t }: { result: TrackingLookupResult; t: TrackingMessages }) {
  const { status, event } = parcelState(result);
  const words = t.status[status];
  // `late` comes from the BFF (its clock, shared/parcel-story.ts), the function the e-mails read too.
  const late = result.late === true;
  // Stalled: what the stall e-mail said (the watcher's state), unless late says more.
  const stalled = !late && result.stalled === true;
  const lateWords = LATE_WORDS[t.locale];
  const where = status === 'awaiting-pickup' ? event?.origin : undefined;
  const since =
    status === 'awaiting-pickup' && event?.timestamp
      ? t.since(formatCarrierTimestamp(event.timestamp, t.at, t.yearFirst))
      : '';
  return (
    <article part="card" class={`card card-${status}`} aria-labelledby={`card-${result.code}`}>
      <header class="card-head">
        <h2 id={`card-${result.code}`} class="code">
          {result.code}
        </h2>
        <span part="badge" class={`badge badge-${late ? 'late' : stalled ? 'stalled' : status}`}>
          {late ? lateWords.badge : stalled ? STALLED_WORDS[t.locale].badge : words.badge}
        </span>
      </header>
      {event && (
        <p part="headline" class="headline">
          {event.description}
        </p>
      )}
      <p part="next" class="next">
        {lateStepApplies({ status, late })
          ? lateWords.next
          : stalled
            ? STALLED_WORDS[t.locale].next
            : words.next(where)}
        {since && ` ${since}`}
      </p>
      {result.promise && (
        <p part="promise" class="promise">
          {t.promise(promiseDates(result.promise, t.locale, shortDate))}
        </p>
      )}
      {result.stale && (
        <p part="stale" class="stale">
          {t.stale}
        </p>
      )}
      {result.events.length > 0 && (
        <section>
          <h3 class="timeline-title">{t.timeline}</h3>
          <ol part="timeline" class="timeline">
            {result.events.map((item, index) => (
              <Event key={`${index}-${item.code}`} event={item} t={t} />
            ))}
          </ol>
          {/* Carrier codes are for the store and support, not the shopper: folded away. */}
          <details part="details" class="details">
            <summary>{t.details}</summary>
            <ul class="details-list">
              {result.events.map((item, index) => (
                <li key={`${index}-${item.code}`}>
                  <code>{item.type ? `${item.code}/${item.type}` : item.code}</code> {item.timestamp ?? ''}{' '}
                  {item.description}
                </li>
              ))}
            </ul>
          </details>
        </section>
      )}
    </article>
  );
}

function Event({ event, t }: { event: TrackingEvent; t: TrackingMessages }) {
  const route = [event.origin, event.destination].filter(Boolean).join(' → ');
  return (
    <li class="event">
      <p class="event-description">{event.description}</p>
      {/* spec 2.3: the carrier's clock reading as written; no time zone is assumed or converted. */}
      {event.timestamp && (
        <p class="event-time">{formatCarrierTimestamp(event.timestamp, t.at, t.yearFirst)}</p>
      )}
      {route && <p class="event-route">{route}</p>}
    </li>
  );
}
