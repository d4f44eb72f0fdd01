import type { Uf } from '../uf.ts';
import type { ContractService, PrintedField } from './carrier-limits.ts';

/**
 * A broken plausibility rule as data (the rules: `plausibility.ts`; what each says: `plausibility-messages.ts`), in a
 * file of its own so that the rules and their words both take it without taking each other.
 */

export type PartyRole = 'sender' | 'recipient';

/** The party text fields checked for plain text: the printed ones, the state and the phone. */
export type PartyTextField = PrintedField | 'endereco.uf' | 'telefone';

export type BoxSide = 'comprimento' | 'largura' | 'altura';

/** What is wrong with a text: the first forbidden code point, blankness, or its length over the most allowed. */
export type TextProblem =
  | { kind: 'control'; codePoint: number }
  | { kind: 'blank' }
  | { kind: 'too_long'; length: number; max: number };

/**
 * A broken rule with the data its messages are built from: the English refusal (`refusalOf` in `plausibility.ts`), the carrier's
 * Portuguese status in the sandbox. Never carries a party's text, only numbers and field names.
 */
export type PlausibilityIssue =
  | { rule: 'weight_below_minimum'; weightGrams: number }
  | { rule: 'weight_not_whole'; weightGrams: number }
  | { rule: 'unknown_service'; serviceCode: string; presentationName: boolean }
  | { rule: 'weight_over_limit'; weightGrams: number; service: ContractService }
  | { rule: 'envelope_out_of_limits'; side: 'comprimento' | 'largura'; value: number }
  | { rule: 'box_side_over'; side: BoxSide; value: number }
  | { rule: 'box_sum_over'; sum: number }
  | { rule: 'box_side_under'; side: BoxSide; value: number }
  | { rule: 'roll_length_out_of_limits'; value: number }
  | { rule: 'roll_diameter_out_of_limits'; value: number }
  | { rule: 'roll_sum_over'; sum: number }
  | { rule: 'too_many_declared_items'; count: number }
  | { rule: 'declared_content_text'; index: number; problem: TextProblem }
  | { rule: 'declared_quantity'; index: number; quantidade: number }
  | { rule: 'declared_unit_value'; index: number; valor: number }
  | { rule: 'declared_unit_value_decimals'; index: number; valor: number }
  | { rule: 'declared_total_over'; totalCents: number; service: ContractService }
  | { rule: 'party_text'; party: PartyRole; path: PartyTextField; problem: TextProblem }
  | { rule: 'cpf_cnpj'; party: PartyRole; problem: 'shape' | 'repeated' | 'check_digits' }
  | { rule: 'email'; party: PartyRole; problem: 'format' | 'too_long'; length: number }
  | { rule: 'cep_uf_mismatch'; party: PartyRole; uf: string; cepUf: Uf; cep: string };
