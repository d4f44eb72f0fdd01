import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';
import * as z from 'zod/mini';
import { ufOfCep } from '../uf.ts';
import {
  type ContractService,
  contractService,
  EMAIL_MAX_LENGTH,
  FORMAT_LIMITS,
  isPresentationName,
  MAX_DECLARED_ITEMS,
  MAX_DECLARED_QUANTITY,
  MIN_WEIGHT_GRAMS,
  PRINTED_FIELD_MAX,
} from './carrier-limits.ts';
import { centavos, declaredValueCents, isWholeCentavos } from './declared-value.ts';
import type { GenerateLabelInput } from './label.ts';
import type { DeclaredItem, Party } from './party.ts';
import type { BoxSide, PartyTextField, PlausibilityIssue, TextProblem } from './plausibility-issue.ts';
import { fieldOf, plausibilityMessage } from './plausibility-messages.ts';

/**
 * The plausibility rules of a `generate_label` input (docs/agents/labels.md, "Plausibility before money"): what the
 * BFF checks before anything reaches the platform, and what the sandbox's carrier refuses the same way. Pure.
 *
 * Checked in this order, the first broken rule answers:
 * 1. `weightGrams` at least 10 and a whole number of grams (`implausible_weight`): a kilogram figure sent as grams
 *    is the costliest mistake, and it does not depend on the service;
 * 2. `serviceCode` a contract product code (`unknown_service`): the limits below are the service's;
 * 3. `weightGrams` within the service's maximum (`weight_over_limit`);
 * 4. each dimension within the limits of the object format (`dimensions_out_of_limits`);
 * 5. `declaredItems`: at most 50 lines (`too_many_declared_items`); each line's `conteudo` plain text and not
 *    blank, `quantidade` a whole number from 1 to 9,999, `valor` (the unit value) 0 or more and in whole centavos,
 *    at most 2 decimal places (`invalid_declared_item`); Σ quantidade × valor (`declaredValueCents`, the one
 *    computation the policies and the issuer also read) within the service's maximum declared value
 *    (`declared_value_over_limit`);
 * 6. the party text fields, sender then recipient (`invalid_party_field`): no control, invisible formatting or
 *    bidirectional override characters, not blank, within the lengths the carrier prints;
 * 7. `cpfCnpj` when present, sender then recipient (`invalid_cpf_cnpj`);
 * 8. `email` when present, sender then recipient (`invalid_email`);
 * 9. each party's `endereco.uf` the state of its CEP, sender then recipient (`cep_uf_mismatch`): the Correios CEP
 *    ranges by state are public (`shared/uf.ts`), so a UF the carrier would refuse is refused here first. A CEP no
 *    state begins at (below 01000-000) is left to the carrier, which answers its coverage.
 *
 * Their English sentences, and the field each names, are `plausibility-messages.ts`; the sandbox's carrier words them
 * in Portuguese itself (`sandbox/labels/rules.ts`).
 */

/** The reasons of a plausibility refusal: a closed set, listed in `reason-schema.ts` with the platform's. */
export const PLAUSIBILITY_REASONS = [
  'implausible_weight',
  'unknown_service',
  'weight_over_limit',
  'dimensions_out_of_limits',
  'too_many_declared_items',
  'invalid_declared_item',
  'declared_value_over_limit',
  'invalid_party_field',
  'invalid_cpf_cnpj',
  'invalid_email',
  'cep_uf_mismatch',
] as const;

/** Why a label was refused before it reached the platform: the reason, the field (a path) and a sentence. */
export const PlausibilityRefusalSchema = /* @__PURE__ */ z.strictObject({
  reason: z.enum(PLAUSIBILITY_REASONS),
  field: z
    .string()
    .check(
      z.describe(
        'The input field at fault, as a path: "weightGrams", "recipient.nome", "declaredItems[3].valor".',
      ),
    ),
  message: z.string().check(z.describe('What is wrong and how to fix it, in English.')),
});
export type PlausibilityRefusal = z.infer<typeof PlausibilityRefusalSchema>;
export type PlausibilityReason = PlausibilityRefusal['reason'];

/** The refusal of an implausible label, or `undefined` when every rule holds. */
export function plausibilityOf(input: GenerateLabelInput): PlausibilityRefusal | undefined {
  const issue = plausibilityIssue(input);
  return issue ? refusalOf(issue) : undefined;
}

/** The first broken rule, in the order of the module comment, or `undefined`. */
export function plausibilityIssue(input: GenerateLabelInput): PlausibilityIssue | undefined {
  const floor = weightFloorIssue(input.weightGrams);
  if (floor) return floor;
  const serviceCode = input.serviceCode.trim();
  const service = contractService(serviceCode);
  if (!service)
    return { rule: 'unknown_service', serviceCode, presentationName: isPresentationName(serviceCode) };
  if (input.weightGrams > service.maxWeightGrams) {
    return { rule: 'weight_over_limit', weightGrams: input.weightGrams, service };
  }
  return (
    dimensionsIssue(input.objectFormat, input.dimensions) ??
    declaredItemsIssue(input.declaredItems, service) ??
    partiesIssue(input.sender, input.recipient)
  );
}

function weightFloorIssue(weightGrams: number): PlausibilityIssue | undefined {
  if (weightGrams < MIN_WEIGHT_GRAMS) return { rule: 'weight_below_minimum', weightGrams };
  if (!Number.isInteger(weightGrams)) return { rule: 'weight_not_whole', weightGrams };
  return undefined;
}

/** Box sides are checked against their maximum, then the sum, then the minimum, as the carrier's table lists them. */
function dimensionsIssue(
  objectFormat: GenerateLabelInput['objectFormat'],
  { comprimento, largura, altura }: GenerateLabelInput['dimensions'],
): PlausibilityIssue | undefined {
  const sides = { comprimento, largura, altura };
  if (objectFormat === '1') {
    for (const side of ['comprimento', 'largura'] as const) {
      const value = sides[side];
      if (!within(value, FORMAT_LIMITS.envelope[side]))
        return { rule: 'envelope_out_of_limits', side, value };
    }
    return undefined;
  }
  if (objectFormat === '3') {
    const { roll } = FORMAT_LIMITS;
    if (!within(comprimento, roll.comprimento))
      return { rule: 'roll_length_out_of_limits', value: comprimento };
    if (!within(largura, roll.diametro)) return { rule: 'roll_diameter_out_of_limits', value: largura };
    const sum = thousandths(comprimento + 2 * largura);
    if (sum > roll.maxLengthPlusDiameters) return { rule: 'roll_sum_over', sum };
    return undefined;
  }
  const { box } = FORMAT_LIMITS;
  for (const side of BOX_SIDES) {
    if (sides[side] > box[side].max) return { rule: 'box_side_over', side, value: sides[side] };
  }
  const sum = thousandths(comprimento + largura + altura);
  if (sum > box.maxSum) return { rule: 'box_sum_over', sum };
  for (const side of BOX_SIDES) {
    if (sides[side] < box[side].min) return { rule: 'box_side_under', side, value: sides[side] };
  }
  return undefined;
}

const BOX_SIDES: readonly BoxSide[] = ['comprimento', 'largura', 'altura'];

/** A sum of sides without binary noise: 99.9 + 60.2 + 39.9 is 200 cm, not 200.00000000000003. */
const thousandths = (cm: number) => Math.round(cm * 1000) / 1000;

const within = (value: number, range: { min: number; max: number }) =>
  value >= range.min && value <= range.max;

/**
 * A unit value is money: whole centavos, at most two decimal places (our choice, docs/agents/labels.md, "One
 * declared value": the carrier takes declared values with two decimals, and a third one is where rounding per unit and
 * rounding the total part ways). The total is then exact in centavos (`declaredValueCents`), so R$ 3.000,00 is
 * PAC's maximum and R$ 3.000,01 is over it.
 */
function declaredItemsIssue(
  items: readonly DeclaredItem[],
  service: ContractService,
): PlausibilityIssue | undefined {
  if (items.length > MAX_DECLARED_ITEMS) return { rule: 'too_many_declared_items', count: items.length };
  for (const [index, item] of items.entries()) {
    const problem = textProblem(item.conteudo);
    if (problem) return { rule: 'declared_content_text', index, problem };
    const { quantidade, valor } = item;
    if (!Number.isInteger(quantidade) || quantidade < 1 || quantidade > MAX_DECLARED_QUANTITY) {
      return { rule: 'declared_quantity', index, quantidade };
    }
    if (!(valor >= 0) || !Number.isFinite(valor)) return { rule: 'declared_unit_value', index, valor };
    if (!isWholeCentavos(valor)) return { rule: 'declared_unit_value_decimals', index, valor };
  }
  const totalCents = declaredValueCents(items);
  if (totalCents > centavos(service.maxDeclaredValueBRL)) {
    return { rule: 'declared_total_over', totalCents, service };
  }
  return undefined;
}

/** The party text fields in the order checked, whether each must be filled, and the most the carrier prints. */
const PARTY_TEXT_FIELDS: readonly { path: PartyTextField; required: boolean; max?: number }[] = [
  { path: 'nome', required: true, max: PRINTED_FIELD_MAX.nome },
  { path: 'endereco.logradouro', required: true, max: PRINTED_FIELD_MAX['endereco.logradouro'] },
  { path: 'endereco.numero', required: true, max: PRINTED_FIELD_MAX['endereco.numero'] },
  { path: 'endereco.complemento', required: false, max: PRINTED_FIELD_MAX['endereco.complemento'] },
  { path: 'endereco.bairro', required: true, max: PRINTED_FIELD_MAX['endereco.bairro'] },
  { path: 'endereco.cidade', required: true, max: PRINTED_FIELD_MAX['endereco.cidade'] },
  { path: 'endereco.uf', required: true },
  { path: 'telefone', required: false },
];

/** A party's text field by its path. */
function partyText(party: Party, path: PartyTextField): string | undefined {
  if (path === 'nome' || path === 'telefone') return party[path];
  const key = path.slice('endereco.'.length) as keyof Party['endereco'];
  return party.endereco[key];
}

function partiesIssue(sender: Party, recipient: Party): PlausibilityIssue | undefined {
  const parties = [
    ['sender', sender],
    ['recipient', recipient],
  ] as const;
  for (const [role, party] of parties) {
    for (const { path, required, max } of PARTY_TEXT_FIELDS) {
      const text = partyText(party, path);
      // An optional field sent empty is a field not sent: nothing is printed for it.
      if (text === undefined || (!required && text === '')) continue;
      const problem = textProblem(text, max);
      if (problem) return { rule: 'party_text', party: role, path, problem };
    }
  }
  for (const [role, party] of parties) {
    const problem = party.cpfCnpj === undefined ? undefined : cpfCnpjProblem(party.cpfCnpj);
    if (problem) return { rule: 'cpf_cnpj', party: role, problem };
  }
  for (const [role, party] of parties) {
    const { email } = party;
    if (email === undefined || email === '') continue;
    if (!EmailSchema.safeParse(email).success) {
      return { rule: 'email', party: role, problem: 'format', length: email.length };
    }
    if (email.length > EMAIL_MAX_LENGTH)
      return { rule: 'email', party: role, problem: 'too_long', length: email.length };
  }
  for (const [role, party] of parties) {
    const cepUf = ufOfCep(party.endereco.cep);
    if (cepUf && party.endereco.uf.trim().toUpperCase() !== cepUf) {
      return { rule: 'cep_uf_mismatch', party: role, uf: party.endereco.uf, cepUf, cep: party.endereco.cep };
    }
  }
  return undefined;
}

/**
 * Characters a label must not carry: controls (C0, DEL, C1: tabs and line breaks included), format characters
 * (bidirectional marks, embeddings, overrides and isolates U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069;
 * zero-width characters; the soft hyphen; the byte order mark; tag characters that can smuggle hidden text to a
 * model), line and paragraph separators, and lone surrogates. Each can reorder, hide or break what is printed.
 */
const FORBIDDEN_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/**
 * Whether a text is free of the characters above: the rule of party fields, and of every other text the BFF keeps and
 * shows again (an `orderId` goes into e-mail subjects, webhooks, the desk and `/track`; an `idempotencyKey` into the
 * desk). Checked as a refinement, not a JSON Schema `pattern`: `\p{…}` classes are not portable to every validator.
 */
export function isPlainText(text: string): boolean {
  return !FORBIDDEN_CHARACTER.test(text);
}

/** What is wrong with a text field, or `undefined`. Lengths count code points of the NFC form. */
export function textProblem(text: string, max?: number): TextProblem | undefined {
  const forbidden = FORBIDDEN_CHARACTER.exec(text)?.[0];
  if (forbidden !== undefined) return { kind: 'control', codePoint: forbidden.codePointAt(0) ?? 0 };
  if (text.trim() === '') return { kind: 'blank' };
  if (max === undefined) return undefined;
  const length = [...text.normalize('NFC')].length;
  return length > max ? { kind: 'too_long', length, max } : undefined;
}

/**
 * A CPF is 11 digits; a CNPJ 14 characters, the 12 first digits or (IN RFB nº 2.229/2024, assigned from July 2026)
 * capital letters, the 2 last digits. The check digits come from @brazilian-utils/brazilian-utils (its
 * `version: 2` CNPJ rule is the Receita Federal's: each character counts as its ASCII code − 48). Spec 2.5 still
 * says "digits only", so `PartySchema` refuses letters before this runs; opening it is one edit there.
 */
export function cpfCnpjProblem(value: string): 'shape' | 'repeated' | 'check_digits' | undefined {
  const cpf = /^\d{11}$/.test(value);
  if (!cpf && !/^[0-9A-Z]{12}\d{2}$/.test(value)) return 'shape';
  if (/^(\d)\1*$/.test(value)) return 'repeated';
  const valid = cpf ? isValidCpf(value) : isValidCnpj(value, { version: 2 });
  return valid ? undefined : 'check_digits';
}

/** zod's e-mail rule (`z.email()`, its default pattern): a well-kept one rather than a regular expression of ours. */
const EmailSchema = /* @__PURE__ */ z.email();

/** The refusal reason of each broken rule. */
const REASONS: Record<PlausibilityIssue['rule'], PlausibilityReason> = {
  weight_below_minimum: 'implausible_weight',
  weight_not_whole: 'implausible_weight',
  unknown_service: 'unknown_service',
  weight_over_limit: 'weight_over_limit',
  envelope_out_of_limits: 'dimensions_out_of_limits',
  box_side_over: 'dimensions_out_of_limits',
  box_sum_over: 'dimensions_out_of_limits',
  box_side_under: 'dimensions_out_of_limits',
  roll_length_out_of_limits: 'dimensions_out_of_limits',
  roll_diameter_out_of_limits: 'dimensions_out_of_limits',
  roll_sum_over: 'dimensions_out_of_limits',
  too_many_declared_items: 'too_many_declared_items',
  declared_content_text: 'invalid_declared_item',
  declared_quantity: 'invalid_declared_item',
  declared_unit_value: 'invalid_declared_item',
  declared_unit_value_decimals: 'invalid_declared_item',
  declared_total_over: 'declared_value_over_limit',
  party_text: 'invalid_party_field',
  cpf_cnpj: 'invalid_cpf_cnpj',
  email: 'invalid_email',
  cep_uf_mismatch: 'cep_uf_mismatch',
};

/** The refusal an agent reads: reason, field and an English sentence built from the issue's data. */
export function refusalOf(issue: PlausibilityIssue): PlausibilityRefusal {
  return { reason: REASONS[issue.rule], field: fieldOf(issue), message: plausibilityMessage(issue) };
}
