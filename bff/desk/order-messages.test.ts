import { describe, expect, it } from 'vitest';
import { type CsvProblem, csvReason } from '../../shared/orders/csv-problem.ts';
import { ORDER_MESSAGES } from './order-messages.ts';

const EVERY: CsvProblem[] = [
  { code: 'field_count', fields: 3, expected: 13 },
  { code: 'empty', column: 'item' },
  { code: 'quantity' },
  { code: 'weight' },
  { code: 'money' },
  { code: 'uf' },
  { code: 'cpf_cnpj' },
  { code: 'differs', column: 'nome', firstLine: 7 },
  { code: 'order_refused', orderId: 'PED-2' },
  { code: 'exists', orderId: 'PED-1' },
  { code: 'invalid' },
  { code: 'unknown_column', column: 'desconto' },
  { code: 'repeated_column', column: 'nome' },
  { code: 'missing_columns', columns: ['uf', 'pesoGramas'] },
  { code: 'unclosed_quote' },
  { code: 'too_many_lines', max: 5000 },
];

describe('the CSV import’s refusals on the desk', () => {
  it('are said in the desk’s language, never in the API’s English on a Portuguese or Spanish page', () => {
    const pt = ORDER_MESSAGES['pt-BR'];
    expect(pt.refusedLine(4, pt.csvProblem({ code: 'weight' }))).toBe(
      'Linha 4: pesoGramas: deve ser em gramas inteiros, pelo menos 1',
    );
    for (const locale of ['pt-BR', 'es'] as const)
      for (const problem of EVERY)
        expect(ORDER_MESSAGES[locale].csvProblem(problem), `${locale} ${problem.code}`).not.toBe(
          csvReason(problem),
        );
    expect(ORDER_MESSAGES.en.csvProblem({ code: 'uf' })).toBe('uf: must be 2 letters');
  });

  it('say a refused file’s header, quote and length in the desk’s language too', () => {
    const words = (locale: 'pt-BR' | 'en' | 'es', problem: CsvProblem) =>
      ORDER_MESSAGES[locale].refusedLine(1, ORDER_MESSAGES[locale].csvProblem(problem));
    expect(words('pt-BR', { code: 'repeated_column', column: 'nome' })).toBe(
      'Linha 1: a coluna nome aparece duas vezes',
    );
    expect(words('pt-BR', { code: 'missing_columns', columns: ['uf', 'pesoGramas'] })).toBe(
      'Linha 1: faltam as colunas uf, pesoGramas',
    );
    expect(words('pt-BR', { code: 'unknown_column', column: 'desconto' })).toMatch(
      /^Linha 1: coluna desconhecida "desconto"; as colunas são orderId,nome,/,
    );
    expect(words('pt-BR', { code: 'unclosed_quote' })).toBe('Linha 1: uma aspa abre um campo e nunca fecha');
    expect(words('pt-BR', { code: 'too_many_lines', max: 5000 })).toBe(
      'Linha 1: no máximo 5000 linhas por importação; divida o arquivo',
    );
    expect(words('es', { code: 'missing_columns', columns: ['uf'] })).toBe('Línea 1: falta la columna uf');
    expect(words('en', { code: 'repeated_column', column: 'nome' })).toBe(
      'Line 1: the column nome is given twice',
    );
  });
});
