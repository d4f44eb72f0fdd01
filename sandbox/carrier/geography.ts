/** Brazilian states by CEP range (first five digits, whole ranges: prefixes 69, 72, 73 and 76 span two states). */
const RANGES: readonly (readonly [number, number, Uf])[] = [
  [1000, 19999, 'SP'],
  [20000, 28999, 'RJ'],
  [29000, 29999, 'ES'],
  [30000, 39999, 'MG'],
  [40000, 48999, 'BA'],
  [49000, 49999, 'SE'],
  [50000, 56999, 'PE'],
  [57000, 57999, 'AL'],
  [58000, 58999, 'PB'],
  [59000, 59999, 'RN'],
  [60000, 63999, 'CE'],
  [64000, 64999, 'PI'],
  [65000, 65999, 'MA'],
  [66000, 68899, 'PA'],
  [68900, 68999, 'AP'],
  [69000, 69299, 'AM'],
  [69300, 69399, 'RR'],
  [69400, 69899, 'AM'],
  [69900, 69999, 'AC'],
  [70000, 72799, 'DF'],
  [72800, 72999, 'GO'],
  [73000, 73699, 'DF'],
  [73700, 76799, 'GO'],
  [76800, 76999, 'RO'],
  [77000, 77999, 'TO'],
  [78000, 78899, 'MT'],
  [79000, 79999, 'MS'],
  [80000, 87999, 'PR'],
  [88000, 89999, 'SC'],
  [90000, 99999, 'RS'],
];

export type Uf =
  | 'AC'
  | 'AL'
  | 'AM'
  | 'AP'
  | 'BA'
  | 'CE'
  | 'DF'
  | 'ES'
  | 'GO'
  | 'MA'
  | 'MG'
  | 'MS'
  | 'MT'
  | 'PA'
  | 'PB'
  | 'PE'
  | 'PI'
  | 'PR'
  | 'RJ'
  | 'RN'
  | 'RO'
  | 'RR'
  | 'RS'
  | 'SC'
  | 'SE'
  | 'SP'
  | 'TO';

export type Region = 'N' | 'NE' | 'CO' | 'SE' | 'S';

const STATES: Record<Uf, { region: Region; capital: string }> = {
  AC: { region: 'N', capital: 'Rio Branco' },
  AL: { region: 'NE', capital: 'Maceió' },
  AM: { region: 'N', capital: 'Manaus' },
  AP: { region: 'N', capital: 'Macapá' },
  BA: { region: 'NE', capital: 'Salvador' },
  CE: { region: 'NE', capital: 'Fortaleza' },
  DF: { region: 'CO', capital: 'Brasília' },
  ES: { region: 'SE', capital: 'Vitória' },
  GO: { region: 'CO', capital: 'Goiânia' },
  MA: { region: 'NE', capital: 'São Luís' },
  MG: { region: 'SE', capital: 'Belo Horizonte' },
  MS: { region: 'CO', capital: 'Campo Grande' },
  MT: { region: 'CO', capital: 'Cuiabá' },
  PA: { region: 'N', capital: 'Belém' },
  PB: { region: 'NE', capital: 'João Pessoa' },
  PE: { region: 'NE', capital: 'Recife' },
  PI: { region: 'NE', capital: 'Teresina' },
  PR: { region: 'S', capital: 'Curitiba' },
  RJ: { region: 'SE', capital: 'Rio de Janeiro' },
  RN: { region: 'NE', capital: 'Natal' },
  RO: { region: 'N', capital: 'Porto Velho' },
  RR: { region: 'N', capital: 'Boa Vista' },
  RS: { region: 'S', capital: 'Porto Alegre' },
  SC: { region: 'S', capital: 'Florianópolis' },
  SE: { region: 'NE', capital: 'Aracaju' },
  SP: { region: 'SE', capital: 'São Paulo' },
  TO: { region: 'N', capital: 'Palmas' },
};

const NEIGHBOUR_REGIONS = new Set(['SE-S', 'SE-CO', 'SE-NE', 'CO-N', 'CO-S', 'CO-NE', 'NE-N']);

/** The state of an 8-digit CEP, or `undefined` where the carrier has no coverage (00000-000 to 00999-999). */
export function ufOfCep(cep: string): Uf | undefined {
  const prefix = Number(cep.slice(0, 5));
  for (const [start, end, uf] of RANGES) {
    if (prefix >= start && prefix <= end) return uf;
  }
  return undefined;
}

export function capitalOf(uf: Uf): string {
  return STATES[uf].capital;
}

/**
 * Price and deadline zone between two states: 1 same state, 2 same region, 3 neighbouring regions, 4 far.
 */
export function zoneBetween(origin: Uf, destination: Uf): 1 | 2 | 3 | 4 {
  if (origin === destination) return 1;
  const a = STATES[origin].region;
  const b = STATES[destination].region;
  if (a === b) return 2;
  if (NEIGHBOUR_REGIONS.has(`${a}-${b}`) || NEIGHBOUR_REGIONS.has(`${b}-${a}`)) return 3;
  return 4;
}
