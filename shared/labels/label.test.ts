import { describe, expect, it } from 'vitest';
import { DiagnoseLabelIssueInputSchema } from './diagnosis.ts';
import { GenerateLabelInputSchema, GetLabelPdfInputSchema, LabelRecordSchema } from './label.ts';
import { DeclaredItemSchema, PartySchema } from './party.ts';

const party = {
  nome: 'Loja Demo',
  endereco: {
    cep: '01310-100',
    logradouro: 'Av. Paulista',
    numero: '1000',
    bairro: 'Bela Vista',
    cidade: 'São Paulo',
    uf: 'SP',
  },
};
const label = {
  serviceCode: '03298',
  weightGrams: 500,
  dimensions: { comprimento: 20, largura: 15, altura: 10 },
  sender: party,
  recipient: party,
  declaredItems: [{ conteudo: 'Camiseta', quantidade: 1, valor: 79.9 }],
};

describe('PartySchema (spec 2.5)', () => {
  it('normalizes the CEP of the address', () => {
    expect(PartySchema.parse(party).endereco.cep).toBe('01310100');
  });

  it.each([
    ['a 3-letter uf', { uf: 'SPX' }],
    ['a 1-letter uf', { uf: 'S' }],
    ['a 7-digit CEP', { cep: '1310100' }],
    ['a missing street', { logradouro: undefined }],
    ['an extra property', { pais: 'BR' }],
  ])('rejects an address with %s', (_, change) => {
    expect(PartySchema.safeParse({ ...party, endereco: { ...party.endereco, ...change } }).success).toBe(
      false,
    );
  });

  it('takes cpfCnpj as digits only', () => {
    expect(PartySchema.safeParse({ ...party, cpfCnpj: '12345678000190' }).success).toBe(true);
    expect(PartySchema.safeParse({ ...party, cpfCnpj: '12.345.678/0001-90' }).success).toBe(false);
  });
});

describe('DeclaredItemSchema (spec 2.6)', () => {
  it('takes quantidade as an integer > 0 and valor ≥ 0', () => {
    expect(DeclaredItemSchema.safeParse({ conteudo: 'x', quantidade: 1, valor: 0 }).success).toBe(true);
    expect(DeclaredItemSchema.safeParse({ conteudo: 'x', quantidade: 0, valor: 1 }).success).toBe(false);
    expect(DeclaredItemSchema.safeParse({ conteudo: 'x', quantidade: 1.5, valor: 1 }).success).toBe(false);
    expect(DeclaredItemSchema.safeParse({ conteudo: 'x', quantidade: 1, valor: -1 }).success).toBe(false);
  });
});

describe('GenerateLabelInputSchema (spec 4.4.3)', () => {
  it('defaults objectFormat to "2"', () => {
    expect(GenerateLabelInputSchema.parse(label).objectFormat).toBe('2');
  });

  it('accepts objectFormat "1" and "3" and rejects "4"', () => {
    expect(GenerateLabelInputSchema.safeParse({ ...label, objectFormat: '1' }).success).toBe(true);
    expect(GenerateLabelInputSchema.safeParse({ ...label, objectFormat: '3' }).success).toBe(true);
    expect(GenerateLabelInputSchema.safeParse({ ...label, objectFormat: '4' }).success).toBe(false);
  });

  it.each([
    ['weight 0', { weightGrams: 0 }],
    ['a zero dimension', { dimensions: { comprimento: 0, largura: 15, altura: 10 } }],
    ['no declared items', { declaredItems: [] }],
    ['an extra property', { priority: true }],
    ['an extra dimension', { dimensions: { comprimento: 1, largura: 1, altura: 1, diametro: 1 } }],
  ])('rejects %s', (_, change) => {
    expect(GenerateLabelInputSchema.safeParse({ ...label, ...change }).success).toBe(false);
  });
});

describe('label tool outputs and inputs', () => {
  it('takes a label record with every field optional', () => {
    expect(LabelRecordSchema.safeParse({}).success).toBe(true);
    expect(LabelRecordSchema.safeParse({ reason: 'label_pdf_timeout', prepostagemId: 'PP1' }).success).toBe(
      true,
    );
  });

  it('needs a prepostagemId for get_label_pdf', () => {
    expect(GetLabelPdfInputSchema.safeParse({ prepostagemId: 'PP1' }).success).toBe(true);
    expect(GetLabelPdfInputSchema.safeParse({}).success).toBe(false);
  });
});

describe('DiagnoseLabelIssueInputSchema (spec 4.4.5)', () => {
  it('accepts no filter, a UUID support code, each source and an orderId of 1 to 160 characters', () => {
    expect(DiagnoseLabelIssueInputSchema.safeParse({}).success).toBe(true);
    expect(
      DiagnoseLabelIssueInputSchema.safeParse({ supportCode: '3f1c2b7a-1d2e-4f5a-8b9c-0d1e2f3a4b5c' })
        .success,
    ).toBe(true);
    for (const source of ['mcp', 'nuvemshop', 'tray']) {
      expect(DiagnoseLabelIssueInputSchema.safeParse({ source }).success).toBe(true);
    }
    expect(DiagnoseLabelIssueInputSchema.safeParse({ orderId: 'x'.repeat(160) }).success).toBe(true);
  });

  it.each([
    ['a support code that is not a UUID', { supportCode: 'abc' }],
    ['an unknown source', { source: 'shopify' }],
    ['an empty orderId', { orderId: '' }],
    ['an orderId of 161 characters', { orderId: 'x'.repeat(161) }],
    ['an extra property', { limit: 5 }],
  ])('rejects %s', (_, input) => {
    expect(DiagnoseLabelIssueInputSchema.safeParse(input).success).toBe(false);
  });
});
