import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { PLAUSIBILITY_REASONS, plausibilityOf } from '../../shared/labels/plausibility.ts';
import { SAMPLE_LABEL } from '../testing.ts';
import { checkLabel } from './rules.ts';

/** The sample label with some fields changed, parsed as the tool parses it. */
const label = (change: Record<string, unknown> = {}) =>
  GenerateLabelInputSchema.parse({ ...SAMPLE_LABEL, ...change });
const box = (comprimento: number, largura: number, altura: number, objectFormat?: string) =>
  label({ dimensions: { comprimento, largura, altura }, ...(objectFormat ? { objectFormat } : {}) });
/** What fits Mini Envios (04227): up to R$ 100 declared; the sample's two shirts (R$ 159,80) do not. */
const SMALL_ITEMS = [{ conteudo: 'Brinco', quantidade: 1, valor: 39.9 }];
const refusal = (input: ReturnType<typeof label>) => {
  const check = checkLabel(input);
  return check.ok ? undefined : check.status;
};

describe('checkLabel: what the carrier refuses at pre-posting (spec 7.2)', () => {
  it('accepts the sample and answers the service it will issue under', () => {
    expect(checkLabel(label())).toEqual({ ok: true, service: expect.objectContaining({ name: 'PAC' }) });
    expect(checkLabel(label({ serviceCode: ' 03220 ' }))).toMatchObject({
      ok: true,
      service: { name: 'SEDEX' },
    });
  });

  it.each([
    'PAC',
    'sedex',
    'Correios SEDEX',
    'correios_pac',
    'SEDEX 10',
    'sedex-hoje',
    'Mini Envios',
    'SEDEX12',
  ])('refuses the presentation name %j and says which codes to use (spec 2.2)', (serviceCode) => {
    expect(refusal(label({ serviceCode }))).toMatch(/nome de apresentação.*03298 \(PAC\) ou 03220 \(SEDEX\)/);
  });

  it('refuses an unknown product code, and a name merely containing a service name as unknown', () => {
    expect(refusal(label({ serviceCode: '99999' }))).toBe(
      'Código de serviço 99999 inexistente ou fora do contrato.',
    );
    expect(refusal(label({ serviceCode: 'PAC expresso' }))).toMatch(/inexistente/);
  });

  it('refuses a weight over the limit of its own service, and accepts the limit itself', () => {
    expect(refusal(label({ weightGrams: 30_000 }))).toBeUndefined();
    expect(refusal(label({ weightGrams: 30_001 }))).toMatch(
      /30001 g acima do limite de 30000 g .*03298 \(PAC\)/,
    );
    const mini = (weightGrams: number) =>
      label({ serviceCode: '04227', weightGrams, declaredItems: SMALL_ITEMS });
    expect(refusal(mini(300))).toBeUndefined();
    expect(refusal(mini(301))).toMatch(/limite de 300 g/);
  });

  it('holds a box to 100 cm a side, 200 cm in all and at least 15 × 10 × 1 cm, limits included', () => {
    expect(refusal(box(100, 50, 50))).toBeUndefined();
    expect(refusal(box(15, 10, 1))).toBeUndefined();
    expect(refusal(box(101, 50, 40))).toMatch(/cada lado até 100/);
    expect(refusal(box(50, 101, 40))).toMatch(/cada lado até 100/);
    expect(refusal(box(50, 40, 101))).toMatch(/cada lado até 100/);
    expect(refusal(box(100, 60, 41))).toMatch(/soma dos lados até 200/);
    expect(refusal(box(14, 10, 1))).toMatch(/mínimo/);
    expect(refusal(box(15, 9, 1))).toMatch(/mínimo/);
    expect(refusal(box(15, 10, 0.5))).toMatch(/mínimo/);
  });

  it('holds an envelope to 16–60 cm long and 11–60 cm wide, limits included', () => {
    expect(refusal(box(16, 11, 1, '1'))).toBeUndefined();
    expect(refusal(box(60, 60, 1, '1'))).toBeUndefined();
    for (const [c, l] of [
      [15, 20],
      [61, 20],
      [20, 10],
      [20, 61],
    ] as const) {
      expect(refusal(box(c, l, 1, '1')), `${c} × ${l}`).toMatch(/^Envelope fora dos limites/);
    }
  });

  it('holds a roll to 18–100 cm long, 5–91 cm across and length + 2 × diameter ≤ 200, limits included', () => {
    expect(refusal(box(18, 5, 1, '3'))).toBeUndefined();
    expect(refusal(box(100, 50, 1, '3'))).toBeUndefined();
    expect(refusal(box(17, 10, 1, '3'))).toMatch(/comprimento de 18 a 100/);
    expect(refusal(box(101, 10, 1, '3'))).toMatch(/comprimento de 18 a 100/);
    expect(refusal(box(50, 4, 1, '3'))).toMatch(/diâmetro/);
    expect(refusal(box(18, 92, 1, '3'))).toMatch(/diâmetro/);
    expect(refusal(box(100, 51, 1, '3'))).toMatch(/\+ 2 × diâmetro até 200/);
  });

  it('refuses a CEP without coverage and a state that does not match the CEP, for sender and recipient', () => {
    const at = (cep: string, uf: string) => ({
      ...SAMPLE_LABEL.recipient,
      endereco: { ...SAMPLE_LABEL.recipient.endereco, cep, uf },
    });
    expect(refusal(label({ recipient: at('00500-000', 'SP') }))).toBe(
      'CEP do destinatário 00500-000 sem cobertura de entrega.',
    );
    expect(refusal(label({ recipient: at('20040-020', 'SP') }))).toBe(
      'UF do destinatário (SP) não corresponde ao CEP 20040-020 (RJ).',
    );
    expect(refusal(label({ sender: at('20040-020', 'SP') }))).toMatch(/^UF do remetente/);
    expect(refusal(label({ recipient: at('20040-020', 'rj') }))).toBeUndefined();
  });
});

/** correios-facts.md: the six contract product codes, their services and weight limits. */
describe('checkLabel: the contract product codes and their weight limits (correios-facts.md)', () => {
  it.each([
    ['03298', 'PAC', 30_000],
    ['03220', 'SEDEX', 30_000],
    ['03140', 'SEDEX 12', 10_000],
    ['03158', 'SEDEX 10', 10_000],
    ['03204', 'SEDEX Hoje', 10_000],
    ['04227', 'Mini Envios', 300],
  ])('%s issues as %s up to %i g, the limit included, and refuses 1 g more', (serviceCode, name, limit) => {
    const weighing = (weightGrams: number) => label({ serviceCode, weightGrams, declaredItems: SMALL_ITEMS });
    expect(checkLabel(weighing(limit))).toMatchObject({ ok: true, service: { serviceCode, name } });
    expect(refusal(weighing(limit + 1))).toBe(
      `Peso de ${limit + 1} g acima do limite de ${limit} g do serviço ${serviceCode} (${name}).`,
    );
  });

  it.each(['PAC 03298', 'SEDEXX', 'xpac', 'correios', '3298', '03298-1'])(
    'refuses %j as an unknown code, not as a presentation name (whole names only)',
    (serviceCode) => {
      expect(refusal(label({ serviceCode }))).toBe(
        `Código de serviço ${serviceCode} inexistente ou fora do contrato.`,
      );
    },
  );

  it('checks the weight before the dimensions, and the dimensions before the addresses', () => {
    const at = (cep: string, uf: string) => ({
      ...SAMPLE_LABEL.recipient,
      endereco: { ...SAMPLE_LABEL.recipient.endereco, cep, uf },
    });
    const all = {
      weightGrams: 30_001,
      dimensions: { comprimento: 101, largura: 10, altura: 10 },
      recipient: at('00500-000', 'SP'),
    };
    expect(refusal(label(all))).toMatch(/^Peso/);
    expect(refusal(label({ ...all, weightGrams: 10 }))).toMatch(/^Caixa/);
    expect(refusal(label({ recipient: at('00500-000', 'SP'), sender: at('00600-000', 'SP') }))).toBe(
      'CEP do remetente 00600-000 sem cobertura de entrega.',
    );
  });
});

describe('checkLabel: the format limits as tables, each edge on both sides', () => {
  it.each([
    // box (format 2, the default): each side ≤ 100, sum ≤ 200, minimum 15 × 10 × 1
    ['2', 100, 60, 40, undefined],
    ['2', 100, 60, 40.5, 'soma dos lados até 200'],
    ['2', 100.5, 50, 10, 'cada lado até 100'],
    ['2', 40, 100, 10, undefined],
    ['2', 40, 100.5, 10, 'cada lado até 100'],
    ['2', 40, 15, 100, undefined],
    ['2', 40, 15, 100.5, 'cada lado até 100'],
    ['2', 15, 10, 1, undefined],
    ['2', 14.9, 10, 1, 'mínimo'],
    ['2', 15, 9.9, 1, 'mínimo'],
    // envelope (1): 16–60 long, 11–60 wide; its height is not held to the box minimum
    ['1', 16, 11, 0.1, undefined],
    ['1', 60, 60, 0.5, undefined],
    ['1', 15.9, 30, 1, 'Envelope'],
    ['1', 60.1, 30, 1, 'Envelope'],
    ['1', 30, 10.9, 1, 'Envelope'],
    ['1', 30, 60.1, 1, 'Envelope'],
    // roll (3): 18–100 long, diameter 5–91, length + 2 × diameter ≤ 200; its height is not held at all
    ['3', 18, 5, 150, undefined],
    ['3', 18, 91, 1, undefined],
    ['3', 17.9, 10, 1, 'comprimento de 18 a 100'],
    ['3', 100.1, 10, 1, 'comprimento de 18 a 100'],
    ['3', 30, 4.9, 1, 'diâmetro (largura) de 5 a 91'],
    ['3', 18, 91.1, 1, 'diâmetro (largura) de 5 a 91'],
    ['3', 20, 90, 1, undefined],
    ['3', 21, 90, 1, '2 × diâmetro até 200'],
  ] as const)('format %s, %f × %f × %f cm → %s', (format, c, l, a, refused) => {
    const answer = refusal(box(c, l, a, format));
    if (refused === undefined) expect(answer).toBeUndefined();
    else expect(answer).toContain(refused);
  });
});

describe('checkLabel: the shared plausibility rules, in the carrier words', () => {
  const recipient = (change: Record<string, unknown>, endereco: Record<string, unknown> = {}) => ({
    recipient: {
      ...SAMPLE_LABEL.recipient,
      ...change,
      endereco: { ...SAMPLE_LABEL.recipient.endereco, ...endereco },
    },
  });
  const line = (quantidade: number, valor: number) => [{ conteudo: 'Camiseta', quantidade, valor }];

  it.each([
    [{ weightGrams: 0.8 }, 'Peso de 0,8 g abaixo do mínimo de 10 g: o peso é informado em gramas.'],
    [{ weightGrams: 9 }, 'Peso de 9 g abaixo do mínimo de 10 g: o peso é informado em gramas.'],
    [{ weightGrams: 800.5 }, 'Peso de 800,5 g inválido: informe o peso em gramas inteiros.'],
    [
      { declaredItems: Array.from({ length: 51 }, () => line(1, 1)[0]) },
      'Declaração de conteúdo com 51 itens: o máximo é 50.',
    ],
    [
      { declaredItems: [...line(1, 1), ...line(10_000, 0)] },
      'Quantidade do item 2 da declaração de conteúdo inválida: informe um número inteiro de 1 a 9999.',
    ],
    [
      { declaredItems: [{ conteudo: ' ', quantidade: 1, valor: 1 }] },
      'Conteúdo do item 1 da declaração de conteúdo em branco.',
    ],
    [
      { declaredItems: [...line(1, 79.9), ...line(9_999, 0.005)] },
      'Valor do item 2 da declaração de conteúdo com mais de duas casas decimais: informe o valor unitário em centavos inteiros.',
    ],
    [
      { declaredItems: line(1, 1_000_000_000_000) },
      'Valor declarado de R$\u00a01.000.000.000.000,00 acima do máximo de R$\u00a03.000,00 do serviço 03298 (PAC).',
    ],
    [
      { declaredItems: line(1, 3000.01) },
      'Valor declarado de R$\u00a03.000,01 acima do máximo de R$\u00a03.000,00 do serviço 03298 (PAC).',
    ],
    [recipient({ nome: 'x'.repeat(51) }), 'Nome do destinatário com 51 caracteres: o máximo impresso é 50.'],
    [recipient({}, { bairro: '  ' }), 'Bairro do destinatário em branco.'],
    [
      recipient({}, { cidade: 'Rio\u2066 de Janeiro' }),
      'Cidade do destinatário contém caractere de controle ou de formatação invisível (U+2066).',
    ],
    [recipient({ cpfCnpj: '11111111111' }), 'CPF/CNPJ do destinatário inválido: dígitos todos iguais.'],
    [
      recipient({ cpfCnpj: '52998224724' }),
      'CPF/CNPJ do destinatário inválido: dígitos verificadores não conferem.',
    ],
    [
      recipient({ cpfCnpj: '5299822472' }),
      'CPF/CNPJ do destinatário inválido: informe 11 dígitos (CPF) ou 14 (CNPJ), sem pontuação.',
    ],
    [recipient({ email: 'maria@' }), 'E-mail do destinatário inválido.'],
    [
      recipient({ email: `${'m'.repeat(40)}@example.com` }),
      'E-mail do destinatário com 52 caracteres: o máximo é 50.',
    ],
  ])('%j → %s', (change, status) => {
    const check = checkLabel(label(change));
    expect(check).toMatchObject({ ok: false, status, refusal: { reason: expect.any(String) } });
  });

  it('refuses a coverage or state mismatch without a plausibility refusal: the BFF cannot know it', () => {
    const at = {
      ...SAMPLE_LABEL.recipient,
      endereco: { ...SAMPLE_LABEL.recipient.endereco, cep: '00500-000' },
    };
    expect(checkLabel(label({ recipient: at }))).toEqual({
      ok: false,
      status: 'CEP do destinatário 00500-000 sem cobertura de entrega.',
    });
  });
});

/**
 * docs/agents/labels.md, "Plausibility before money": the BFF checks the plausibility rules before anything reaches the
 * platform, and the sandbox refuses the same as the carrier would. Whatever the input, the two agree: a label plausibilityOf lets through is never refused by the
 * emulated carrier for a plausibility reason, and each label it refuses is refused by the carrier, for the same
 * reason and field.
 */
describe('checkLabel agrees with plausibilityOf on any parsed input', () => {
  /** Mostly a plausible value, sometimes one on or across an edge: so both sides of every rule are reached. */
  const mostly = <T>(plausible: fc.Arbitrary<T>, ...edges: fc.Arbitrary<T>[]) =>
    fc.oneof({ weight: 20, arbitrary: plausible }, { weight: 1, arbitrary: fc.oneof(...edges) });
  const near = (value: number, spread: number) =>
    fc.oneof(
      fc.constant(value),
      fc.double({ min: value - spread, max: value + spread, noNaN: true }),
      fc.integer({ min: Math.ceil(value - spread), max: Math.floor(value + spread) }),
    );
  const text = (plausible: string, max: number) =>
    mostly(
      fc.constant(plausible),
      fc.string({ minLength: 1, maxLength: max + 2 }),
      fc.constantFrom('x'.repeat(max), 'x'.repeat(max + 1), ' ', 'Ana\u202EAna', 'Ana\nAna', 'Conceição'),
    );
  const party = fc.record({
    nome: text('Maria Silva', 50),
    cpfCnpj: mostly(
      fc.constantFrom(undefined, '52998224725', '11222333000181'),
      fc.constantFrom('52998224724', '11111111111', '123'),
    ),
    email: mostly(
      fc.constantFrom(undefined, 'maria@example.com'),
      fc.constantFrom('maria@', `${'m'.repeat(38)}@example.com`, `${'m'.repeat(39)}@example.com`),
    ),
    endereco: mostly<{ cep: string; uf: string; cidade: string }>(
      fc.constantFrom(
        { cep: '20040-020', uf: 'RJ', cidade: 'Rio de Janeiro' },
        { cep: '01310-100', uf: 'SP', cidade: 'São Paulo' },
      ),
      fc.constantFrom(
        { cep: '00500-000', uf: 'SP', cidade: 'Nenhures' },
        { cep: '20040-020', uf: 'SP', cidade: 'Rio de Janeiro' },
      ),
    ).chain((place) =>
      fc.record({
        cep: fc.constant(place.cep),
        uf: fc.constant(place.uf),
        cidade: text(place.cidade, 30),
        logradouro: text('Rua A', 50),
        numero: text('10', 18),
        bairro: text('Centro', 30),
        complemento: mostly(fc.constantFrom(undefined, '', 'apto 12'), text('Bloco B', 30)),
      }),
    ),
  });
  const line = fc.record({
    conteudo: text('Camiseta', 40),
    quantidade: mostly(fc.integer({ min: 1, max: 3 }), near(9_999, 2)),
    valor: mostly(near(30, 30), near(100, 0.02), near(3_000, 0.02), near(10_000, 0.02), near(1e12, 1)),
  });
  const input = fc.record({
    serviceCode: mostly(
      fc.constantFrom('03298', '03220', '03140', '03158', '03204', '04227'),
      fc.constantFrom(' 03220 ', 'PAC', '99999', '__proto__'),
    ),
    weightGrams: mostly(
      fc.integer({ min: 10, max: 300 }),
      near(10, 10),
      near(300, 2),
      near(10_000, 2),
      near(30_000, 2),
    ),
    objectFormat: fc.constantFrom('1', '2', '3'),
    dimensions: fc.record({
      comprimento: mostly(fc.integer({ min: 20, max: 50 }), near(16, 2), near(60, 2), near(100, 2)),
      largura: mostly(fc.integer({ min: 12, max: 40 }), near(5, 1), near(11, 2), near(91, 2), near(100, 2)),
      altura: mostly(fc.integer({ min: 2, max: 40 }), near(1, 1), near(100, 2)),
    }),
    sender: party,
    recipient: party,
    declaredItems: mostly(
      fc.array(line, { minLength: 1, maxLength: 3 }),
      fc.array(line, { minLength: 49, maxLength: 52 }),
    ),
  });

  it('lets through what plausibilityOf lets through, and refuses what it refuses for the same reason and field', () => {
    let plausible = 0;
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(input, (raw) => {
        const parsed = GenerateLabelInputSchema.safeParse(raw);
        if (!parsed.success) return;
        const refusal = plausibilityOf(parsed.data);
        const check = checkLabel(parsed.data);
        const kind = refusal?.reason ?? (check.ok ? 'issued' : 'carrier_only');
        seen.set(kind, (seen.get(kind) ?? 0) + 1);
        if (refusal === undefined) {
          plausible++;
          // Only what the BFF cannot know is refused then: the coverage of a CEP, the state of a CEP.
          if (!check.ok) {
            expect(check.refusal).toBeUndefined();
            expect(check.status).toMatch(/ sem cobertura de entrega\.$| não corresponde ao CEP /);
          }
        } else {
          expect(check).toMatchObject({ ok: false, refusal });
        }
      }),
      { numRuns: 2000 },
    );
    // The generator reaches every side: labels issued, refused by the carrier only, and refused by each rule. A
    // property that only ever saw one of them would prove nothing.
    // (Measured over runs: the rarest, weight_over_limit, about 13 times in 2,000.)
    expect(plausible).toBeGreaterThan(100);
    for (const kind of [...PLAUSIBILITY_REASONS, 'issued', 'carrier_only']) {
      expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  });
});
