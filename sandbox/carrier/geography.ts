import { regionOf } from '../../shared/lanes.ts';
import type { Uf } from '../../shared/uf.ts';

/** Each state's capital, as the carrier names its sorting centre. */
const CAPITALS: Record<Uf, string> = {
  AC: 'Rio Branco',
  AL: 'Maceió',
  AM: 'Manaus',
  AP: 'Macapá',
  BA: 'Salvador',
  CE: 'Fortaleza',
  DF: 'Brasília',
  ES: 'Vitória',
  GO: 'Goiânia',
  MA: 'São Luís',
  MG: 'Belo Horizonte',
  MS: 'Campo Grande',
  MT: 'Cuiabá',
  PA: 'Belém',
  PB: 'João Pessoa',
  PE: 'Recife',
  PI: 'Teresina',
  PR: 'Curitiba',
  RJ: 'Rio de Janeiro',
  RN: 'Natal',
  RO: 'Porto Velho',
  RR: 'Boa Vista',
  RS: 'Porto Alegre',
  SC: 'Florianópolis',
  SE: 'Aracaju',
  SP: 'São Paulo',
  TO: 'Palmas',
};

const NEIGHBOUR_REGIONS = new Set(['SE-S', 'SE-CO', 'SE-NE', 'CO-N', 'CO-S', 'CO-NE', 'NE-N']);

export function capitalOf(uf: Uf): string {
  return CAPITALS[uf];
}

/**
 * Price and deadline zone between two states: 1 same state, 2 same region, 3 neighbouring regions, 4 far.
 */
export function zoneBetween(origin: Uf, destination: Uf): 1 | 2 | 3 | 4 {
  if (origin === destination) return 1;
  const a = regionOf(origin);
  const b = regionOf(destination);
  if (a === b) return 2;
  if (NEIGHBOUR_REGIONS.has(`${a}-${b}`) || NEIGHBOUR_REGIONS.has(`${b}-${a}`)) return 3;
  return 4;
}
