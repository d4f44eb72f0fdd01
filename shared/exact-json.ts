/**
 * JSON as sent, integers included: `JSON.parse` makes every number a double, so an id above 2^53 (Shopify's own test
 * orders carry `820982911946154508`) comes out rounded to another id. Here an integer that a double cannot hold
 * exactly is kept as the digits that were sent (a string), read through the reviver's source text (ES2025 "JSON.parse
 * source text access", in Node since 21). Every other value is what `JSON.parse` gives.
 */
export function parseExactJson(text: string): unknown {
  const reviver = (_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && /^-?\d+$/.test(context?.source ?? '')
      ? context?.source
      : value;
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}
