/** The UPU S10 form of a Correios tracking code: 2 letters, 8-digit serial, check digit, 2 letters. */
export const S10_PATTERN = /^[A-Z]{2}\d{8}\d[A-Z]{2}$/;

const WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7] as const;

/** The S10 check digit of an 8-digit serial: weights 8,6,4,2,3,5,9,7; remainder 0 → 5, 1 → 0, else 11 − r. */
export function s10CheckDigit(serial: string): number {
  if (!/^\d{8}$/.test(serial)) throw new RangeError('an S10 serial has exactly 8 digits');
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(serial[i]) * (WEIGHTS[i] ?? 0);
  const remainder = sum % 11;
  if (remainder === 0) return 5;
  if (remainder === 1) return 0;
  return 11 - remainder;
}

/**
 * Whether a code is a well-formed S10 tracking code with a valid check digit.
 * @example isS10('DG049186226BR') // true
 */
export function isS10(code: string): boolean {
  if (!S10_PATTERN.test(code)) return false;
  return s10CheckDigit(code.slice(2, 10)) === Number(code[10]);
}

/** Builds a Brazilian S10 code (ending BR) from a 2-letter service prefix and a serial number (0–99,999,999). */
export function makeS10(prefix: string, serial: number): string {
  const digits = String(serial).padStart(8, '0');
  return `${prefix}${digits}${s10CheckDigit(digits)}BR`;
}

/** Upper-cases and strips spaces, so `dg 049186226 br` can be checked. */
export function cleanTrackingCode(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}
