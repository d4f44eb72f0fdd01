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
