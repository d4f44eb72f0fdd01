import { formatCep } from '../../shared/cep.ts';
import {
  EMAIL_MAX_LENGTH,
  FORMAT_LIMITS,
  MAX_DECLARED_ITEMS,
  MAX_DECLARED_QUANTITY,
  MIN_WEIGHT_GRAMS,
} from '../../shared/labels/carrier-limits.ts';
import type { GenerateLabelInput } from '../../shared/labels/label.ts';
import { type PlausibilityRefusal, plausibilityIssue, refusalOf } from '../../shared/labels/plausibility.ts';
import type {
  PartyRole,
  PartyTextField,
  PlausibilityIssue,
  TextProblem,
} from '../../shared/labels/plausibility-issue.ts';
import { codePointName } from '../../shared/labels/plausibility-messages.ts';
import { formatBRL } from '../../shared/money.ts';
import { ufOfCep } from '../../shared/uf.ts';
import { type CarrierService, carrierService } from '../carrier/services.ts';

/**
 * A pre-posting the carrier takes (and the service it is issued under), or its refusal: the carrier's Portuguese
 * `status` and, when the rule is one of the shared plausibility rules, the refusal the BFF would have answered
 * (so a test can tell a plausibility refusal from a coverage one).
 */
export type LabelCheck =
  | { ok: true; service: CarrierService }
  | { ok: false; status: string; refusal?: PlausibilityRefusal };

/**
 * What the carrier refuses at pre-posting (spec 7.2): first the plausibility rules the BFF also checks
 * (`shared/labels/plausibility.ts`: weight, product code, dimensions, content declaration, party fields, CPF/CNPJ,
 * e-mail), in their order and worded as the carrier words them; then what only the carrier knows, the coverage of
 * both CEPs and the state of each.
 */
export function checkLabel(input: GenerateLabelInput): LabelCheck {
  const issue = plausibilityIssue(input);
  if (issue) return { ok: false, status: carrierStatus(issue), refusal: refusalOf(issue) };
  const service = carrierService(input.serviceCode.trim());
  // plausibilityIssue refuses any code outside the contract, so this is only the type's way of saying so.
  if (!service) return { ok: false, status: `Código de serviço ${input.serviceCode.trim()} inexistente.` };
  // The UF of each CEP is a plausibility rule (above); its coverage only the carrier knows.
  for (const [role, party] of [
    ['remetente', input.sender],
    ['destinatário', input.recipient],
  ] as const) {
    if (!ufOfCep(party.endereco.cep)) {
      return {
        ok: false,
        status: `CEP do ${role} ${formatCep(party.endereco.cep)} sem cobertura de entrega.`,
      };
    }
  }
  return { ok: true, service };
}

/** `0,8`: a number as the carrier writes it. */
const ptNumber = (value: number) => String(value).replace('.', ',');

const ROLE: Record<PartyRole, string> = { sender: 'remetente', recipient: 'destinatário' };

const FIELD: Record<PartyTextField, string> = {
  nome: 'Nome',
  'endereco.logradouro': 'Logradouro',
  'endereco.numero': 'Número',
  'endereco.complemento': 'Complemento',
  'endereco.bairro': 'Bairro',
  'endereco.cidade': 'Cidade',
  'endereco.uf': 'UF',
  telefone: 'Telefone',
};

/** The carrier's Portuguese status for a broken plausibility rule, built from the shared figures. */
export function carrierStatus(issue: PlausibilityIssue): string {
  switch (issue.rule) {
    case 'weight_below_minimum':
      return `Peso de ${ptNumber(issue.weightGrams)} g abaixo do mínimo de ${MIN_WEIGHT_GRAMS} g: o peso é informado em gramas.`;
    case 'weight_not_whole':
      return `Peso de ${ptNumber(issue.weightGrams)} g inválido: informe o peso em gramas inteiros.`;
    case 'unknown_service':
      return issue.presentationName
        ? `serviceCode "${issue.serviceCode}" é um nome de apresentação, não um código de produto do contrato: use 03298 (PAC) ou 03220 (SEDEX).`
        : `Código de serviço ${issue.serviceCode} inexistente ou fora do contrato.`;
    case 'weight_over_limit': {
      const { service } = issue;
      return `Peso de ${issue.weightGrams} g acima do limite de ${service.maxWeightGrams} g do serviço ${service.serviceCode} (${service.name}).`;
    }
    case 'envelope_out_of_limits': {
      const { comprimento, largura } = FORMAT_LIMITS.envelope;
      return `Envelope fora dos limites: comprimento de ${comprimento.min} a ${comprimento.max} cm e largura de ${largura.min} a ${largura.max} cm.`;
    }
    case 'box_side_over':
      return `Caixa fora dos limites: cada lado até ${FORMAT_LIMITS.box.comprimento.max} cm.`;
    case 'box_sum_over':
      return `Caixa fora dos limites: soma dos lados até ${FORMAT_LIMITS.box.maxSum} cm.`;
    case 'box_side_under': {
      const { comprimento, largura, altura } = FORMAT_LIMITS.box;
      return `Caixa abaixo do mínimo de ${comprimento.min} × ${largura.min} × ${altura.min} cm.`;
    }
    case 'roll_length_out_of_limits': {
      const { comprimento } = FORMAT_LIMITS.roll;
      return `Rolo fora dos limites: comprimento de ${comprimento.min} a ${comprimento.max} cm.`;
    }
    case 'roll_diameter_out_of_limits': {
      const { diametro } = FORMAT_LIMITS.roll;
      return `Rolo fora dos limites: diâmetro (largura) de ${diametro.min} a ${diametro.max} cm.`;
    }
    case 'roll_sum_over':
      return `Rolo fora dos limites: comprimento + 2 × diâmetro até ${FORMAT_LIMITS.roll.maxLengthPlusDiameters} cm.`;
    case 'too_many_declared_items':
      return `Declaração de conteúdo com ${issue.count} itens: o máximo é ${MAX_DECLARED_ITEMS}.`;
    case 'declared_content_text':
      return `Conteúdo do item ${issue.index + 1} da declaração de conteúdo ${textProblemPt(issue.problem)}`;
    case 'declared_quantity':
      return `Quantidade do item ${issue.index + 1} da declaração de conteúdo inválida: informe um número inteiro de 1 a ${MAX_DECLARED_QUANTITY}.`;
    case 'declared_unit_value':
      return `Valor do item ${issue.index + 1} da declaração de conteúdo inválido: informe o valor unitário, de ${formatBRL(0)} em diante.`;
    case 'declared_unit_value_decimals':
      return `Valor do item ${issue.index + 1} da declaração de conteúdo com mais de duas casas decimais: informe o valor unitário em centavos inteiros.`;
    case 'declared_total_over': {
      const { service } = issue;
      return `Valor declarado de ${formatBRL(issue.totalCents / 100)} acima do máximo de ${formatBRL(service.maxDeclaredValueBRL)} do serviço ${service.serviceCode} (${service.name}).`;
    }
    case 'party_text':
      return `${FIELD[issue.path]} do ${ROLE[issue.party]} ${textProblemPt(issue.problem)}`;
    case 'cpf_cnpj':
      return `CPF/CNPJ do ${ROLE[issue.party]} inválido: ${CPF_CNPJ_PROBLEM[issue.problem]}.`;
    case 'email':
      return issue.problem === 'format'
        ? `E-mail do ${ROLE[issue.party]} inválido.`
        : `E-mail do ${ROLE[issue.party]} com ${issue.length} caracteres: o máximo é ${EMAIL_MAX_LENGTH}.`;
    case 'cep_uf_mismatch':
      return `UF do ${ROLE[issue.party]} (${issue.uf}) não corresponde ao CEP ${formatCep(issue.cep)} (${issue.cepUf}).`;
  }
}

const CPF_CNPJ_PROBLEM = {
  shape: 'informe 11 dígitos (CPF) ou 14 (CNPJ), sem pontuação',
  repeated: 'dígitos todos iguais',
  check_digits: 'dígitos verificadores não conferem',
} as const;

function textProblemPt(problem: TextProblem): string {
  switch (problem.kind) {
    case 'control':
      return `contém caractere de controle ou de formatação invisível (${codePointName(problem.codePoint)}).`;
    case 'blank':
      return 'em branco.';
    case 'too_long':
      return `com ${problem.length} caracteres: o máximo impresso é ${problem.max}.`;
  }
}
