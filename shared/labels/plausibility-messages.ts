import { formatCep } from '../cep.ts';
import { formatBRL } from '../money.ts';
import {
  CONTRACT_SERVICES,
  EMAIL_MAX_LENGTH,
  FORMAT_LIMITS,
  MAX_DECLARED_ITEMS,
  MAX_DECLARED_QUANTITY,
  MIN_WEIGHT_GRAMS,
} from './carrier-limits.ts';
import { centavos } from './declared-value.ts';
import type { PlausibilityIssue, TextProblem } from './plausibility-issue.ts';

/**
 * What a plausibility refusal says (`refusalOf` in `plausibility.ts`, where the rules are): the field a broken rule
 * names and the English sentence an agent reads, built from the issue's numbers and field names only, never from a
 * party's text.
 */

/** The field a broken rule names, as a path into the `generate_label` input. */
export function fieldOf(issue: PlausibilityIssue): string {
  switch (issue.rule) {
    case 'weight_below_minimum':
    case 'weight_not_whole':
    case 'weight_over_limit':
      return 'weightGrams';
    case 'unknown_service':
      return 'serviceCode';
    case 'envelope_out_of_limits':
    case 'box_side_over':
    case 'box_side_under':
      return `dimensions.${issue.side}`;
    case 'roll_length_out_of_limits':
      return 'dimensions.comprimento';
    case 'roll_diameter_out_of_limits':
      return 'dimensions.largura';
    case 'box_sum_over':
    case 'roll_sum_over':
      return 'dimensions';
    case 'too_many_declared_items':
    case 'declared_total_over':
      return 'declaredItems';
    case 'declared_content_text':
      return `declaredItems[${issue.index}].conteudo`;
    case 'declared_quantity':
      return `declaredItems[${issue.index}].quantidade`;
    case 'declared_unit_value':
    case 'declared_unit_value_decimals':
      return `declaredItems[${issue.index}].valor`;
    case 'party_text':
      return `${issue.party}.${issue.path}`;
    case 'cpf_cnpj':
      return `${issue.party}.cpfCnpj`;
    case 'email':
      return `${issue.party}.email`;
    case 'cep_uf_mismatch':
      return `${issue.party}.endereco.uf`;
  }
}

const CM = 'Dimensions are in centimetres.';

/** The contract codes as an agent reads them: `03220 (SEDEX), 03298 (PAC), …`. */
export const CONTRACT_CODES_TEXT = Object.values(CONTRACT_SERVICES)
  .map((service) => `${service.serviceCode} (${service.name})`)
  .join(', ');

/** The English sentence of a broken rule: what is wrong, in the input's own field names, and how to fix it. */
export function plausibilityMessage(issue: PlausibilityIssue): string {
  const field = fieldOf(issue);
  switch (issue.rule) {
    case 'weight_below_minimum':
      return weightBelowMinimumText(issue.weightGrams);
    case 'weight_not_whole': {
      const grams = Math.round(issue.weightGrams);
      const kilograms = Math.round(issue.weightGrams * 1000);
      const asKilograms =
        kilograms <= MAX_CONTRACT_WEIGHT_GRAMS
          ? `, or ${kilograms} if ${issue.weightGrams} is kilograms`
          : '';
      return `weightGrams is a whole number of grams: ${issue.weightGrams} is not. Send ${grams}${asKilograms}.`;
    }
    case 'unknown_service':
      return unknownServiceText(issue.serviceCode, issue.presentationName);
    case 'weight_over_limit': {
      const { service } = issue;
      return `weightGrams ${issue.weightGrams} g is over the ${service.maxWeightGrams} g (${service.maxWeightGrams / 1000} kg) limit of ${service.name} (${service.serviceCode}).`;
    }
    case 'envelope_out_of_limits': {
      const { comprimento, largura } = FORMAT_LIMITS.envelope;
      return `An envelope (objectFormat "1") is ${comprimento.min} to ${comprimento.max} cm long (dimensions.comprimento) and ${largura.min} to ${largura.max} cm wide (dimensions.largura); ${field} is ${issue.value} cm. ${CM}`;
    }
    case 'box_side_over':
      return `A box (objectFormat "2") takes at most ${FORMAT_LIMITS.box[issue.side].max} cm a side; ${field} is ${issue.value} cm. ${CM}`;
    case 'box_sum_over':
      return `A box's sides add up to at most ${FORMAT_LIMITS.box.maxSum} cm; comprimento + largura + altura is ${issue.sum} cm.`;
    case 'box_side_under': {
      const { comprimento, largura, altura } = FORMAT_LIMITS.box;
      return `A box (objectFormat "2") is at least ${comprimento.min} × ${largura.min} × ${altura.min} cm (comprimento × largura × altura); ${field} is ${issue.value} cm. ${CM}`;
    }
    case 'roll_length_out_of_limits': {
      const { comprimento } = FORMAT_LIMITS.roll;
      return `A roll (objectFormat "3") is ${comprimento.min} to ${comprimento.max} cm long; dimensions.comprimento is ${issue.value} cm. ${CM}`;
    }
    case 'roll_diameter_out_of_limits': {
      const { diametro } = FORMAT_LIMITS.roll;
      return `A roll's diameter (dimensions.largura) is ${diametro.min} to ${diametro.max} cm; it is ${issue.value} cm. ${CM}`;
    }
    case 'roll_sum_over':
      return `A roll's length + 2 × diameter is at most ${FORMAT_LIMITS.roll.maxLengthPlusDiameters} cm; it is ${issue.sum} cm.`;
    case 'too_many_declared_items':
      return `declaredItems has ${issue.count} lines; a content declaration takes at most ${MAX_DECLARED_ITEMS}.`;
    case 'declared_quantity':
      return `${field} is a whole number of units from 1 to ${MAX_DECLARED_QUANTITY.toLocaleString('en-US')}; ${issue.quantidade} is not.`;
    case 'declared_unit_value':
      return `${field} is the unit value in BRL, 0 or more; ${issue.valor} is not.`;
    case 'declared_unit_value_decimals':
      return `${field} is the unit value in BRL, in whole centavos (at most 2 decimal places); ${issue.valor} has more. Send it rounded to the centavo, e.g. ${(centavos(issue.valor) / 100).toFixed(2)}.`;
    case 'declared_total_over': {
      const { service } = issue;
      return `The declared total (Σ quantidade × valor, valor being each line's unit value) is ${formatBRL(issue.totalCents / 100, 'en')}, over the ${formatBRL(service.maxDeclaredValueBRL, 'en')} maximum declared value of ${service.name} (${service.serviceCode}).`;
    }
    case 'declared_content_text':
    case 'party_text':
      return textProblemText(field, issue.problem);
    case 'cpf_cnpj':
      return cpfCnpjText(field, issue.problem);
    case 'email':
      return issue.problem === 'format'
        ? `${field} is not a valid e-mail address.`
        : `${field} has ${issue.length} characters; the carrier takes at most ${EMAIL_MAX_LENGTH}.`;
    case 'cep_uf_mismatch': {
      const uf = ECHOABLE_CODE.test(issue.uf) ? `"${issue.uf}"` : 'given';
      return `${field} ${uf} is not the state of CEP ${formatCep(issue.cep)}, which is in ${issue.cepUf}: check the CEP and the state (the carrier refuses a label whose UF is not its CEP's).`;
    }
  }
}

const MAX_CONTRACT_WEIGHT_GRAMS = Math.max(...Object.values(CONTRACT_SERVICES).map((s) => s.maxWeightGrams));

/** "weightGrams is in grams: 0.8 looks like kilograms — 800 g?", when the kilogram reading is a weight at all. */
function weightBelowMinimumText(weightGrams: number): string {
  const grams = Math.round(weightGrams * 1000);
  const floor = `The least a packed object weighs is ${MIN_WEIGHT_GRAMS} g.`;
  if (grams < MIN_WEIGHT_GRAMS || grams > MAX_CONTRACT_WEIGHT_GRAMS) {
    return `weightGrams is in grams and ${weightGrams} is below the minimum. ${floor}`;
  }
  return `weightGrams is in grams: ${weightGrams} looks like kilograms — ${grams} g? ${floor}`;
}

/** A service code echoed only when it is short and plain: a refusal never repeats text an agent cannot trust. */
const ECHOABLE_CODE = /^[A-Za-z0-9 _-]{1,24}$/;

function unknownServiceText(serviceCode: string, presentationName: boolean): string {
  const quoted = ECHOABLE_CODE.test(serviceCode) ? `"${serviceCode}"` : 'given';
  if (presentationName) {
    return `serviceCode ${quoted} is a presentation name, not a contract product code: use 03298 (PAC) or 03220 (SEDEX). The contract codes are ${CONTRACT_CODES_TEXT}.`;
  }
  return `serviceCode ${quoted} is not a contract product code. The contract codes are ${CONTRACT_CODES_TEXT}.`;
}

/** U+202E, as a code point is named. */
export function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

function textProblemText(field: string, problem: TextProblem): string {
  switch (problem.kind) {
    case 'control':
      return `${field} contains ${codePointName(problem.codePoint)}, a control or invisible formatting character (such as a line break or a bidirectional override); send plain text.`;
    case 'blank':
      return `${field} is blank; the carrier prints it on the label.`;
    case 'too_long':
      return `${field} has ${problem.length} characters; the carrier prints at most ${problem.max}.`;
  }
}

function cpfCnpjText(field: string, problem: 'shape' | 'repeated' | 'check_digits'): string {
  switch (problem) {
    case 'shape':
      return `${field} is a CPF (11 digits) or a CNPJ (14 digits), without dots, dashes or slashes.`;
    case 'repeated':
      return `${field} repeats a single digit: no CPF or CNPJ is issued like that.`;
    case 'check_digits':
      return `${field} has wrong check digits: it is not a valid CPF or CNPJ.`;
  }
}
