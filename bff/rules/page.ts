import express, { type Request, type Response, Router } from 'express';
import { normalizeCep } from '../../shared/cep.ts';
import { type Html, html } from '../../shared/html.ts';
import type { Locale } from '../../shared/locale.ts';
import { centavos } from '../../shared/money.ts';
import type { QuoteItem } from '../../shared/quote.ts';
import { parseRules, type Rule, rulesProblemText, rulesWarnings } from '../../shared/shipping-rules.ts';
import { requireAdminSession } from '../admin/gate.ts';
import type { AdminSessions } from '../admin/session.ts';
import { formatMoney, formatWhen } from '../desk/format.ts';
import { pickLanguage } from '../desk/language.ts';
import { sendDeskPage, sendLoginPage } from '../desk/layout.ts';
import type { Logger } from '../logger.ts';
import { DESK_CALLER, isQuoteShareSpent } from '../rates/quote-share.ts';
import type { QuoteAnswer, RatesService } from '../rates/service.ts';
import { blankRow, EFFECTS, NEW_ROWS, type RuleRow, rowsOf, rowsOfForm, rulesOfForm } from './form.ts';
import { RULES_MESSAGES, type RulesMessages } from './messages.ts';
import type { ShippingRulesStore } from './rules-store.ts';

export interface RulesPageDeps {
  sessions: Pick<AdminSessions, 'current' | 'refusal' | 'csrf'>;
  store: Pick<ShippingRulesStore, 'current' | 'write' | 'changes'>;
  rates: Pick<RatesService, 'quote' | 'shopperQuote'>;
  services: readonly string[];
  secure: boolean;
  logger: Logger;
}

/** The preview's cart: one line, as the merchant types it. */
interface PreviewCart {
  cep: string;
  quantity: string;
  unitPrice: string;
  weight: string;
}
const DEFAULT_CART: PreviewCart = { cep: '', quantity: '1', unitPrice: '79,90', weight: '0,3' };

interface RulesView {
  t: RulesMessages;
  lang: Locale;
  csrf: string;
  version: number;
  rows: RuleRow[];
  warnings: ReturnType<typeof rulesWarnings>;
  notice?: { ok: boolean; text: string } | undefined;
  cart: PreviewCart;
  preview?: { before: QuoteAnswer; after: QuoteAnswer } | undefined;
  changes: Awaited<ReturnType<ShippingRulesStore['changes']>>;
}

/**
 * `/admin/rules`: the merchant writes the shipping rules with a form (one row a rule, no JSON), previews a cart and a
 * CEP before and after them through the quote core, sees warnings for rules that never apply or hide everything, and
 * the log of changes. Plain HTML forms (the desk's gate: session, `csrf` field, `Origin`): saving is the same check
 * and store as `PUT /admin/api/shipping-rules`.
 */
export function shippingRulesPageRoutes(deps: RulesPageDeps): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 2000 });

  async function render(
    req: Request,
    res: Response,
    parts: Partial<RulesView> = {},
    status = 200,
  ): Promise<void> {
    const lang = pickLanguage(req, res, deps.secure);
    const session = await deps.sessions.current(req);
    if (!session) {
      sendLoginPage(req, res, { lang, sessions: deps.sessions, secure: deps.secure, back: '/admin/rules' });
      return;
    }
    const t = RULES_MESSAGES[lang];
    const current = await deps.store.current();
    const rows = parts.rows ?? rowsOf(current.rules);
    const view: RulesView = {
      t,
      lang,
      csrf: session.csrf,
      version: current.version,
      rows: [...rows, ...Array.from({ length: NEW_ROWS }, (_, i) => blankRow(rows.length + i + 1))],
      warnings: parts.warnings ?? rulesWarnings(current.rules, deps.services),
      notice: parts.notice,
      cart: parts.cart ?? DEFAULT_CART,
      preview: parts.preview,
      changes: await deps.store.changes(10),
    };
    sendDeskPage(res, status, {
      lang,
      title: t.title,
      section: 'rules',
      session,
      here: req.originalUrl,
      body: rulesBody(view),
    });
  }

  router.get('/admin/rules', async (req, res) => {
    const saved = Number(req.query.saved);
    const t = RULES_MESSAGES[pickLanguage(req, res, deps.secure)];
    await render(
      req,
      res,
      Number.isInteger(saved) && saved > 0 ? { notice: { ok: true, text: t.saved(saved) } } : {},
    );
  });

  router.post('/admin/rules', form, requireAdminSession(deps.sessions, 'form'), async (req, res) => {
    const rows = rowsOfForm(req.body as Record<string, unknown>);
    const parsed = parseRules(rulesOfForm(rows));
    const t = RULES_MESSAGES[pickLanguage(req, res, deps.secure)];
    if ('problem' in parsed) {
      await render(
        req,
        res,
        { rows, notice: { ok: false, text: t.refused(rulesProblemText(parsed.problem)) } },
        400,
      );
      return;
    }
    const before = await deps.store.current().catch(() => undefined);
    const changedBy = `admin (${req.ip ?? 'unknown address'})`;
    const version = await deps.store.write(parsed.rules, changedBy);
    deps.logger.info(
      { version, changedBy, before: before?.rules ?? null, after: parsed.rules },
      'shipping rules: changed',
    );
    res.redirect(303, `/admin/rules?saved=${version}`);
  });

  router.post('/admin/rules/preview', form, requireAdminSession(deps.sessions, 'form'), async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const rows = rowsOfForm(body);
    const text = (name: keyof PreviewCart) => (typeof body[name] === 'string' ? (body[name] as string) : '');
    const cart: PreviewCart = {
      cep: text('cep'),
      quantity: text('quantity'),
      unitPrice: text('unitPrice'),
      weight: text('weight'),
    };
    const t = RULES_MESSAGES[pickLanguage(req, res, deps.secure)];
    const parsed = parseRules(rulesOfForm(rows));
    if ('problem' in parsed) {
      const notice = { ok: false, text: t.refused(rulesProblemText(parsed.problem)) };
      await render(req, res, { rows, cart, notice }, 400);
      return;
    }
    const warnings = rulesWarnings(parsed.rules, deps.services);
    const request = previewRequest(cart);
    if (!request) {
      await render(req, res, { rows, cart, warnings, notice: { ok: false, text: t.previewInvalid } }, 400);
      return;
    }
    const preview = await quoteBoth(deps.rates, request, parsed.rules).catch((error: unknown) => {
      if (isQuoteShareSpent(error)) return undefined;
      throw error;
    });
    await render(req, res, { rows, cart, warnings, preview });
  });

  return router;
}

/** The preview's quote, or undefined when the CEP or the cart is not one. */
function previewRequest(cart: PreviewCart): { destinationCep: string; items: QuoteItem[] } | undefined {
  const cep = normalizeCep(cart.cep.trim());
  const number = (text: string) => Number(text.trim().replace(',', '.'));
  const quantity = number(cart.quantity);
  const unitPriceBRL = number(cart.unitPrice);
  const weightKg = number(cart.weight);
  if (!cep || !Number.isInteger(quantity) || quantity < 1 || !(unitPriceBRL >= 0) || !(weightKg > 0))
    return undefined;
  return { destinationCep: cep, items: [{ name: 'item', quantity, unitPriceBRL, weightKg }] };
}

async function quoteBoth(
  rates: RulesPageDeps['rates'],
  request: { destinationCep: string; items: QuoteItem[] },
  rules: readonly Rule[],
): Promise<{ before: QuoteAnswer; after: QuoteAnswer }> {
  const before = await rates.quote(request, DESK_CALLER);
  const after = await rates.shopperQuote(request, DESK_CALLER, rules);
  return { before, after };
}

function ruleRow(t: RulesMessages, row: RuleRow, i: number): Html {
  const n = i + 1;
  const input = (name: string, value: string, label: string) =>
    html`<td data-label="${label}"><input name="${name}-${i}" value="${value}" aria-label="${label} (${n})"></td>`;
  return html`<tr>
<td data-label="${t.colPosition}"><input name="position-${i}" value="${row.position}" inputmode="numeric" size="3" aria-label="${t.colPosition} (${n})"></td>
${input('id', row.id, t.colId)}
${input('ufs', row.ufs, t.colUfs)}
${input('ceps', row.ceps, t.colCeps)}
${input('minSubtotal', row.minSubtotal, t.colMinSubtotal)}
${input('maxWeight', row.maxWeight, t.colMaxWeight)}
${input('services', row.services, t.colServices)}
${input('skus', row.skus, t.colSkus)}
<td data-label="${t.colEffect}"><select name="effect-${i}" aria-label="${t.colEffect} (${n})">${EFFECTS.map(
    (effect) =>
      html`<option value="${effect}"${row.effect === effect ? html` selected` : ''}>${t.effects[effect]}</option>`,
  )}</select></td>
${input('value', row.value, t.colValue)}
<td data-label="${t.colRemove}"><input type="checkbox" name="remove-${i}" aria-label="${t.colRemove} (${n})"${row.remove ? html` checked` : ''}></td>
</tr>`;
}

function previewTable(view: RulesView): Html {
  const { t, lang, preview } = view;
  if (!preview) return html``;
  if (preview.before.rates.length === 0) return html`<p class="empty">${t.noOptions}</p>`;
  const price = (rate: { price: number; free?: boolean | undefined }) =>
    rate.free === true ? t.free : formatMoney(rate.price, lang);
  const rows = preview.before.rates.map((before) => {
    const after = preview.after.rates.find((rate) => rate.serviceId === before.serviceId);
    const platform = preview.after.platformPrices?.[before.serviceId] ?? before.price;
    const difference = after
      ? (centavos(after.free ? 0 : after.price) - centavos(platform)) / 100
      : undefined;
    return html`<tr>
<th scope="row">${before.label} <span class="muted code">${before.serviceId}</span></th>
<td>${price(before)} · ${before.promise.to}</td>
<td>${after ? html`${after.label === before.label ? '' : html`${after.label} · `}${price(after)} · ${after.promise.to}` : t.hidden}</td>
<td class="number">${formatMoney(platform, lang)}</td>
<td class="number">${difference === undefined ? '—' : formatMoney(difference, lang)}</td>
</tr>`;
  });
  return html`<div class="table-scroll" role="region" aria-labelledby="preview-caption" tabindex="0">
<table>
<caption id="preview-caption">${t.previewCaption}</caption>
<thead><tr><th scope="col">${t.colService}</th><th scope="col">${t.colBefore}</th><th scope="col">${t.colAfter}</th><th scope="col" class="number">${t.colPlatform}</th><th scope="col" class="number">${t.colDifference}</th></tr></thead>
<tbody>${rows}</tbody>
</table>
</div>
<p class="hint">${t.differenceHelp}</p>`;
}

/** The page: the notice, the warnings, the rules form with its preview, and the changes. */
export function rulesBody(view: RulesView): Html {
  const { t, lang, cart } = view;
  const field = (name: keyof PreviewCart, label: string, extra: Html) =>
    html`<label for="preview-${name}">${label}</label><input id="preview-${name}" name="${name}" value="${cart[name]}" ${extra}>`;
  return html`<h1>${t.title}</h1>
<p class="lead">${t.intro}</p>
<p>${t.version(view.version)}</p>
${view.notice ? html`<p class="notice${view.notice.ok ? '' : ' notice-error'}" role="${view.notice.ok ? 'status' : 'alert'}">${view.notice.text}</p>` : ''}
${
  view.warnings.length > 0
    ? html`<section class="notice notice-error" aria-labelledby="warnings-title"><h2 id="warnings-title">${t.warningsTitle}</h2><ul>${view.warnings.map(
        (warning) => html`<li data-warning="${warning.kind}">${t.warnings[warning.kind](warning.rule)}</li>`,
      )}</ul></section>`
    : ''
}
<form method="post" action="/admin/rules" class="rules-form">
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="rows" value="${String(view.rows.length)}">
<div class="table-scroll" role="region" aria-labelledby="rules-caption" tabindex="0">
<table>
<caption id="rules-caption">${t.rulesCaption}</caption>
<thead><tr><th scope="col">${t.colPosition}</th><th scope="col">${t.colId}</th><th scope="col">${t.colUfs}</th><th scope="col">${t.colCeps}</th><th scope="col">${t.colMinSubtotal}</th><th scope="col">${t.colMaxWeight}</th><th scope="col">${t.colServices}</th><th scope="col">${t.colSkus}</th><th scope="col">${t.colEffect}</th><th scope="col">${t.colValue}</th><th scope="col">${t.colRemove}</th></tr></thead>
<tbody>${view.rows.map((row, i) => ruleRow(t, row, i))}</tbody>
</table>
</div>
<p class="hint">${t.valueHelp}</p>
<div class="actions"><button class="primary" type="submit">${t.save}</button></div>
<h2>${t.previewTitle}</h2>
<p class="hint">${t.previewIntro}</p>
<div class="preview-cart">
${field('cep', t.previewCep, html`inputmode="numeric" autocomplete="postal-code"`)}
${field('quantity', t.previewQuantity, html`inputmode="numeric"`)}
${field('unitPrice', t.previewUnitPrice, html`inputmode="decimal"`)}
${field('weight', t.previewWeight, html`inputmode="decimal"`)}
</div>
<div class="actions"><button type="submit" formaction="/admin/rules/preview">${t.previewSubmit}</button></div>
</form>
${previewTable(view)}
<h2>${t.changesTitle}</h2>
${
  view.changes.length === 0
    ? html`<p class="empty">${t.noChanges}</p>`
    : html`<div class="table-scroll" role="region" aria-labelledby="changes-caption" tabindex="0">
<table>
<caption id="changes-caption">${t.changesCaption}</caption>
<thead><tr><th scope="col">${t.colVersion}</th><th scope="col">${t.colWhen}</th><th scope="col">${t.colWho}</th><th scope="col">${t.colRules}</th></tr></thead>
<tbody>${view.changes.map(
        (change) =>
          html`<tr><th scope="row">${String(change.version)}</th><td>${formatWhen(change.changedAt, lang)}</td><td>${change.changedBy}</td><td>${change.before.map((rule) => rule.id).join(', ') || '—'} → ${change.after.map((rule) => rule.id).join(', ') || '—'}</td></tr>`,
      )}</tbody>
</table>
</div>`
}`;
}
