import * as z from 'zod/mini';
import { CEP_PATTERN, CEP_SEPARATORS } from './cep.ts';
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
/**
 * A string held to a rule by a check, not by a JSON Schema keyword: the calculator's validator (generated from these
 * schemas, widget/validators/) then checks the shape the evaluator reads — types and keys — and stays small, while a
 * `PUT` is held to every value rule here. The rules the calculator reads come from the BFF, which checked them.
 */
const Text = (ok: (text: string) => boolean, message: string, description: string) =>
  z.string().check(z.refine(ok, message), z.describe(description));
/** A CEP as typed ("01000-000"), kept as its 8 digits: the evaluator compares ranges as they are stored. */
const Cep = z.pipe(
  Text((text) => CEP_PATTERN.test(text), 'must be a CEP of 8 digits', 'A CEP, e.g. "01000-000".'),
  z.transform((text: string) => text.replace(CEP_SEPARATORS, '')),
);
const Name = (max: number, description: string) =>
  Text((text) => text.length >= 1 && text.length <= max, `must be 1 to ${max} characters`, description);

/** When a rule applies: every condition given must hold; a list holds when any of its entries does. */
export const RuleWhenSchema = /* @__PURE__ */ z.strictObject({
  ufs: z.optional(
    z
      .array(
        Text((text) => (UFS as readonly string[]).includes(text), 'must be a state such as "SP"', 'A UF.'),
      )
      .check(z.minLength(1), z.describe('Destination states, e.g. ["SP", "RJ"].')),
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
      .array(Name(200, 'A serviceId.'))
      .check(z.minLength(1), z.describe('The serviceIds it applies to, e.g. ["correios-pac"].')),
  ),
  skus: z.optional(
    z
      .array(Name(200, 'A SKU.'))
      .check(z.minLength(1), z.maxLength(200), z.describe('Applies when the cart holds any of these SKUs.')),
  ),
});
export type RuleWhen = z.infer<typeof RuleWhenSchema>;

/** The effects, each named by its keys (a markup by either or both of its two). */
const EFFECT_KEYS = [
  ['free'],
  ['priceBRL'],
  ['markupPercent', 'markupBRL'],
  ['extraDays'],
  ['hide'],
  ['label'],
];
const ONE_EFFECT =
  'must be exactly one of {free: true}, {priceBRL}, {markupPercent, markupBRL}, {extraDays}, {hide: true}, {label}';

/**
 * What a rule does to an option it applies to: exactly one effect (the contract's "one of"). One object with a check
 * rather than a union of six: its JSON Schema compiles to a validator the calculator can carry in its size budget.
 */
export const RuleThenSchema = /* @__PURE__ */ z
  .strictObject({
    free: z.optional(z.literal(true)),
    priceBRL: z.optional(Brl(0, 'The price the shopper pays')),
    markupPercent: z.optional(
      z
        .number()
        .check(z.gte(-100), z.lte(1000), z.describe('Percent of the price added (negative: a discount).')),
    ),
    markupBRL: z.optional(Brl(-MAX_BRL, 'Amount added after the percent (negative: a discount)')),
    extraDays: z.optional(
      z.int().check(z.gte(1), z.lte(MAX_EXTRA_DAYS), z.describe('Business days added to the promise.')),
    ),
    hide: z.optional(z.literal(true)),
    label: z.optional(Name(80, 'The name shown.')),
  })
  .check(
    z.refine(
      (then) => EFFECT_KEYS.filter((keys) => keys.some((key) => key in then)).length === 1,
      ONE_EFFECT,
    ),
  );

export const RuleSchema = /* @__PURE__ */ z.strictObject({
  id: Text(
    (text) => /^[A-Za-z0-9_-]{1,64}$/.test(text),
    'must be 1 to 64 letters, digits, "-" or "_"',
    'The rule\u2019s name.',
  ),
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
    const raw = Array.isArray(list) ? (list[index] as { id?: unknown } | undefined) : undefined;
    return {
      problem: {
        rule: ruleName(raw?.id, index),
        field: path.slice(2).map(String).join('.') || 'rule',
        message: issue?.message ?? 'invalid',
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
    const { markupPercent, markupBRL } = rule.then;
    if ((markupPercent !== undefined || markupBRL !== undefined) && !markupPercent && !markupBRL)
      return { problem: { rule: name, field: 'then', message: 'a markup of zero changes nothing' } };
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
