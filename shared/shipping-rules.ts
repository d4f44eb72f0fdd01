import * as z from 'zod/mini';
import { CEP_PATTERN } from './cep.ts';
import { UFS } from './lanes.ts';
import { ufOfCep } from './uf.ts';

/**
 * The merchant's shipping rules as data (ARCHITECTURE.md, "Shipping rules"): which options the shopper sees and
 * what each costs them, the same on the product page, at every checkout and for agents. `shared/charged-rates.ts`
 * is the one evaluator; this module owns the shape, its limits and why a document is refused.
 */

/** At most this many rules: a merchant's table, not a price list (each quote walks them all). */
export const MAX_RULES = 100;
/** The longest a business-day delay a rule may add (the calculator's dates stop at `MAX_ARRIVAL_BUSINESS_DAYS`). */
export const MAX_EXTRA_DAYS = 60;
/** Prices a rule may set or add, in BRL: far above any parcel, low enough that a typo of zeros is refused. */
const MAX_BRL = 10_000;

const Brl = (min: number, what: string) =>
  z.number().check(z.gte(min), z.lte(MAX_BRL), z.describe(`${what} (BRL, rounded half-up to the centavo).`));
const Cep = z.string().check(z.regex(CEP_PATTERN, 'must be a CEP of 8 digits'));

/** When a rule applies: every condition given must hold; a list holds when any of its entries does. */
export const RuleWhenSchema = /* @__PURE__ */ z.strictObject({
  ufs: z.optional(
    z.array(z.enum(UFS)).check(z.minLength(1), z.describe('Destination states, e.g. ["SP", "RJ"].')),
  ),
  cepRanges: z.optional(
    z
      .array(z.tuple([Cep, Cep]))
      .check(z.minLength(1), z.maxLength(50), z.describe('Destination CEP ranges, both ends included.')),
  ),
  minSubtotalBRL: z.optional(Brl(0, 'The cart subtotal from which the rule applies')),
  maxWeightKg: z.optional(
    z.number().check(z.gt(0), z.lte(1000), z.describe('The cart weight up to which the rule applies (kg).')),
  ),
  services: z.optional(
    z
      .array(z.string().check(z.minLength(1), z.maxLength(200)))
      .check(z.minLength(1), z.describe('The serviceIds it applies to, e.g. ["correios-pac"].')),
  ),
  skus: z.optional(
    z
      .array(z.string().check(z.minLength(1), z.maxLength(200)))
      .check(z.minLength(1), z.maxLength(200), z.describe('Applies when the cart holds any of these SKUs.')),
  ),
});
export type RuleWhen = z.infer<typeof RuleWhenSchema>;

/** The effects a rule may have, one each: free, a fixed price, a markup, extra days, hidden, renamed. */
const EFFECTS = [
  z.strictObject({ free: z.literal(true) }),
  z.strictObject({ priceBRL: Brl(0, 'The price the shopper pays') }),
  z.strictObject({
    markupPercent: z.optional(
      z
        .number()
        .check(z.gte(-100), z.lte(1000), z.describe('Percent of the price added (negative: a discount).')),
    ),
    markupBRL: z.optional(Brl(-MAX_BRL, 'Amount added after the percent (negative: a discount)')),
  }),
  z.strictObject({
    extraDays: z
      .int()
      .check(z.gte(1), z.lte(MAX_EXTRA_DAYS), z.describe('Business days added to the promise.')),
  }),
  z.strictObject({ hide: z.literal(true) }),
  z.strictObject({ label: z.string().check(z.minLength(1), z.maxLength(80), z.describe('The name shown.')) }),
] as const;

/** What a rule does to an option it applies to: exactly one effect. */
export const RuleThenSchema = /* @__PURE__ */ z.union(EFFECTS);
export type RuleThen = z.infer<typeof RuleThenSchema>;

export const RuleSchema = /* @__PURE__ */ z.strictObject({
  id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, "-" or "_"')),
  when: z.optional(RuleWhenSchema),
  then: RuleThenSchema,
});
export type Rule = z.infer<typeof RuleSchema>;

const RuleListSchema = /* @__PURE__ */ z.array(RuleSchema).check(z.maxLength(MAX_RULES));

/** `PUT /admin/api/shipping-rules` body: the whole ordered list, replacing the one in force. */
export const RulesUpdateSchema = /* @__PURE__ */ z.strictObject({ rules: RuleListSchema });

/** `GET /api/shipping-rules`: the rules in force and their version (0 before any was written). */
export const ShippingRulesSchema = /* @__PURE__ */ z.strictObject({
  version: z.int().check(z.gte(0)),
  rules: RuleListSchema,
});
export type ShippingRules = z.infer<typeof ShippingRulesSchema>;

/** No rules: every price as the platform quoted it (the free-shipping rule aside). */
export const NO_RULES: ShippingRules = { version: 0, rules: [] };

/** Why a rules document is refused: the rule (its id, else its place) and the field. */
export interface RulesProblem {
  /** The rule's id, or `#n` (1-based) when it has none; absent when the document itself is wrong. */
  rule?: string;
  /** The field inside the rule (`then.markupPercent`, `when.cepRanges.0.1`), or the document's. */
  field: string;
  message: string;
}

/**
 * The rules of a `PUT` body, or the first reason to refuse them, naming the rule and the field. Beyond the shape:
 * ids are unique, a CEP range runs upwards, a markup says something.
 */
export function parseRules(body: unknown): { rules: Rule[] } | { problem: RulesProblem } {
  const parsed = RulesUpdateSchema.safeParse(body);
  const list = (body as { rules?: unknown } | null)?.rules;
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path ?? [];
    const index = path[0] === 'rules' && typeof path[1] === 'number' ? path[1] : undefined;
    if (index === undefined)
      return { problem: { field: path.join('.') || 'rules', message: issue?.message ?? 'invalid' } };
    const raw = Array.isArray(list)
      ? (list[index] as { id?: unknown; then?: unknown } | undefined)
      : undefined;
    const inner = issue ? effectIssue(issue, raw?.then) : undefined;
    const field = [...path.slice(2), ...(inner?.path ?? [])].map(String).join('.');
    return {
      problem: {
        rule: ruleName(raw?.id, index),
        field: field || 'rule',
        message: inner ? inner.message : unionMessage(issue),
      },
    };
  }
  const seen = new Set<string>();
  for (const [index, rule] of parsed.data.rules.entries()) {
    const name = ruleName(rule.id, index);
    if (seen.has(rule.id))
      return { problem: { rule: name, field: 'id', message: 'is used by an earlier rule' } };
    seen.add(rule.id);
    const backwards = rule.when?.cepRanges?.findIndex(([from, to]) => digits(from) > digits(to)) ?? -1;
    if (backwards >= 0)
      return {
        problem: {
          rule: name,
          field: `when.cepRanges.${backwards}`,
          message: 'the first CEP is after the second',
        },
      };
    if ('markupPercent' in rule.then || 'markupBRL' in rule.then || Object.keys(rule.then).length === 0) {
      const then = rule.then as { markupPercent?: number; markupBRL?: number };
      if (!then.markupPercent && !then.markupBRL)
        return {
          problem: { rule: name, field: 'then', message: 'a markup needs markupPercent or markupBRL' },
        };
    }
  }
  return { rules: parsed.data.rules };
}

/** The words of a refusal, for the 400 body and the desk: `rule "sul": then.markupPercent: Too big…`. */
export function rulesProblemText(problem: RulesProblem): string {
  const where = problem.rule ? `rule ${problem.rule}: ` : '';
  return `${where}${problem.field}: ${problem.message}`;
}

function ruleName(id: unknown, index: number): string {
  return typeof id === 'string' && id !== '' ? `"${id}"` : `#${index + 1}`;
}

function digits(cep: string): string {
  return cep.replace(/\D/g, '');
}

/**
 * A `then` matching none of the effects: the issue of the one effect its first key names (`{extraDays: 0}` → extraDays
 * is too small), when there is one.
 */
function effectIssue(issue: z.core.$ZodIssue, then: unknown): z.core.$ZodIssue | undefined {
  if (issue.code !== 'invalid_union' && issue.code !== 'unrecognized_keys') return undefined;
  if (typeof then !== 'object' || then === null) return undefined;
  const key = Object.keys(then)[0];
  const effect = EFFECTS.find((schema) => key !== undefined && Object.hasOwn(schema.def.shape, key));
  return effect?.safeParse(then).error?.issues[0];
}

/** A `then` matching none of the effects: say which effects there are, not zod's "invalid input". */
function unionMessage(issue: z.core.$ZodIssue | undefined): string {
  if (issue?.code === 'invalid_union')
    return 'must be exactly one of {free: true}, {priceBRL}, {markupPercent, markupBRL}, {extraDays}, {hide: true}, {label}';
  return issue?.message ?? 'invalid';
}

/** Why the desk warns about a rule that was accepted. */
export interface RuleWarning {
  rule: string;
  /** `never_matches`: no quote can meet its conditions; `hides_everything`: every option of every quote goes. */
  kind: 'never_matches' | 'hides_everything';
  /** What makes it so, in English (the desk words it per language from `kind`). */
  why: string;
}

/**
 * Rules that are valid but surely not what the merchant meant: one that hides every option of every quote (then no
 * checkout offers shipping at all), and one that can never apply — its services are none the store labels with
 * (`services`, when known), its CEP ranges lie outside its states, or an earlier rule already hides everything.
 */
export function rulesWarnings(rules: readonly Rule[], services: readonly string[] = []): RuleWarning[] {
  const warnings: RuleWarning[] = [];
  let hidden = false;
  for (const rule of rules) {
    const when = rule.when ?? {};
    if (hidden) {
      warnings.push({ rule: rule.id, kind: 'never_matches', why: 'an earlier rule hides every option' });
      continue;
    }
    if (when.services && services.length > 0 && !when.services.some((id) => services.includes(id))) {
      warnings.push({
        rule: rule.id,
        kind: 'never_matches',
        why: `no service of the store is ${when.services.join(', ')}`,
      });
      continue;
    }
    const ufs = when.ufs;
    if (ufs && when.cepRanges && !when.cepRanges.some(([from, to]) => rangeMeets(from, to, ufs))) {
      warnings.push({ rule: rule.id, kind: 'never_matches', why: 'its CEP ranges lie outside its states' });
      continue;
    }
    const unconditional = Object.keys(when).every(
      (key) => key === 'minSubtotalBRL' && when.minSubtotalBRL === 0,
    );
    if ('hide' in rule.then && unconditional) {
      warnings.push({ rule: rule.id, kind: 'hides_everything', why: 'it hides every option of every quote' });
      hidden = true;
    }
  }
  return warnings;
}

/** Whether a CEP range holds a CEP of one of `ufs` (by the state of each 1000-CEP block it spans). */
function rangeMeets(from: string, to: string, ufs: readonly string[]): boolean {
  const start = Math.floor(Number(digits(from)) / 1000);
  const end = Math.floor(Number(digits(to)) / 1000);
  for (let block = start; block <= end; block += 1) {
    const uf = ufOfCep(String(block * 1000).padStart(8, '0'));
    if (uf && ufs.includes(uf)) return true;
  }
  return false;
}
