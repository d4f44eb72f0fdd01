import { type Uf, ufOfCep } from './uf.ts';

/**
 * Where a CEP lies, as delivery times depend on it: its state, whether it is the state's capital or the interior, the
 * state's region, and its 3-digit prefix (the Correios' "setor": a city or part of one). The BFF's delivery promise
 * learns per lane and backs off from the narrowest of these to the widest (bff/promise/); the sandbox's carrier draws
 * its transit times per lane (sandbox/carrier/transit-times.ts), so both read a CEP the same way.
 */

export const REGIONS_LIST = ['N', 'NE', 'CO', 'SE', 'S'] as const;
export type Region = (typeof REGIONS_LIST)[number];

/** The five regions of the IBGE, by state. */
const REGIONS: Record<Uf, Region> = {
  AC: 'N',
  AL: 'NE',
  AM: 'N',
  AP: 'N',
  BA: 'NE',
  CE: 'NE',
  DF: 'CO',
  ES: 'SE',
  GO: 'CO',
  MA: 'NE',
  MG: 'SE',
  MS: 'CO',
  MT: 'CO',
  PA: 'N',
  PB: 'NE',
  PE: 'NE',
  PI: 'NE',
  PR: 'S',
  RJ: 'SE',
  RN: 'NE',
  RO: 'N',
  RR: 'N',
  RS: 'S',
  SC: 'S',
  SE: 'NE',
  SP: 'SE',
  TO: 'N',
};

/** The 27 federative units. */
export const UFS = Object.keys(REGIONS) as Uf[];

export function regionOf(uf: Uf): Region {
  return REGIONS[uf];
}

/**
 * The capitals' CEP ranges (first five digits, inclusive), from the Correios' published ranges by locality, rounded
 * to whole ranges. Approximate at the edges (a new street may get a CEP outside them): a CEP on the wrong side only
 * moves a parcel to the neighbouring lane of the same state, never to another state. Brasília is the whole
 * Distrito Federal.
 */
const CAPITALS: readonly (readonly [number, number])[] = [
  [1000, 5999], // São Paulo
  [8000, 8499], // São Paulo (zona leste)
  [20000, 23799], // Rio de Janeiro
  [29000, 29099], // Vitória
  [30000, 31999], // Belo Horizonte
  [40000, 41999], // Salvador
  [49000, 49099], // Aracaju
  [50000, 52999], // Recife
  [57000, 57099], // Maceió
  [58000, 58099], // João Pessoa
  [59000, 59139], // Natal
  [60000, 61599], // Fortaleza
  [64000, 64099], // Teresina
  [65000, 65109], // São Luís
  [66000, 66999], // Belém
  [68900, 68914], // Macapá
  [69000, 69099], // Manaus
  [69300, 69339], // Boa Vista
  [69900, 69923], // Rio Branco
  [70000, 72799], // Brasília (DF)
  [73000, 73699], // Brasília (DF)
  [74000, 74894], // Goiânia
  [76800, 76834], // Porto Velho
  [77000, 77249], // Palmas
  [78000, 78109], // Cuiabá
  [79000, 79129], // Campo Grande
  [80000, 82999], // Curitiba
  [88000, 88099], // Florianópolis
  [90000, 91999], // Porto Alegre
];

/** Whether a CEP lies in its state's capital (see `CAPITALS`). */
export function isCapitalCep(cep: string): boolean {
  const five = Number(cep.replace(/\D/g, '').slice(0, 5));
  return CAPITALS.some(([start, end]) => five >= start && five <= end);
}

export type Area = 'capital' | 'interior';

/** Where a CEP lies: its 3-digit prefix, state, capital or interior, region. */
export interface Lane {
  prefix: string;
  uf: Uf;
  area: Area;
  region: Region;
}

/** The lane of a CEP (8 digits, separators ignored); undefined for a CEP in no state. */
export function laneOf(cep: string): Lane | undefined {
  const digits = cep.replace(/\D/g, '');
  if (digits.length !== 8) return undefined;
  const uf = ufOfCep(digits);
  if (!uf) return undefined;
  return {
    prefix: digits.slice(0, 3),
    uf,
    area: isCapitalCep(digits) ? 'capital' : 'interior',
    region: REGIONS[uf],
  };
}
