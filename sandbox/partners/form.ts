import { formatCep, normalizeCep } from '../../shared/cep.ts';
import { ufOfCep } from '../../shared/uf.ts';

/** The quote services a store can enable (contract product codes), with the names the form shows. */
export const FORM_SERVICES = [
  { code: '03298', name: 'PAC' },
  { code: '03220', name: 'SEDEX' },
] as const;
type ServiceCode = (typeof FORM_SERVICES)[number]['code'];

/** What the merchant chose on the onboarding form, validated. */
export interface OnboardingChoices {
  originCep: string;
  services: ServiceCode[];
  plan: boolean;
  ownContract: boolean;
  labels: boolean;
}

/** The form's fields as posted (strings; `services` may repeat). */
export interface OnboardingFields {
  originCep: string;
  services: string[];
  plan: string;
  contract: string;
  contractNumber: string;
  accessCode: string;
  labels: string;
}

export type FieldErrors = Partial<Record<keyof OnboardingFields, string>>;

export type FormResult = { ok: true; choices: OnboardingChoices } | { ok: false; errors: FieldErrors };

const text = (value: unknown): string => (typeof value === 'string' ? value : '').slice(0, 200);

/** Reads a posted form body (urlencoded; anything else reads as empty) without trusting its shape. */
export function readFields(body: unknown): OnboardingFields {
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const services = Array.isArray(raw.services) ? raw.services : [raw.services];
  return {
    originCep: text(raw.originCep).trim(),
    services: services.filter((value): value is string => typeof value === 'string').slice(0, 10),
    plan: text(raw.plan),
    contract: text(raw.contract),
    contractNumber: text(raw.contractNumber).trim(),
    accessCode: text(raw.accessCode),
    labels: text(raw.labels),
  };
}

/**
 * Validates the onboarding form as the platform would: an origin CEP the carrier covers, at least one service,
 * a plan choice, the contract's number and access code when the store brings its own contract. Messages in pt-BR.
 */
export function validateForm(fields: OnboardingFields): FormResult {
  const errors: FieldErrors = {};
  const cep = normalizeCep(fields.originCep);
  if (fields.originCep === '') errors.originCep = 'Informe o CEP de origem dos envios.';
  else if (!cep) errors.originCep = 'CEP inválido: use 8 dígitos, como 01310-100.';
  else if (!ufOfCep(cep)) errors.originCep = `O CEP ${formatCep(cep)} não tem cobertura da transportadora.`;

  const known = FORM_SERVICES.map((service) => service.code as string);
  const services = [...new Set(fields.services)];
  if (services.length === 0) errors.services = 'Escolha pelo menos um serviço de entrega.';
  else if (services.some((code) => !known.includes(code))) errors.services = 'Serviço desconhecido.';

  if (fields.plan !== 'ativo' && fields.plan !== 'depois') errors.plan = 'Escolha se ativa o plano agora.';

  if (fields.contract !== 'proprio' && fields.contract !== 'nenhum')
    errors.contract = 'Diga se a loja tem contrato próprio com os Correios.';
  if (fields.contract === 'proprio') {
    if (!/^\d{10}$/.test(fields.contractNumber))
      errors.contractNumber = 'O número do contrato tem 10 dígitos.';
    if (fields.accessCode.trim() === '') errors.accessCode = 'Informe o código de acesso do contrato.';
  }
  if (fields.labels !== '' && fields.labels !== 'sim') errors.labels = 'Valor inválido.';

  if (Object.keys(errors).length > 0 || !cep) return { ok: false, errors };
  return {
    ok: true,
    choices: {
      originCep: cep,
      services: services as ServiceCode[],
      plan: fields.plan === 'ativo',
      ownContract: fields.contract === 'proprio',
      labels: fields.labels === 'sim',
    },
  };
}
