import { describe, expect, it } from 'vitest';
import { formatMoney, formatWhen } from '../desk/format.ts';
import type { QuoteAnswer } from '../rates/service.ts';
import { blankRow } from './form.ts';
import { RULES_MESSAGES } from './messages.ts';
import { rulesBody } from './page.ts';

/** The rules page's body (`/admin/rules`) from a view, without a server: the form's rows, the preview, the log. */
type View = Parameters<typeof rulesBody>[0];
const t = RULES_MESSAGES.en;
const view = (change: Partial<View> = {}): View => ({
  t,
  lang: 'en',
  csrf: 'csrf-token-1',
  version: 3,
  rows: [blankRow(1)],
  warnings: [],
  cart: { cep: '01310-100', quantity: '2', unitPrice: '79,90', weight: '0,3' },
  changes: [],
  ...change,
});
const body = (change: Partial<View> = {}) => rulesBody(view(change)).toString();
const rate = (serviceId: string, label: string, price: number, free = false) => ({
  serviceId,
  label,
  price,
  ...(free ? { free: true } : {}),
  promise: { from: '2026-12-09', to: '2026-12-10', basis: 'platform', parcels: 0 },
});
const quote = (rates: unknown[], platformPrices?: Record<string, number>) =>
  ({ rates, ...(platformPrices ? { platformPrices } : {}) }) as unknown as QuoteAnswer;

describe('the rules form', () => {
  it('writes each row’s fields named <field>-<row>, labelled with their column and row, the effect selected', () => {
    const text = body({
      rows: [
        {
          position: '1',
          id: 'sul',
          ufs: 'PR, SC',
          ceps: '80000-000 a 89999-999',
          minSubtotal: '150',
          maxWeight: '2',
          services: 'correios-pac',
          skus: 'A',
          effect: 'hide',
          value: 'x',
          remove: true,
        },
        blankRow(2),
      ],
    });
    expect(text).toContain('<input type="hidden" name="csrf" value="csrf-token-1">');
    expect(text).toContain('<input type="hidden" name="rows" value="2">');
    expect(text).toContain(
      '<td data-label="Order"><input name="position-0" value="1" inputmode="numeric" size="3" aria-label="Order (1)"></td>',
    );
    for (const [name, value, label] of [
      ['id', 'sul', 'Name'],
      ['ufs', 'PR, SC', 'States (UF)'],
      ['ceps', '80000-000 a 89999-999', 'CEP ranges'],
      ['minSubtotal', '150', 'Subtotal from (R$)'],
      ['maxWeight', '2', 'Weight up to (kg)'],
      ['services', 'correios-pac', 'Services'],
      ['skus', 'A', 'SKUs'],
      ['value', 'x', 'Value'],
    ]) {
      // Each cell names its column (`data-label`): on a phone the row is a card, each field beside its column's name.
      expect(text).toContain(
        `<td data-label="${label}"><input name="${name}-0" value="${value}" aria-label="${label} (1)"></td>`,
      );
      expect(text).toContain(
        `<td data-label="${label}"><input name="${name}-1" value="" aria-label="${label} (2)"></td>`,
      );
    }
    expect(text).toContain('<select name="effect-0" aria-label="Effect (1)">');
    expect(text).toContain('<option value="hide" selected>Hide the option</option>');
    expect(text).toContain('<option value="free" selected>Free shipping</option>');
    expect(text).toContain('<option value="markup">Markup (% and/or R$)</option>');
    expect(text.match(/ selected>/g)).toHaveLength(2);
    expect(text).toContain('<input type="checkbox" name="remove-0" aria-label="Remove (1)" checked>');
    expect(text).toContain('<input type="checkbox" name="remove-1" aria-label="Remove (2)">');
  });

  it('shows the version, the preview cart as typed, and no notice, warning or preview when there is none', () => {
    const text = body();
    expect(text).toContain('<p>Version in force: 3.</p>');
    expect(text).toContain(
      '<input id="preview-cep" name="cep" value="01310-100" inputmode="numeric" autocomplete="postal-code">',
    );
    expect(text).toContain('<input id="preview-quantity" name="quantity" value="2" inputmode="numeric">');
    expect(text).toContain(
      '<input id="preview-unitPrice" name="unitPrice" value="79,90" inputmode="decimal">',
    );
    expect(text).toContain('<input id="preview-weight" name="weight" value="0,3" inputmode="decimal">');
    expect(text).not.toContain('class="notice');
    expect(text).not.toContain('warnings-title');
    expect(text).not.toContain('preview-caption');
    expect(text).toContain('<p class="empty">No changes yet.</p>');
  });

  it('tells a saved change as a status and a refusal as an alert', () => {
    expect(body({ notice: { ok: true, text: 'Saved.' } })).toContain(
      '<p class="notice" role="status">Saved.</p>',
    );
    expect(body({ notice: { ok: false, text: 'Refused.' } })).toContain(
      '<p class="notice notice-error" role="alert">Refused.</p>',
    );
  });

  it('lists each warning with its kind and rule', () => {
    const text = body({
      warnings: [
        { kind: 'never_matches', rule: 'norte', why: 'no CEP of the range is in the states' },
        { kind: 'hides_everything', rule: 'tudo', why: 'no condition' },
      ],
    });
    expect(text).toContain('<h2 id="warnings-title">Warning</h2>');
    expect(text).toContain('<li data-warning="never_matches">Rule “norte” never applies.</li>');
    expect(text).toContain(
      '<li data-warning="hides_everything">Rule “tudo” hides every option of every quote: no checkout will offer shipping.</li>',
    );
  });

  it('logs each change: version, when, who, and the rules before and after (— for none)', () => {
    const changedAt = Date.UTC(2026, 11, 6, 15, 0);
    const text = body({
      changes: [
        {
          version: 2,
          changedAt,
          changedBy: 'admin (127.0.0.1)',
          before: [],
          after: [
            { id: 'a', then: { free: true } },
            { id: 'b', then: { hide: true } },
          ],
        },
        { version: 3, changedAt, changedBy: 'admin', before: [{ id: 'a', then: { free: true } }], after: [] },
      ] as View['changes'],
    });
    expect(text).not.toContain('No changes yet.');
    expect(text).toContain(
      `<tr><th scope="row">2</th><td>${formatWhen(changedAt, 'en')}</td><td>admin (127.0.0.1)</td><td>— → a, b</td></tr>`,
    );
    expect(text).toContain(
      `<tr><th scope="row">3</th><td>${formatWhen(changedAt, 'en')}</td><td>admin</td><td>a → —</td></tr>`,
    );
  });
});

describe('the preview: each option before and after the rules', () => {
  it('shows the price after, a new name, free, hidden, the platform’s price and the difference per order', () => {
    const text = body({
      preview: {
        before: quote([rate('pac', 'PAC', 20), rate('sedex', 'SEDEX', 40), rate('mini', 'Mini', 15)]),
        after: quote([rate('pac', 'PAC', 0, true), rate('sedex', 'Expresso', 45.5)], { pac: 18.5 }),
      },
    });
    const row = (
      service: string,
      id: string,
      before: string,
      after: string,
      platform: number,
      difference: string,
    ) =>
      `<tr>\n<th scope="row">${service} <span class="muted code">${id}</span></th>\n<td>${before} · 2026-12-10</td>\n<td>${after}</td>\n<td class="number">${formatMoney(platform, 'en')}</td>\n<td class="number">${difference}</td>\n</tr>`;
    expect(text).toContain('<caption id="preview-caption">Each option before and after the rules</caption>');
    // free after: nothing charged, the label bought at the platform's 18.50 (not the 20 quoted before)
    expect(text).toContain(row('PAC', 'pac', 'R$20.00', 'Free · 2026-12-10', 18.5, formatMoney(-18.5, 'en')));
    // renamed and marked up: no platform price given, so the price before is the platform's
    expect(text).toContain(
      row('SEDEX', 'sedex', 'R$40.00', 'Expresso · R$45.50 · 2026-12-10', 40, formatMoney(5.5, 'en')),
    );
    expect(text).toContain(row('Mini', 'mini', 'R$15.00', 'hidden', 15, '—'));
    expect(text).toContain(`<p class="hint">${t.differenceHelp}</p>`);
  });

  it('says the platform did not quote the CEP when there was no option before', () => {
    const text = body({ preview: { before: quote([]), after: quote([]) } });
    expect(text).toContain('<p class="empty">The platform did not quote this CEP.</p>');
    expect(text).not.toContain('preview-caption');
  });
});
