import { ApiError } from '../../shared/errors.ts';
import { MAX_CODES } from '../../shared/platform-limits.ts';
import { cleanTrackingCode, isS10 } from '../../shared/s10.ts';

/** How much of a refused code an error message repeats (a 40,000-character "code" is not echoed back). */
const SHOWN = 24;

function shown(code: string): string {
  return code.length > SHOWN ? `${code.slice(0, SHOWN)}… (${code.length} characters)` : code;
}

/**
 * The one rule for tracking codes from outside (visitors and agents): 1 to 50 codes, each in the S10 form with a
 * valid check digit after removing spaces and upper-casing. Returns the cleaned codes in the order given, duplicates
 * kept; throws `ApiError` (`invalid_body` naming the first bad code, or `too_many_codes`) so nothing goes upstream.
 */
export function normalizeCodes(input: readonly string[]): string[] {
  if (input.length === 0) throw new ApiError('invalid_body', 'codes: send at least one tracking code.');
  if (input.length > MAX_CODES)
    throw new ApiError('too_many_codes', `codes: at most ${MAX_CODES} tracking codes per request.`);
  const codes = input.map(cleanTrackingCode);
  const bad = codes.findIndex((code) => !isS10(code));
  if (bad >= 0) {
    throw new ApiError(
      'invalid_body',
      `codes.${bad}: "${shown(input[bad] ?? '')}" is not a Correios tracking code (2 letters, 9 digits with a valid check digit, 2 letters)`,
    );
  }
  return codes;
}
