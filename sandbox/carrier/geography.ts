import type { Uf } from '../../shared/uf.ts';

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
