/**
 * A CEP as the spec accepts it: 8 ASCII digits, with any dashes and spaces ignored (spec 2.5, 4.1). Only U+0020
 * and U+002D: a tab, a no-break space or an ideographic space is not a space the spec names.
 */
export const CEP_PATTERN = /^[ -]*(?:[0-9][ -]*){8}$/;

/** The separators the spec ignores in a CEP. */
export const CEP_SEPARATORS = /[ -]/g;

/**
 * Normalizes a CEP to its 8 digits, or returns `null` when it is not one.
 * @example normalizeCep('01310-100') // '01310100'
 */
export function normalizeCep(input: string): string | null {
  if (!CEP_PATTERN.test(input)) return null;
  return input.replace(CEP_SEPARATORS, '');
}

/** Formats 8 digits as `00000-000`; anything else is returned as given. */
export function formatCep(cep: string): string {
  return /^\d{8}$/.test(cep) ? `${cep.slice(0, 5)}-${cep.slice(5)}` : cep;
}
