/** A CEP as the spec accepts it: 8 digits, with any dashes and spaces ignored (spec 2.5, 4.1). */
export const CEP_PATTERN = /^[\s-]*(?:\d[\s-]*){8}$/;

/**
 * Normalizes a CEP to its 8 digits, or returns `null` when it is not one.
 * @example normalizeCep('01310-100') // '01310100'
 */
export function normalizeCep(input: string): string | null {
  if (!CEP_PATTERN.test(input)) return null;
  return input.replace(/[\s-]/g, '');
}

/** Formats 8 digits as `00000-000`; anything else is returned as given. */
export function formatCep(cep: string): string {
  return /^\d{8}$/.test(cep) ? `${cep.slice(0, 5)}-${cep.slice(5)}` : cep;
}
