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
});
