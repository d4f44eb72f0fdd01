import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from './csv.ts';

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, and numbers each record by its first line', () => {
    const table = parseCsv('\uFEFFa,b,c\r\n1,"x, y","say ""hi"""\n2,"two\nlines",z\n\n3,,\n');
    expect(table.header).toEqual(['a', 'b', 'c']);
    expect(table.rows).toEqual([
      { line: 2, fields: ['1', 'x, y', 'say "hi"'] },
      { line: 3, fields: ['2', 'two\nlines', 'z'] },
      { line: 6, fields: ['3', '', ''] },
    ]);
  });

  it('takes semicolons when the header is separated by them (Excel in Brazil)', () => {
    expect(parseCsv('a;b\n1,5;2\n').rows).toEqual([{ line: 2, fields: ['1,5', '2'] }]);
  });

  it('refuses a quote that is never closed, naming the line', () => {
    expect(() => parseCsv('a,b\n1,"open\n')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('a,b\n1,"open\n')).toThrow(/line 2/);
  });
});
