/**
 * The carrier's figures (Correios), in one place: the contract services a label can be issued for, with their
 * weight and declared-value limits, the dimension limits of each object format, the lengths the carrier takes for
 * the party fields it prints, and the limits of the content declaration. The BFF's plausibility rules
 * (`plausibility.ts`) and the sandbox's emulated carrier (`sandbox/labels/rules.ts`,
 * `sandbox/carrier/services.ts`) both read them, so a change of the carrier's table is one edit here.
 *
 * Each figure cites where it comes from; a figure that no public source we could read gives is marked "our choice".
 * sandbox/README.md ("Labels") repeats the table with the same sources.
 *
 * Sources:
 * - [facts] `../shared/data/correios-facts.md`, the project's gathered Correios facts.
 * - [mandae] Mandaê, "Proibições dos Correios: o que posso e o que não posso enviar" (updated March 2022):
 *   weights per service and the minimum/maximum dimensions of "Pacote e Caixa", "Envelope" and "Rolo".
 * - [xsd] Correios' SIGEP WEB pre-posting list schema, `versao_arquivo` 2.3 (XMLSpy, "rogerio maia (correios)"),
 *   as shipped by olist/correios `correios/data/posting_list_schema.xsd` and kmee/pySigepWeb `plp_xml_string.py`:
 *   `maxLength` of each party field, `peso` an integer of grams up to 30000.
 * - [vd] Melhor Envio help, "Como preencher o valor segurado de meu envio pelos Correios": maximum declared value
 *   PAC R$ 3.000,00, SEDEX R$ 10.000,00, Mini Envios R$ 100,00; the PAC figure also in the 2016 PAC change ("Com a
 *   modalidade PAC o seguro será de até R$ 3.000,00", blog.ecshop.com.br). Correios' own "Valor Declarado" page
 *   says only "Máximo: conforme definido na tabela de preços do serviço contratado".
 */

/** A contract product (correios-facts.md): its code, name and the carrier's limits for one object. */
export interface ContractService {
  serviceCode: string;
  name: string;
  /** The heaviest object the service takes, in grams. */
  maxWeightGrams: number;
  /**
   * The largest declared value (BRL) the service insures; applied to the content declaration's total
   * (Σ quantidade × valor), as the plausibility rules say (docs/agents/labels.md, "One declared value").
   */
  maxDeclaredValueBRL: number;
}

/**
 * The six contract products (correios-facts.md). Weights: PAC and SEDEX 30 kg, SEDEX 10/12/Hoje 10 kg [mandae]
 * [facts] [xsd]; Mini Envios 300 g (the sandbox's figure since its start, the product's published limit; no page we
 * could read states it, so it stays our choice). Declared values: PAC R$ 3,000, SEDEX R$ 10,000, Mini Envios R$ 100
 * [vd]; SEDEX 10, 12 and Hoje take SEDEX's R$ 10,000 (our choice: the 2016 change kept "as regras de valor
 * declarado" of the SEDEX family, and no page names a different figure).
 */
export const CONTRACT_SERVICES = {
  '03220': { serviceCode: '03220', name: 'SEDEX', maxWeightGrams: 30_000, maxDeclaredValueBRL: 10_000 },
  '03298': { serviceCode: '03298', name: 'PAC', maxWeightGrams: 30_000, maxDeclaredValueBRL: 3_000 },
  '03140': { serviceCode: '03140', name: 'SEDEX 12', maxWeightGrams: 10_000, maxDeclaredValueBRL: 10_000 },
  '03158': { serviceCode: '03158', name: 'SEDEX 10', maxWeightGrams: 10_000, maxDeclaredValueBRL: 10_000 },
  '03204': { serviceCode: '03204', name: 'SEDEX Hoje', maxWeightGrams: 10_000, maxDeclaredValueBRL: 10_000 },
  '04227': { serviceCode: '04227', name: 'Mini Envios', maxWeightGrams: 300, maxDeclaredValueBRL: 100 },
} as const satisfies Record<string, ContractService>;

export type ContractServiceCode = keyof typeof CONTRACT_SERVICES;

/** The contract service of a product code, or `undefined` for a code outside the contract (or `__proto__`). */
export function contractService(serviceCode: string): ContractService | undefined {
  return Object.hasOwn(CONTRACT_SERVICES, serviceCode)
    ? CONTRACT_SERVICES[serviceCode as ContractServiceCode]
    : undefined;
}

/** Names people and shops use for a service: never a contract product code (spec 2.2). Whole names only. */
const PRESENTATION_NAME = /^(correios[\s_-]?)?(pac|sedex([\s_-]?(10|12|hoje))?|mini[\s_-]?envios)$/i;

/** Whether `serviceCode` is a presentation name (`PAC`, `correios-sedex`, `SEDEX 10`), not a product code. */
export function isPresentationName(serviceCode: string): boolean {
  return PRESENTATION_NAME.test(serviceCode.trim());
}

/**
 * Our plausibility floor, not a carrier figure (docs/agents/labels.md, "Plausibility before money"): no packed object weighs under 10 g, while a
 * kilogram figure sent as grams (0.8 for 800 g) does.
 */
export const MIN_WEIGHT_GRAMS = 10;

/** An inclusive range of centimetres. */
export interface CmRange {
  min: number;
  max: number;
}

/**
 * Dimension limits per object format, in cm [mandae] [facts]. The older SIGEP schema [xsd] said 16 × 11 × 2 to
 * 105 cm a side; the sandbox follows the current table. An envelope's height and a roll's height are not held: the
 * carrier's table names no limit for them (`largura` is a roll's diameter, spec 4.4.3 has no separate field).
 */
export const FORMAT_LIMITS = {
  /** `objectFormat` "1". */
  envelope: { comprimento: { min: 16, max: 60 }, largura: { min: 11, max: 60 } },
  /** `objectFormat` "2" (the default): each side, and the three sides added. */
  box: {
    comprimento: { min: 15, max: 100 },
    largura: { min: 10, max: 100 },
    altura: { min: 1, max: 100 },
    maxSum: 200,
  },
  /** `objectFormat` "3": length, diameter (`largura`), and length + 2 × diameter. */
  roll: { comprimento: { min: 18, max: 100 }, diametro: { min: 5, max: 91 }, maxLengthPlusDiameters: 200 },
} as const satisfies {
  envelope: Record<'comprimento' | 'largura', CmRange>;
  box: Record<'comprimento' | 'largura' | 'altura', CmRange> & { maxSum: number };
  roll: Record<'comprimento' | 'diametro', CmRange> & { maxLengthPlusDiameters: number };
};

/** The party fields the carrier prints on the label, by their path inside a party (spec 2.5). */
export type PrintedField =
  | 'nome'
  | 'endereco.logradouro'
  | 'endereco.numero'
  | 'endereco.complemento'
  | 'endereco.bairro'
  | 'endereco.cidade';

/**
 * The most characters the carrier takes for each printed party field, sender and recipient alike [xsd]: `nome`,
 * `logradouro` 50, `numero` 18, `complemento`, `bairro`, `cidade` 30. Characters are counted as Unicode code
 * points of the NFC form (our choice: the schema counts XML characters, and a decomposed "é" is one letter).
 */
export const PRINTED_FIELD_MAX: Readonly<Record<PrintedField, number>> = {
  nome: 50,
  'endereco.logradouro': 50,
  'endereco.numero': 18,
  'endereco.complemento': 30,
  'endereco.bairro': 30,
  'endereco.cidade': 30,
};

/** The longest `email` the carrier takes [xsd] (`email_destinatario`, `email_remetente`). */
export const EMAIL_MAX_LENGTH = 50;

/** At most 50 lines in a content declaration (docs/agents/labels.md, "Plausibility before money"; our choice, as spec 8's 50 quote items). */
export const MAX_DECLARED_ITEMS = 50;

/** A declared line's `quantidade` is at most 9,999 units (docs/agents/labels.md, "Plausibility before money"; our choice, four digits). */
export const MAX_DECLARED_QUANTITY = 9_999;
