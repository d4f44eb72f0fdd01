import { formatCep } from '../../shared/cep.ts';
import type { GenerateLabelInput } from '../../shared/label.ts';
import { ufOfCep } from '../carrier/geography.ts';
import { type CarrierService, carrierService } from '../carrier/services.ts';

/** Names people and shops use for a service: never a contract product code (spec 2.2). */
const PRESENTATION_NAME = /^(correios[\s_-]?)?(pac|sedex([\s_-]?(10|12|hoje))?|mini[\s_-]?envios)$/i;

export type LabelCheck = { ok: true; service: CarrierService } | { ok: false; status: string };

const reject = (status: string): LabelCheck => ({ ok: false, status });

/** What the carrier refuses at pre-posting: wrong product code, weight, dimensions, coverage (spec 7.2). */
export function checkLabel(input: GenerateLabelInput): LabelCheck {
  const code = input.serviceCode.trim();
  if (PRESENTATION_NAME.test(code)) {
    return reject(
      `serviceCode "${code}" é um nome de apresentação, não um código de produto do contrato: use 03298 (PAC) ou 03220 (SEDEX).`,
    );
  }
  const service = carrierService(code);
  if (!service) return reject(`Código de serviço ${code} inexistente ou fora do contrato.`);
  if (input.weightGrams > service.maxWeightGrams) {
    return reject(
      `Peso de ${input.weightGrams} g acima do limite de ${service.maxWeightGrams} g do serviço ${code} (${service.name}).`,
    );
  }
  const dimensions = checkDimensions(input);
  if (dimensions) return reject(dimensions);
  for (const [role, party] of [
    ['remetente', input.sender],
    ['destinatário', input.recipient],
  ] as const) {
    const uf = ufOfCep(party.endereco.cep);
    if (!uf) return reject(`CEP do ${role} ${formatCep(party.endereco.cep)} sem cobertura de entrega.`);
    if (party.endereco.uf.toUpperCase() !== uf) {
      return reject(
        `UF do ${role} (${party.endereco.uf}) não corresponde ao CEP ${formatCep(party.endereco.cep)} (${uf}).`,
      );
    }
  }
  return { ok: true, service };
}

/** Correios limits per object format, in cm; `largura` is the diameter of a roll. */
function checkDimensions(input: GenerateLabelInput): string | undefined {
  const { comprimento, largura, altura } = input.dimensions;
  switch (input.objectFormat) {
    case '1':
      if (comprimento < 16 || comprimento > 60 || largura < 11 || largura > 60) {
        return 'Envelope fora dos limites: comprimento de 16 a 60 cm e largura de 11 a 60 cm.';
      }
      return undefined;
    case '3':
      if (comprimento < 18 || comprimento > 100) return 'Rolo fora dos limites: comprimento de 18 a 100 cm.';
      if (largura < 5 || largura > 91) return 'Rolo fora dos limites: diâmetro (largura) de 5 a 91 cm.';
      if (comprimento + 2 * largura > 200)
        return 'Rolo fora dos limites: comprimento + 2 × diâmetro até 200 cm.';
      return undefined;
    default:
      if (comprimento > 100 || largura > 100 || altura > 100)
        return 'Caixa fora dos limites: cada lado até 100 cm.';
      if (comprimento + largura + altura > 200) return 'Caixa fora dos limites: soma dos lados até 200 cm.';
      if (comprimento < 15 || largura < 10 || altura < 1) return 'Caixa abaixo do mínimo de 15 × 10 × 1 cm.';
      return undefined;
  }
}
