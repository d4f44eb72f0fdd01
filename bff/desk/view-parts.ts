import type * as z from 'zod/mini';
import { formatCep } from '../../shared/cep.ts';
import { type Html, html } from '../../shared/html.ts';
import type { Party } from '../../shared/labels/party.ts';
import type { Locale } from '../../shared/locale.ts';
import { formatWhen } from './format.ts';
import { type Messages, stateName } from './messages.ts';

/** A `<dl>` of terms and values; a row whose value is undefined, null or '' is left out. */
export function definitions(
  rows: readonly (readonly [string, Html | string | number | null | undefined])[],
): Html {
  const shown = rows.filter(([, value]) => value !== undefined && value !== null && value !== '');
  return html`<dl class="facts">${shown.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`;
}

/** A stored JSON text read with a schema; undefined when it is not JSON or the schema does not read it. */
export function readStored<T>(schema: z.ZodMiniType<T>, json: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** A moment as a `<time>` in São Paulo's clock. */
export function timeOf(lang: Locale, at: number | string): Html {
  return html`<time datetime="${new Date(at).toISOString()}">${formatWhen(at, lang)}</time>`;
}

/** A label's state as a badge: its word, coloured by kind (the word says it; the colour only repeats it). */
export function stateBadge(t: Messages, state: string): Html {
  return html`<span class="state state-${state}">${stateName(t, state)}</span>`;
}

/** Who asked for a label: the desk in words, an agent by its name. */
export function issuerName(t: Messages, issuedBy: string | null): string {
  if (issuedBy === 'desk') return t.issuedByDesk;
  return issuedBy ?? t.none;
}

/** How a label is named in buttons and headings: its order and volume. */
export function labelNames(
  t: Messages,
  orderId: string | null | undefined,
  volume: number | null | undefined,
) {
  return { order: orderId ?? t.noOrder, volume: String(volume ?? 1) };
}

/** A party on one block: name, street and number, complement, district, city/UF, CEP, then contact fields. */
export function partyBlock(party: Party): Html {
  const { endereco: address } = party;
  const street = `${address.logradouro}, ${address.numero}${address.complemento ? ` — ${address.complemento}` : ''}`;
  const contact = [party.cpfCnpj, party.telefone, party.email].filter(Boolean).join(' · ');
  return html`<span class="party"><span>${party.nome}</span><span>${street}</span><span>${address.bairro}, ${address.cidade}/${address.uf}</span><span>CEP ${formatCep(address.cep)}</span>${
    contact ? html`<span>${contact}</span>` : ''
  }</span>`;
}

/** A notice at the top of a page after an action (the script moves focus to it, so a screen reader reads it). */
export function notice(text: string | undefined, kind: 'ok' | 'error' = 'ok'): Html | '' {
  if (!text) return '';
  return html`<p class="notice notice-${kind}" id="notice" role="status" tabindex="-1">${text}</p>`;
}

/**
 * The attributes of a control the desk's script gives its action (a button of a form without `action`, a
 * `type="button"`): rendered `disabled` until the script has mounted (bff/desk/client/desk.ts enables every
 * `[data-needs-script]`), so a tap before that is refused visibly and announced as unavailable, not lost. Controls of
 * forms that work without the script (login, logout, filters, the print form) do not carry it.
 */
export const NEEDS_SCRIPT = html` disabled data-needs-script`;
