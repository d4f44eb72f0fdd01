import * as z from 'zod/mini';
import { MAX_ITEMS } from '../platform-limits.ts';

/** Units of one order line: at most 999. */
export const MAX_QUANTITY = 999;

/** A check that no two entries share an `id`: each repeat is an issue at `[index, ...under]` saying `message(id)`. */
export function eachIdOnce(message: (id: string) => string, under: readonly string[] = []) {
  return z.superRefine((entries: readonly { id: string }[], ctx) => {
    const seen = new Set<string>();
    for (const [index, entry] of entries.entries()) {
      if (seen.has(entry.id))
        ctx.issues.push({
          code: 'custom',
          message: message(entry.id),
          input: entry,
          path: [index, ...under],
        });
      seen.add(entry.id);
    }
  });
}

const centimetres = (what: string) => z.number().check(z.gt(0), z.describe(`${what} of one unit, cm.`));

/** One line of the order to pack: a unit's sides and weight, and how many units. */
export const PackingItemSchema = /* @__PURE__ */ z.strictObject({
  id: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(100),
      z.describe('The line, e.g. its SKU; each once. Volumes name items by it.'),
    ),
  comprimento: centimetres('Length'),
  largura: centimetres('Width'),
  altura: centimetres('Height'),
  weightGrams: z.int().check(z.gte(1), z.describe('Weight of one unit, grams.')),
  quantity: z.int().check(z.gte(1), z.lte(MAX_QUANTITY), z.describe(`Units, 1 to ${MAX_QUANTITY}.`)),
});
export type PackingItem = z.infer<typeof PackingItemSchema>;

/** `plan_shipment` input: the order's lines. */
export const PlanShipmentInputSchema = /* @__PURE__ */ z.strictObject({
  items: z.array(PackingItemSchema).check(
    z.minLength(1),
    z.maxLength(MAX_ITEMS),
    z.describe(`The order: 1 to ${MAX_ITEMS} lines.`),
    eachIdOnce((id) => `repeats the id "${id}": give each product line once, with its quantity`, ['id']),
  ),
});
export type PlanShipmentInput = z.infer<typeof PlanShipmentInputSchema>;

const sideCm = (what: string) => z.number().check(z.describe(`${what} in centimetres.`));

/** One package of the plan: a box, what goes in it, and what its label states. */
export const PlannedVolumeSchema = /* @__PURE__ */ z.looseObject({
  box: z.string().check(z.describe('The id of the box to use, from BFF_BOXES.')),
  items: z
    .array(
      z.looseObject({
        id: z.string().check(z.describe('The product line.')),
        quantity: z.int().check(z.describe('Units of it in this box.')),
      }),
    )
    .check(z.describe('What goes in this box.')),
  weightGrams: z
    .int()
    .check(
      z.describe("Weight of the packed box in grams, the box's tare included: the label's weightGrams."),
    ),
  dimensions: z
    .looseObject({
      comprimento: sideCm('Longest side'),
      largura: sideCm('Middle side'),
      altura: sideCm('Shortest side'),
    })
    .check(
      z.describe(
        "The box's sides, longest first, for the label's dimensions (its inner sides, taken as the outer ones).",
      ),
    ),
});
export type PlannedVolume = z.infer<typeof PlannedVolumeSchema>;

/** `plan_shipment` output: one entry per package, each with its own label (volume 1, 2, … in this order). */
export const PlanShipmentOutputSchema = /* @__PURE__ */ z.looseObject({
  volumes: z
    .array(PlannedVolumeSchema)
    .check(
      z.describe('The packages, in the order to label them; every unit of the order is in exactly one.'),
    ),
});
export type PlanShipmentOutput = z.infer<typeof PlanShipmentOutputSchema>;

/** Why there is no plan: a tool error's `structuredContent`. */
export const PlanShipmentRefusalSchema = /* @__PURE__ */ z.looseObject({
  reason: z.enum([
    'item_does_not_fit',
    'no_boxes_configured',
    'too_many_volumes',
    'plan_too_slow',
    'planner_busy',
  ]),
  /** For `planner_busy`: when to ask again, in seconds. */
  retryAfterSeconds: z.optional(z.number()),
  itemId: z.optional(z.string()),
  message: z.string(),
});
export type PlanShipmentRefusal = z.infer<typeof PlanShipmentRefusalSchema>;

export type PlanShipmentResult = PlanShipmentOutput | PlanShipmentRefusal;

/** Whether `planShipment` refused (no plan), rather than planned. */
export function isPlanRefusal(result: PlanShipmentResult): result is PlanShipmentRefusal {
  return 'reason' in result;
}
