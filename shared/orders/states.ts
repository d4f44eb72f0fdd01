import type { Uf } from '../uf.ts';

/** The 27 federative units by name, as store platforms write a Brazilian address's province ("São Paulo"). */
const STATE_NAMES: Record<string, Uf> = {
  acre: 'AC',
  alagoas: 'AL',
  amapa: 'AP',
  amazonas: 'AM',
  bahia: 'BA',
  ceara: 'CE',
  'distrito federal': 'DF',
  'espirito santo': 'ES',
  goias: 'GO',
  maranhao: 'MA',
  'mato grosso': 'MT',
  'mato grosso do sul': 'MS',
  'minas gerais': 'MG',
  para: 'PA',
  paraiba: 'PB',
  parana: 'PR',
  pernambuco: 'PE',
  piaui: 'PI',
  'rio de janeiro': 'RJ',
  'rio grande do norte': 'RN',
  'rio grande do sul': 'RS',
  rondonia: 'RO',
  roraima: 'RR',
  'santa catarina': 'SC',
  'sao paulo': 'SP',
  sergipe: 'SE',
  tocantins: 'TO',
};

const UFS = new Set<string>(Object.values(STATE_NAMES));

/** A province as a platform writes it — a state's name ("São Paulo", any case or accents) or its code ("SP") — as its UF; '' when it is neither. */
export function ufOfProvince(province: string | null | undefined): string {
  const text = (province ?? '').trim();
  if (UFS.has(text.toUpperCase())) return text.toUpperCase();
  const plain = text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
  return STATE_NAMES[plain] ?? '';
}
