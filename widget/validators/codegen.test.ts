import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ERROR_CODES } from '../../shared/errors.ts';
import { OrderLookupResponseSchema } from '../../shared/order-lookup.ts';
import { validatorsModule } from './codegen.ts';
import * as generated from './generated.js';
import { isQuoteItem } from './generated.js';
import { isOrderLookupResponse } from './order-lookup.ts';
import { WIDGET_SCHEMAS } from './schemas.ts';

/**
 * The generated validators against zod, the source of the shapes: for every value, the generated function accepts
 * exactly what `safeParse` accepts, and leaves the value as zod's output (defaults filled in).
 */

const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('', 'PAC', '__proto__', 'constructor'));
const numbers = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -3, max: 60 }),
  fc.constantFrom(0, -0, 0.3, 1.5, -1, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), 1e308, 79.9),
);
/** A field: mostly of the right type, sometimes anything JSON can say. */
const field = (right: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 4, arbitrary: right }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
/** An object whose keys are each there most of the time, sometimes with one more key. */
function object(shape: Record<string, fc.Arbitrary<unknown>>) {
  const present = Object.fromEntries(
    Object.entries(shape).map(([key, value]) => [
      key,
      fc.option(
        value.map((v) => ({ v })),
        { freq: 8 },
      ),
    ]),
  );
  return fc
    .tuple(
      fc.record(present),
      fc.option(fc.tuple(fc.constantFrom('extra', 'instanceId', 'free'), fc.jsonValue({ maxDepth: 1 })), {
        freq: 4,
      }),
    )
    .map(([fields, extra]) => {
      const value: Record<string, unknown> = {};
      for (const [key, box] of Object.entries(fields)) if (box) value[key] = box.v;
      if (extra) value[extra[0]] = extra[1];
      return value;
    });
}

/** Whether JSON would give the value back as it is (=== for numbers, so -0 and 0 are one; prototypes kept). */
function sameAsJson(value: unknown, json: unknown = JSON.parse(JSON.stringify(value) ?? 'null')): boolean {
  if (value === json) return true;
  if (typeof value !== 'object' || typeof json !== 'object' || value === null || json === null) return false;
  if (Object.getPrototypeOf(value) !== Object.getPrototypeOf(json)) return false;
  const keys = Object.keys(value);
  if (keys.length !== Object.keys(json).length) return false;
  return keys.every((key) =>
    sameAsJson((value as Record<string, unknown>)[key], (json as Record<string, unknown>)[key]),
  );
}
/** Mostly well-formed arrays of `of`, sometimes not an array at all. */
const list = (of: fc.Arbitrary<unknown>) => field(fc.array(of, { maxLength: 4 }));

const quoteItem = object({
  name: field(text),
  quantity: field(numbers),
  unitPriceBRL: field(numbers),
  weightKg: field(numbers),
});
const rate = object({
  code: field(text),
  serviceId: field(text),
  label: field(text),
  price: field(numbers),
  deliveryDays: field(numbers),
  free: field(fc.boolean()),
});
const ratesResponse = object({ rates: list(rate), reason: field(text), actionUrl: field(text) });
const errorBody = object({
  error: field(
    object({
      code: field(fc.constantFrom(...ERROR_CODES, 'not_found', 'internal_error', 'RATE_LIMITED')),
      message: field(text),
      actionUrl: field(text),
    }),
  ),
});
const event = object({
  code: field(text),
  type: field(text),
  timestamp: field(text),
  description: field(text),
  origin: field(text),
  destination: field(text),
});
const date = field(
  fc.constantFrom('2026-12-01', '2026-12-03', '2028-02-29', '2026-02-30', '2026-1-1', '', 'x'),
);
const promise = object({
  from: date,
  to: date,
  basis: field(fc.constantFrom('history', 'platform', 'guess')),
  parcels: field(numbers),
});
const promisesResponse = object({
  promises: list(object({ serviceId: field(text), promise: field(promise) })),
});
const trackingResult = object({
  code: field(text),
  found: field(fc.boolean()),
  delivered: field(fc.boolean()),
  lastStatus: field(event),
  events: list(event),
  message: field(text),
  stale: field(fc.constantFrom(true, false, 'true')),
  promise: field(promise),
});
const trackingResponse = object({ results: list(trackingResult) });
const orderResponse = object({ orderId: field(text), results: list(trackingResult) });

const VALIDATORS = { ...generated };

const SAMPLES = {
  isQuoteItem: quoteItem,
  isRatesResponse: ratesResponse,
  isErrorBody: errorBody,
  isTrackingLookupResponse: trackingResponse,
  isPromisesResponse: promisesResponse,
} satisfies Record<keyof typeof WIDGET_SCHEMAS, fc.Arbitrary<unknown>>;

describe('the validators generated from the shared zod schemas', () => {
  it('are one per entry of WIDGET_SCHEMAS, plain code with no eval and no import', () => {
    expect(Object.keys(generated).sort()).toEqual(Object.keys(WIDGET_SCHEMAS).sort());
    const source = validatorsModule();
    // one import, of the reader of the schemas (check.ts)
    const body = source.replace(
      /^import \{ conforms, isJsonValue \} from "[^"]*\/widget\/validators\/check\.ts";$/m,
      '',
    );
    expect(body).not.toMatch(/\beval\(|new Function|\bimport\b|require\(/);
  });

  it('hold schemas of the keywords check.ts reads, and no other', () => {
    const read = new Set(['properties', 'required', 'additionalProperties', 'items']);
    for (const type of ['object', 'array', 'string', 'number', 'integer', 'boolean'])
      read.add(`type:${type}`);
    for (const keyword of [
      'minItems',
      'maxItems',
      'pattern',
      'format',
      'enum',
      'const',
      'minimum',
      'maximum',
    ])
      read.add(keyword);
    for (const keyword of ['exclusiveMinimum', 'anyOf', 'default', 'description', '$schema'])
      read.add(keyword);
    const seen = new Set<string>();
    const walk = (node: unknown, names = false): void => {
      if (Array.isArray(node)) for (const item of node) walk(item);
      else if (node && typeof node === 'object')
        for (const [key, value] of Object.entries(node)) {
          if (!names) seen.add(key === 'type' ? `type:${String(value)}` : key);
          walk(value, !names && key === 'properties');
        }
    };
    for (const { schema } of Object.values(WIDGET_SCHEMAS))
      walk(z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }));
    expect([...seen].filter((keyword) => !read.has(keyword))).toEqual([]);
  });

  it.each(Object.keys(WIDGET_SCHEMAS) as (keyof typeof WIDGET_SCHEMAS)[])(
    '%s accepts exactly what zod accepts, and leaves the value as zod would parse it',
    (name) => {
      const { schema } = WIDGET_SCHEMAS[name];
      const validate: (value: unknown) => boolean = VALIDATORS[name];
      fc.assert(
        fc.property(fc.oneof({ weight: 5, arbitrary: SAMPLES[name] }, fc.jsonValue()), (value) => {
          const parsed = schema.safeParse(value);
          const copy = structuredClone(value);
          expect(validate(copy)).toBe(parsed.success);
          // zod's output drops no field the widget reads and fills the same defaults
          if (parsed.success && name === 'isQuoteItem') expect(copy).toEqual(parsed.data);
        }),
        { numRuns: 3000 },
      );
    },
  );

  it('isTrackingLookupResponse refuses an event whose description is not a text (a field named like JSON Schema\u2019s annotation)', () => {
    // found by the property above with more cases (seed 101766825): the schema's `description` field was dropped
    // with the annotations, so any value passed
    const answer = (description: unknown) => ({
      results: [
        { code: 'AA123456785BR', found: true, delivered: false, events: [{ code: 'RO', description }] },
      ],
    });
    expect(generated.isTrackingLookupResponse(answer('Objeto em trânsito'))).toBe(true);
    expect(generated.isTrackingLookupResponse(answer(null))).toBe(false);
    expect(generated.isTrackingLookupResponse(answer(7))).toBe(false);
    expect(isOrderLookupResponse({ orderId: '1001', ...answer(null) })).toBe(false);
  });

  it('find the values zod accepts among the samples, so the comparison above is not vacuous', () => {
    for (const [name, sample] of Object.entries(SAMPLES)) {
      const schema = WIDGET_SCHEMAS[name as keyof typeof WIDGET_SCHEMAS].schema;
      const values = fc.sample(sample, { numRuns: 2000, seed: 42 });
      const accepted = values.filter((value) => schema.safeParse(value).success).length;
      expect(accepted, name).toBeGreaterThan(20);
      expect(accepted, name).toBeLessThan(2000);
    }
  });

  it('isOrderLookupResponse (the tracking answer\u2019s validator and an orderId) accepts exactly what zod accepts', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 5, arbitrary: orderResponse }, fc.jsonValue()), (value) => {
        expect(isOrderLookupResponse(structuredClone(value))).toBe(
          OrderLookupResponseSchema.safeParse(value).success,
        );
      }),
      { numRuns: 3000 },
    );
    const accepted = fc
      .sample(orderResponse, { numRuns: 2000, seed: 42 })
      .filter((value) => OrderLookupResponseSchema.safeParse(value).success).length;
    expect(accepted).toBeGreaterThan(20);
  });

  it('isQuoteItem refuses, beyond zod, only what JSON would change (the platform receives JSON text)', () => {
    const { schema } = WIDGET_SCHEMAS.isQuoteItem;
    fc.assert(
      fc.property(
        fc.oneof(
          quoteItem,
          fc.record(
            {
              name: fc.oneof(text, fc.anything()),
              quantity: fc.oneof(numbers, fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY)),
              unitPriceBRL: fc.oneof(numbers, fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0)),
              weightKg: fc.oneof(numbers, fc.constantFrom(Number.POSITIVE_INFINITY, undefined)),
            },
            { requiredKeys: ['name', 'quantity', 'unitPriceBRL'] },
          ),
        ),
        (value) => {
          const zodAccepts = schema.safeParse(value).success;
          expect(isQuoteItem(value)).toBe(zodAccepts && sameAsJson(value));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
