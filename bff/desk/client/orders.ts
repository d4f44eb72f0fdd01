import * as z from 'zod/mini';
import { CsvFileRefusalSchema, CsvRefusalSchema } from '../../../shared/orders/csv-problem.ts';
import type { Messages } from '../messages.ts';
import type { OrderMessages } from '../order-messages.ts';
import { callApi, errorOf } from './api.ts';
import { fillFromCep } from './cep.ts';
import { partyFrom } from './order.ts';
import { rememberSender, restoreSender } from './sender.ts';
import {
  answerOf,
  element,
  enableScriptControls,
  failureText,
  once,
  required,
  say,
  selectAll,
} from './ui.ts';

/** `POST /admin/api/orders/labels`: each order's volumes, or why none was sent. */
const BatchSchema = z.object({
  results: z.array(
    z.object({
      orderId: z.string(),
      volumes: z.array(
        z.object({
          volume: z.number(),
          status: z.number(),
          answer: z.looseObject({
            attemptId: z.optional(z.string()),
            prepostagemId: z.optional(z.string()),
            reason: z.optional(z.string()),
            status: z.optional(z.string()),
          }),
        }),
      ),
      refused: z.optional(z.object({ reason: z.string(), message: z.string() })),
    }),
  ),
});

const ImportSchema = z.object({
  imported: z.optional(z.number()),
  orders: z.optional(z.array(z.object({ orderId: z.string() }))),
  refused: z.array(CsvRefusalSchema),
});

/**
 * The orders page (`/admin/orders`): the selection issued in one action (every volume of each order, through the
 * ledger: a second click answers the same labels), then one link prints every label of it as one PDF; the CSV import
 * previewed and imported with its report; the tracking resent to a store.
 */
export function mountOrders(t: Messages, o: OrderMessages): void {
  const form = document.querySelector<HTMLFormElement>('[data-orders-form]');
  if (form) mountIssue(form, t, o);
  const importForm = document.querySelector<HTMLFormElement>('[data-import-form]');
  if (importForm) mountImport(importForm, t, o);
  const presetForm = document.querySelector<HTMLFormElement>('[data-preset-form]');
  if (presetForm) mountPreset(presetForm, t, o);
}

/** A product's weight and sizes saved (`POST /admin/api/products`); the next orders of it are packed with them. */
function mountPreset(form: HTMLFormElement, t: Messages, o: OrderMessages): void {
  const status = required(form, '[data-preset-status]');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void once(required(form, '[data-save-preset]'), async () => {
      const value = (name: string) =>
        form.querySelector<HTMLInputElement>(`[name="${name}"]`)?.value.trim() ?? '';
      const sides = ['preset-length', 'preset-width', 'preset-height'].map((name) => Number(value(name)));
      const [comprimento = 0, largura = 0, altura = 0] = sides;
      const key = value('key');
      const body = {
        key,
        ...(value('preset-weight') ? { weightGrams: Number(value('preset-weight')) } : {}),
        ...(sides.every((side) => side > 0) ? { dimensions: { comprimento, largura, altura } } : {}),
      };
      const answer = await answerOf(t, status, '/admin/api/products', body);
      if (!answer) return;
      const error = errorOf(answer.body);
      say(status, error ? error.message : o.presetSaved(key), Boolean(error));
    });
  });
}

/**
 * The orders' rows as the server renders them now: the page fetched again and its table swapped in, so the operator
 * sees the labels and states an action made without reloading (and without losing the status line or the print link).
 */
async function refreshRows(): Promise<void> {
  const table = document.querySelector('[data-orders-table]');
  if (!table) return;
  const res = await fetch(window.location.href, {
    credentials: 'same-origin',
    headers: { accept: 'text/html' },
  });
  if (!res.ok) return;
  const fresh = new DOMParser()
    .parseFromString(await res.text(), 'text/html')
    .querySelector('[data-orders-table]');
  if (fresh) table.replaceChildren(...[...fresh.childNodes].map((node) => document.importNode(node, true)));
  enableScriptControls(table);
  table.dispatchEvent(new CustomEvent('rows-refreshed', { bubbles: true }));
}

function mountIssue(form: HTMLFormElement, t: Messages, o: OrderMessages): void {
  const button = required<HTMLButtonElement>(form, '[data-issue-orders]');
  const status = required(form, '[data-orders-status]');
  const results = required(form, '[data-orders-results]');
  const print = required<HTMLAnchorElement>(form, '[data-print-orders]');
  const boxes = () => [...form.querySelectorAll<HTMLInputElement>('input[data-select-order]')];
  const bind = () =>
    selectAll(form.querySelector<HTMLInputElement>('input[data-select-all-orders]'), boxes(), (chosen) => {
      button.textContent = chosen === 0 ? o.issueSelected : o.issueCount(chosen);
    });
  bind();
  form.addEventListener('rows-refreshed', bind);
  restoreSender(form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void once(button, async () => {
      const orderIds = boxes()
        .filter((box) => box.checked)
        .map((box) => box.value);
      if (orderIds.length === 0) return say(status, o.issueNone, true);
      rememberSender(form);
      const value = (name: string) =>
        form.querySelector<HTMLInputElement>(`[name="${CSS.escape(name)}"]`)?.value ?? '';
      say(status, o.issuing);
      const answer = await answerOf(t, status, '/admin/api/orders/labels', {
        orderIds,
        sender: partyFrom(value, 'sender'),
      });
      if (!answer) return;
      const error = errorOf(answer.body);
      if (error) return say(status, t.failed(error.message), true);
      const batch = BatchSchema.parse(answer.body);
      const printable: string[] = [];
      const lines: HTMLElement[] = [];
      let refused = 0;
      for (const result of batch.results) {
        if (result.refused) {
          refused += 1;
          lines.push(
            element(
              'li',
              'error',
              o.orderRefused(result.orderId, o.refusedWhy[result.refused.reason] ?? result.refused.message),
            ),
          );
          continue;
        }
        for (const volume of result.volumes) {
          if (volume.answer.prepostagemId && volume.answer.attemptId) printable.push(volume.answer.attemptId);
          else
            lines.push(
              element(
                'li',
                'error',
                o.volumeRefused(
                  result.orderId,
                  volume.volume,
                  volume.answer.status ?? volume.answer.reason ?? '',
                ),
              ),
            );
        }
      }
      results.replaceChildren(...lines);
      say(status, o.issuedSummary(printable.length, refused), refused > 0);
      if (printable.length > 0) {
        print.href = `/admin/api/labels/print?ids=${printable.map(encodeURIComponent).join(',')}`;
        print.textContent = o.printIssued(printable.length);
        print.hidden = false;
        required<HTMLElement>(form, '[data-print-help]').hidden = false;
        print.focus();
      }
      // The rows show their labels and states now (the printed link stays: it is outside the table).
      await refreshRows().catch(() => {
        required<HTMLElement>(form, '[data-refresh]').hidden = false;
      });
    });
  });
  form.addEventListener('click', (event) => {
    const resend = (event.target as Element).closest<HTMLButtonElement>('[data-resend-tracking]');
    if (!resend) return;
    void once(resend, async () => {
      const orderId = resend.dataset.resendTracking ?? '';
      const path = `/admin/api/orders/${encodeURIComponent(orderId)}/tracking/resend`;
      const answer = await answerOf(t, status, path, {});
      if (answer?.status === 200) resend.replaceWith(o.tracking.pending ?? '');
    });
  });
}

function mountImport(form: HTMLFormElement, t: Messages, o: OrderMessages): void {
  const file = required<HTMLInputElement>(form, '[data-import-file]');
  const status = required(form, '[data-import-status]');
  const results = required(form, '[data-import-results]');
  const send = async (preview: boolean) => {
    const chosen = file.files?.[0];
    if (!chosen) return say(status, o.noFile, true);
    let answer: Awaited<ReturnType<typeof callApi>>;
    try {
      answer = await callApi(
        `/admin/api/orders/import${preview ? '?preview=1' : ''}`,
        await chosen.text(),
        true,
      );
    } catch (error) {
      return say(status, failureText(t, error), true);
    }
    const error = errorOf(answer.body);
    if (error) {
      results.replaceChildren();
      // The whole file refused (its header, an unclosed quote, too many lines): its line and problem in the desk's words.
      const file = CsvFileRefusalSchema.safeParse(answer.body);
      return say(
        status,
        file.success
          ? o.refusedLine(file.data.error.line, o.csvProblem(file.data.error.problem))
          : error.message,
        true,
      );
    }
    const report = ImportSchema.parse(answer.body);
    const created = preview ? (report.orders ?? []).map((order) => element('li', '', order.orderId)) : [];
    results.replaceChildren(
      ...created,
      ...report.refused.map((refusal) =>
        element(
          'li',
          'error',
          o.refusedLine(refusal.line, refusal.problem ? o.csvProblem(refusal.problem) : refusal.reason),
        ),
      ),
    );
    say(
      status,
      preview
        ? o.previewSummary(report.orders?.length ?? 0, report.refused.length)
        : o.importedSummary(report.imported ?? 0, report.refused.length),
      report.refused.length > 0,
    );
    // The imported orders appear in the table without a reload.
    if (!preview && (report.imported ?? 0) > 0) await refreshRows().catch(() => undefined);
  };
  const preview = required<HTMLButtonElement>(form, '[data-import-preview]');
  preview.addEventListener('click', () => once(preview, () => send(true)));
  const now = required<HTMLButtonElement>(form, '[data-import-now]');
  now.addEventListener('click', () => once(now, () => send(false)));
}

/** The review page (`/admin/orders/<id>`): the CEP fills the empty address fields; saving reviews the order again. */
export function mountOrderReview(t: Messages): void {
  const form = document.querySelector<HTMLFormElement>('[data-review-form]');
  if (!form) return;
  const cep = required<HTMLInputElement>(form, '[data-cep]');
  const field = (name: string) => form.querySelector<HTMLInputElement>(`[name="recipient.endereco.${name}"]`);
  cep.addEventListener('change', () => {
    if (/^\d{5}-?\d{3}$/.test(cep.value.trim())) void fillFromCep(cep.value.trim(), field);
  });
  const error = required(form, '[data-error]');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void once(required(form, '[data-save-review]'), async () => {
      const value = (name: string) =>
        form.querySelector<HTMLInputElement>(`[name="${CSS.escape(name)}"]`)?.value ?? '';
      const recipient = partyFrom(value, 'recipient');
      const serviceId = value('serviceId').trim();
      const confirm = form.querySelector<HTMLInputElement>('[data-confirm]')?.checked === true;
      const path = `/admin/api/orders/${encodeURIComponent(form.dataset.orderId ?? '')}/review`;
      const answer = await answerOf(t, error, path, {
        recipient,
        ...(serviceId ? { serviceId } : {}),
        confirm,
      });
      if (!answer) return;
      const problem = errorOf(answer.body);
      if (problem) return say(error, problem.message, true);
      window.location.assign(`${window.location.pathname}?done=saved`);
    });
  });
}
