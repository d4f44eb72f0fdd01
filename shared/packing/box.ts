import * as z from 'zod/mini';
import { PACKAGE_LIMITS, packageSizeProblem } from './package-limits.ts';
import { eachIdOnce } from './plan.ts';

/** At most this many boxes in `BFF_BOXES`: the planner tries each one for every volume it opens. */
export const MAX_BOXES = 20;

const centimetres = (what: string) =>
  z.number().check(z.gt(0), z.describe(`${what} inside the box, in centimetres (e.g. 30 or 22.5).`));

/**
 * One of the merchant's boxes (`BFF_BOXES`): inner sides in cm, tare and maximum weight in grams. The planner takes
 * the outer sides to equal the inner ones (walls of a few millimetres), so the box must be within the carrier's
 * limits for a package as given.
 */
export const BoxSchema = /* @__PURE__ */ z
  .strictObject({
    id: z
      .string()
      .check(
        z.minLength(1),
        z.maxLength(100),
        z.describe('The box\'s name, as the packer knows it, e.g. "M".'),
      ),
    comprimento: centimetres('Length'),
    largura: centimetres('Width'),
    altura: centimetres('Height'),
    tareGrams: z
      .int()
      .check(z.gte(0), z.describe('Weight of the empty box and its filling, in grams (integer).')),
    maxWeightGrams: z
      .int()
      .check(
        z.gt(0),
        z.describe(
          `Most the packed box may weigh, tare included, in grams (integer); the carrier's ${PACKAGE_LIMITS.maxWeightGrams} g applies as well.`,
        ),
      ),
  })
  .check(
    z.superRefine((box, ctx) => {
      const problem = packageSizeProblem([box.comprimento, box.largura, box.altura]);
      if (problem) ctx.issues.push({ code: 'custom', message: `box "${box.id}" ${problem}`, input: box });
      const carries = Math.min(box.maxWeightGrams, PACKAGE_LIMITS.maxWeightGrams);
      if (box.tareGrams >= carries)
        ctx.issues.push({
          code: 'custom',
          message: `box "${box.id}" weighs ${box.tareGrams} g empty, so it can carry nothing (at most ${carries} g packed)`,
          input: box,
        });
    }),
  );
export type Box = z.infer<typeof BoxSchema>;

/** `BFF_BOXES`: the merchant's boxes, each `id` once. */
export const BoxesSchema = /* @__PURE__ */ z.array(BoxSchema).check(
  z.maxLength(MAX_BOXES, `must list at most ${MAX_BOXES} boxes`),
  eachIdOnce((id) => `box id "${id}" is given twice`),
);
