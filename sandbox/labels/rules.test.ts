import { describe, expect, it } from 'vitest';
import { GenerateLabelInputSchema } from '../../shared/label.ts';
import { SAMPLE_LABEL } from '../testing.ts';
import { checkLabel } from './rules.ts';

/** The sample label with some fields changed, parsed as the tool parses it. */
const label = (change: Record<string, unknown> = {}) =>
  GenerateLabelInputSchema.parse({ ...SAMPLE_LABEL, ...change });
const box = (comprimento: number, largura: number, altura: number, objectFormat?: string) =>
  label({ dimensions: { comprimento, largura, altura }, ...(objectFormat ? { objectFormat } : {}) });
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
    expect(refusal(label({ serviceCode: '04227', weightGrams: 300 }))).toBeUndefined();
    expect(refusal(label({ serviceCode: '04227', weightGrams: 301 }))).toMatch(/limite de 300 g/);
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
    expect(checkLabel(label({ serviceCode, weightGrams: limit }))).toMatchObject({
      ok: true,
      service: { serviceCode, name },
    });
    expect(refusal(label({ serviceCode, weightGrams: limit + 1 }))).toBe(
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
