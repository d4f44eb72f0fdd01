/**
 * A street line as a shopper types it on a checkout that has one field for street and number (Shopify's `address1`:
 * "Rua Augusta, 1500", "Av. Brasil, 200, apto 12", "Rua Sete, s/n"), split as Correios prints it: street, number and
 * what follows (complement). Only an unambiguous line is split: the street, then a comma, then a number (digits with
 * at most one letter, or "s/n"), then optionally a separator and the rest. Anything else — no comma, a number without
 * a comma before it ("Rua 25 de Março 1000": which number is the house?), a km mark, a range — is left whole in the
 * street with the number empty and `numberFound: false`, for the operator to split. Never guessed.
 */
export interface StreetLine {
  logradouro: string;
  numero: string;
  complemento?: string;
  numberFound: boolean;
}

/** A house number: digits (optionally one letter: "12A"), or "s/n" ("sem número") in its usual spellings. */
const NUMBER = /^(?:\d{1,6}(?:\s?[A-Za-z])?|s\s*\/\s*n\.?|sn|sem\s+n[uú]mero)$/i;
/** "nº 123", "n. 123", "no 123": the number word before the number. */
const NUMBER_WORD = /^(?:n[º°o.]?\s*|n[uú]mero\s+)/i;

export function splitStreetLine(line: string): StreetLine {
  const whole = line.replace(/\s+/g, ' ').trim();
  const comma = whole.indexOf(',');
  const unsplit: StreetLine = { logradouro: whole, numero: '', numberFound: false };
  if (comma <= 0) return unsplit;
  const street = whole.slice(0, comma).trim();
  const after = whole.slice(comma + 1).trim();
  // The number runs to the next comma or " - " (a dash with spaces: "123-A" stays one number word).
  const end = /,|\s[-–]\s/.exec(after);
  const candidate = (end ? after.slice(0, end.index) : after).trim().replace(NUMBER_WORD, '').trim();
  if (street === '' || !NUMBER.test(candidate)) return unsplit;
  const rest = end ? after.slice(end.index + end[0].length).trim() : '';
  const numero = /^\d/.test(candidate) ? candidate.replace(/\s/g, '').toUpperCase() : 's/n';
  return { logradouro: street, numero, ...(rest ? { complemento: rest } : {}), numberFound: true };
}
