import * as z from 'zod/mini';
import { formatCep, normalizeCep } from '../../../shared/cep.ts';
import type { Locale } from '../../../shared/locale.ts';
import {
  type PlannedVolume,
  PlanShipmentOutputSchema,
  PlanShipmentRefusalSchema,
} from '../../../shared/packing/plan.ts';
import { RateSchema } from '../../../shared/quote.ts';
import { ReasonSchema } from '../../../shared/reason-schema.ts';
import { ufOfCep } from '../../../shared/uf.ts';
import { formatDimensions, formatMoney, formatWeight } from '../format.ts';
import { type Messages, reasonName } from '../messages.ts';
import { callApi, errorOf } from './api.ts';
import { fillFromCep } from './cep.ts';
import { declaredValue, labelRequests, type OrderLine, partyFrom, planRequest, resultOf } from './order.ts';
import { rememberSender, restoreSender } from './sender.ts';
import { element, failureText, once, required, say } from './ui.ts';

const ITEM_FIELDS = ['id', 'comprimento', 'largura', 'altura', 'weightGrams', 'quantity', 'valor'] as const;

/** The desk's quote (`POST /admin/api/quote`): the platform's rates, each with its contract code when it is mapped. */
const DeskQuoteSchema = z.looseObject({
  rates: z.array(z.extend(RateSchema, { serviceCode: z.optional(z.string()) })),
  reason: z.optional(ReasonSchema),
});
type DeskRate = z.infer<typeof DeskQuoteSchema>['rates'][number];

/**
 * The issue form (`/admin/labels/new`): items → plan → quote → service → recipient and sender → one label per volume
 * → one PDF. Each step opens when the one before it answered, and takes the focus (its heading); changing what a
 * step was computed from closes the steps after it, so a label is never issued for a stale plan or quote.
 */
export class IssueForm {
  private readonly form: HTMLFormElement;
  private readonly t: Messages;
  private readonly lang: Locale;
  private readonly items: HTMLElement;
  private readonly error: HTMLElement;
  private readonly progress: HTMLElement;
  private volumes: PlannedVolume[] = [];
  private rates: DeskRate[] = [];

  constructor(form: HTMLFormElement, t: Messages, lang: Locale) {
    this.form = form;
    this.t = t;
    this.lang = lang;
    this.items = required(form, '[data-items]');
    this.error = required(form, '[data-error]');
    this.progress = required(form, '[data-progress]');
  }

  mount(): void {
    const { form } = this;
    restoreSender(this.form);
    required<HTMLButtonElement>(form, '[data-add-item]').addEventListener('click', () => this.addItem());
    this.items.addEventListener('click', (event) => {
      const button = (event.target as Element).closest('[data-remove-item]');
      if (button) this.removeItem(button.closest<HTMLElement>('[data-item]'));
    });
    this.items.addEventListener('input', () => this.closeFrom('quote'));
    required<HTMLInputElement>(form, '#recipient-cep').addEventListener('input', () =>
      this.closeFrom('parties'),
    );
    form.addEventListener('input', (event) => (event.target as Element).removeAttribute('aria-invalid'));
    const plan = required<HTMLButtonElement>(form, '[data-plan]');
    plan.addEventListener('click', () => once(plan, () => this.plan()));
    const quote = required<HTMLButtonElement>(form, '[data-quote]');
    quote.addEventListener('click', () => once(quote, () => this.quote()));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void once(required(form, '[data-issue]'), () => this.issue());
    });
    this.renumber();
  }

  // Items

  private rows(): HTMLElement[] {
    return [...this.items.querySelectorAll<HTMLElement>('[data-item]')];
  }

  private addItem(): void {
    const first = this.rows()[0];
    if (!first) return;
    const row = first.cloneNode(true) as HTMLElement;
    for (const input of row.querySelectorAll('input')) {
      input.value = input.dataset.field === 'quantity' ? '1' : '';
      input.removeAttribute('aria-invalid');
    }
    this.items.append(row);
    this.renumber();
    this.closeFrom('quote');
    row.querySelector('input')?.focus();
  }

  private removeItem(row: HTMLElement | null): void {
    const rows = this.rows();
    if (!row || rows.length < 2) return;
    const index = rows.indexOf(row);
    row.remove();
    this.renumber();
    this.closeFrom('quote');
    const next = this.rows()[Math.min(index, this.rows().length - 1)];
    next?.querySelector('input')?.focus();
  }

  /** Numbers the lines 1…n again: legends, ids, labels and the remove buttons' names. */
  private renumber(): void {
    const rows = this.rows();
    rows.forEach((row, i) => {
      const n = i + 1;
      const legend = row.querySelector('legend');
      if (legend) legend.textContent = this.t.itemLegend(n);
      for (const field of ITEM_FIELDS) {
        const input = row.querySelector<HTMLInputElement>(`[data-field="${field}"]`);
        const label = input ? row.querySelector(`label[for="${input.id}"]`) : null;
        if (!input) continue;
        input.id = `item-${n}-${field}`;
        label?.setAttribute('for', input.id);
      }
      const remove = row.querySelector<HTMLButtonElement>('[data-remove-item]');
      if (remove) {
        remove.textContent = this.t.removeItem(n);
        remove.hidden = rows.length < 2;
      }
    });
  }

  private lines(): OrderLine[] {
    return this.rows().map((row) => {
      const value = (field: string) => row.querySelector<HTMLInputElement>(`[data-field="${field}"]`);
      const number = (field: string) => value(field)?.valueAsNumber ?? Number.NaN;
      return {
        id: value('id')?.value.trim() ?? '',
        comprimento: number('comprimento'),
        largura: number('largura'),
        altura: number('altura'),
        weightGrams: number('weightGrams'),
        quantity: number('quantity'),
        valor: number('valor'),
      };
    });
  }

  // Steps

  private step(name: 'quote' | 'parties' | 'results'): HTMLElement {
    return required(this.form, `[data-step="${name}"]`);
  }

  /** Opens a step and moves the focus to its heading, so a screen reader reads where the merchant now is. */
  private open(name: 'quote' | 'parties' | 'results', focus = true): void {
    const step = this.step(name);
    step.hidden = false;
    if (focus) step.querySelector<HTMLElement>('h2')?.focus();
  }

  /** Closes a step and those after it (what they showed was computed from something that changed). */
  private closeFrom(name: 'quote' | 'parties' | 'results'): void {
    const order = ['quote', 'parties', 'results'] as const;
    for (const step of order.slice(order.indexOf(name))) this.step(step).hidden = true;
    if (name === 'quote') {
      this.volumes = [];
      required(this.form, '[data-plan-result]').replaceChildren();
    }
    if (name === 'quote' || name === 'parties') {
      this.rates = [];
      required(this.form, '[data-quote-result]').replaceChildren();
    }
  }

  /** Checks the given fields natively; the first invalid one is focused and its message shown. */
  private valid(fields: Iterable<HTMLInputElement | HTMLSelectElement>): boolean {
    for (const field of fields) {
      if (!field.checkValidity()) {
        field.setAttribute('aria-invalid', 'true');
        field.reportValidity();
        field.focus();
        return false;
      }
    }
    return true;
  }

  private fail(text: string, field?: string): void {
    this.error.textContent = text;
    const input = field ? this.fieldInput(field) : undefined;
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
  }

  /** The input a refusal's field names: `items.0.altura`, `recipient.endereco.cep`, … */
  private fieldInput(path: string): HTMLInputElement | undefined {
    const item = /^items\.(\d+)\.(\w+)$/.exec(path);
    if (item) {
      const row = this.rows()[Number(item[1])];
      return row?.querySelector<HTMLInputElement>(`[data-field="${item[2]}"]`) ?? undefined;
    }
    return this.form.querySelector<HTMLInputElement>(`[name="${CSS.escape(path)}"]`) ?? undefined;
  }

  private clearError(): void {
    this.error.textContent = '';
  }

  // 1. Plan

  private async plan(): Promise<void> {
    this.clearError();
    const fields = [
      required<HTMLInputElement>(this.form, '#order-id'),
      ...this.items.querySelectorAll('input'),
    ];
    if (!this.valid(fields)) return;
    this.closeFrom('quote');
    say(this.progress, this.t.planning);
    try {
      const answer = await callApi('/admin/api/plan', planRequest(this.lines()));
      const refusal = PlanShipmentRefusalSchema.safeParse(answer.body);
      if (refusal.success) {
        const row = this.lines().findIndex((line) => line.id === refusal.data.itemId);
        this.fail(
          `${reasonName(this.t, refusal.data.reason)} ${refusal.data.message}`,
          row >= 0 ? `items.${row}.id` : undefined,
        );
        return;
      }
      const error = errorOf(answer.body);
      if (error) {
        this.fail(this.t.failed(error.message), error.field);
        return;
      }
      this.volumes = PlanShipmentOutputSchema.parse(answer.body).volumes;
      this.showPlan();
      required<HTMLButtonElement>(this.form, '[data-issue]').textContent = this.t.issue(this.volumes.length);
      say(this.progress, this.t.planned(this.volumes.length));
      this.open('quote');
    } catch (error) {
      this.fail(failureText(this.t, error));
    }
  }

  private showPlan(): void {
    const { t, lang, volumes } = this;
    const summary = element('p', '', t.planned(volumes.length));
    const list = element('ol', 'volumes');
    volumes.forEach((volume, i) => {
      const title = element('strong', '', t.volumeTitle(i + 1, volumes.length, volume.box));
      const weight = formatWeight(volume.weightGrams, lang);
      const size = t.volumeDetail(weight, formatDimensions(volume.dimensions, lang));
      const contents = volume.items.map((line) => `${line.quantity} × ${line.id}`).join(', ');
      const item = element('li');
      item.append(title, element('span', '', ` — ${size}. ${t.volumeContents(contents)}`));
      list.append(item);
    });
    required(this.form, '[data-plan-result]').replaceChildren(summary, list);
  }

  // 2. Quote

  private async quote(): Promise<void> {
    this.clearError();
    const cep = required<HTMLInputElement>(this.form, '#recipient-cep');
    if (!this.valid([cep])) return;
    const digits = normalizeCep(cep.value);
    if (!digits) {
      this.fail(this.t.failed(this.t.cep), 'recipient.endereco.cep');
      return;
    }
    this.closeFrom('parties');
    say(this.progress, this.t.quoting);
    try {
      const answer = await callApi('/admin/api/quote', {
        destinationCep: digits,
        volumes: this.volumes.map((volume) => ({ weightGrams: volume.weightGrams })),
        declaredValue: declaredValue(this.lines()),
      });
      const error = errorOf(answer.body);
      if (error) {
        this.fail(this.t.failed(error.message), 'recipient.endereco.cep');
        return;
      }
      const response = DeskQuoteSchema.parse(answer.body);
      this.rates = response.rates;
      if (this.rates.length === 0) {
        this.fail(this.t.noQuote(response.reason ?? this.t.none));
        return;
      }
      this.showRates();
      this.prefillRecipient(digits);
      this.open('parties', false);
      say(this.progress, this.t.rated(this.rates.length));
      this.form.querySelector<HTMLInputElement>('input[name="serviceId"]:not(:disabled)')?.focus();
    } catch (error) {
      this.fail(failureText(this.t, error));
    }
  }

  private showRates(): void {
    const { t, lang } = this;
    const fieldset = element('fieldset', 'rate-list');
    fieldset.append(element('legend', '', t.fieldService));
    this.rates.forEach((rate, i) => {
      const row = element('div', rate.serviceCode ? 'check' : 'check unavailable');
      const input = element('input');
      input.type = 'radio';
      input.name = 'serviceId';
      input.value = rate.serviceId;
      input.id = `rate-${i}`;
      input.required = true;
      input.disabled = !rate.serviceCode;
      const label = element('label');
      label.htmlFor = input.id;
      const price = rate.free ? t.rateFree : formatMoney(rate.price, lang);
      label.textContent = rate.serviceCode
        ? `${t.rateLine(rate.label, price, rate.deliveryDays, this.volumes.length)} (${rate.serviceCode})`
        : t.rateUnmapped(rate.serviceId);
      row.append(input, label);
      fieldset.append(row);
    });
    required(this.form, '[data-quote-result]').replaceChildren(fieldset);
  }

  /**
   * The recipient's CEP is the quote's; its UF follows from it at once when the merchant has not written one, and the
   * street, neighbourhood and city from the CEP service (the fields the merchant left empty).
   */
  private prefillRecipient(cep: string): void {
    required(this.form, '[data-recipient-cep]').textContent = this.t.recipientCep(formatCep(cep));
    const uf = required<HTMLInputElement>(this.form, '#recipient-endereco-uf');
    if (!uf.value) uf.value = ufOfCep(cep) ?? '';
    void fillFromCep(cep, (name) => this.form.querySelector<HTMLInputElement>(`#recipient-endereco-${name}`));
  }

  // 3. Issue

  private value = (name: string): string =>
    this.form.querySelector<HTMLInputElement>(`[name="${CSS.escape(name)}"]`)?.value ?? '';

  private async issue(): Promise<void> {
    this.clearError();
    const service = this.form.querySelector<HTMLInputElement>('input[name="serviceId"]:checked');
    if (!service) {
      const first = this.form.querySelector<HTMLInputElement>('input[name="serviceId"]:not(:disabled)');
      this.fail(this.t.pickService);
      first?.focus();
      return;
    }
    if (!this.valid(this.step('parties').querySelectorAll('input'))) return;
    rememberSender(this.form);
    const requests = labelRequests(
      {
        orderId: this.value('orderId').trim(),
        serviceId: service.value,
        sender: partyFrom(this.value, 'sender'),
        recipient: partyFrom(this.value, 'recipient'),
        lines: this.lines(),
      },
      this.volumes,
    );
    const list = required(this.form, '[data-results]');
    list.replaceChildren();
    this.step('results').hidden = false;
    const printable: string[] = [];
    for (const [i, request] of requests.entries()) {
      say(this.progress, this.t.issuing(i + 1, requests.length));
      let line: HTMLLIElement;
      try {
        const answer = await callApi('/admin/api/labels', request);
        const result = resultOf(this.t, i + 1, requests.length, answer.status, answer.body);
        if ((result.kind === 'created' || result.kind === 'replayed') && result.attemptId) {
          printable.push(result.attemptId);
        }
        line = this.resultLine(result);
        // The field a refusal names is marked without moving the focus: the results are being read.
        if (result.kind === 'refused' && result.field && i === 0) {
          this.fieldInput(result.field)?.setAttribute('aria-invalid', 'true');
        }
      } catch (error) {
        line = element('li', 'refused', failureText(this.t, error));
      }
      list.append(line);
    }
    const summary = this.t.issuedSummary(printable.length, requests.length);
    required(this.form, '[data-results-summary]').textContent = summary;
    const print = required<HTMLAnchorElement>(this.form, '[data-print-created]');
    print.hidden = printable.length === 0;
    print.href = `/admin/api/labels/print?ids=${printable.map(encodeURIComponent).join(',')}`;
    print.textContent = `${this.t.printCreated(printable.length)} `;
    print.append(element('span', 'visually-hidden', this.t.newTab));
    say(this.progress, summary);
    this.open('results');
  }

  private resultLine(result: ReturnType<typeof resultOf>): HTMLLIElement {
    const line = element('li', result.kind, result.text);
    if (result.detail) {
      const detail = element('span', 'hint', ` ${result.detail}`);
      // A refusal before sending is told in the BFF's words, which are English (the agents read them too).
      if (result.kind === 'refused') detail.lang = 'en';
      line.append(detail);
    }
    if (result.field) line.append(` ${this.t.resultField(result.field)}`);
    if (result.attemptId && result.kind !== 'created' && result.kind !== 'replayed') {
      const link = element('a', '', this.t.openAttempt);
      link.href = `/admin/labels/${result.attemptId}`;
      line.append(' ', link);
    }
    return line;
  }
}
