/** The 27 federative units. */
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

/**
 * Brazilian states by CEP range (the Correios ranges by state are public), as text the calculator carries cheaply:
 * each entry is five characters, the first three digits of the range's first CEP and its state; a range runs up to
 * the next entry, `--` is no state. Prefixes 69, 72, 73 and 76 span two states, whole ranges of 100 CEP blocks each.
 */
const RANGES =
  '010SP200RJ290ES300MG400BA490SE500PE570AL580PB590RN600CE640PI650MA660PA689AP690AM693RR694AM699AC' +
  '700DF728GO730DF737GO768RO770TO780MT789--790MS800PR880SC900RS';

/**
 * The state of a CEP from its first five digits, offline; `undefined` below 01000-000, where no state begins (the
 * platform's magic CEPs live there). Used by the widget ("Entrega para SP"), the shipping rules and the sandbox's
 * carrier, so all agree.
 */
export function ufOfCep(cep: string): Uf | undefined {
  const block = Math.floor(Number(cep.replace(/\D/g, '').slice(0, 5)) / 100);
  let uf: string | undefined;
  for (let i = 0; i < RANGES.length; i += 5)
    if (Number(RANGES.slice(i, i + 3)) <= block) uf = RANGES.slice(i + 3, i + 5);
  return uf === '--' ? undefined : (uf as Uf | undefined);
}
