import type { CalculatorMessages } from './messages.ts';

/** The Correios page where a shopper finds a CEP by address. */
export const CEP_SEARCH_URL = 'https://buscacepinter.correios.com.br/app/endereco/index.php';

/**
 * The calculator's form as plain HTML, for its first paint, and the only description of it: the calculator keeps
 * these nodes and sets their changing parts (app.tsx), Preact renders the results area alone; the e2e tests check
 * the nodes are kept. Painting this costs the browser's HTML parser only: the first render through Preact compiled
 * its diffing code on the spot, 6–10 ms of the first paint on the bench's machine. The texts are the calculator's
 * own constants (messages.ts), never the page's input.
 */
export function formHtml(t: CalculatorMessages, locale: string, id: string): string {
  return `<div part="container" class="calculator" lang="${locale}"><form part="form" class="form" novalidate><label part="label" for="${id}-cep" class="label">${t.cepLabel}</label><div class="row"><input part="input" id="${id}-cep" class="input" type="text" inputmode="numeric" autocomplete="postal-code" placeholder="00000-000" aria-invalid="false"><button part="button" class="button" type="submit" aria-busy="false"><span class="">${t.submit}</span><span class="hidden">${t.loading}</span></button></div><p part="error" id="${id}-error" class="field-error"></p><a part="cep-search" class="cep-search" href="${CEP_SEARCH_URL}" target="_blank" rel="noopener noreferrer">${t.noCep}</a></form><p class="sr-only" role="status" aria-live="polite"></p><div part="results" class="results" aria-busy="false"></div></div>`;
}
