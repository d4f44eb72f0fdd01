/**
 * CSV as RFC 4180 writes it (and as spreadsheets export it): fields separated by commas — or semicolons, as Excel
 * writes them in Brazil, decided by the header line — quoted with `"` when they hold a separator, a quote (doubled)
 * or a line break; lines end with CRLF or LF; a UTF-8 byte-order mark is ignored. No CSV package is installed, and
 * this is the whole grammar (docs/orders.md says why no library).
 */
export interface CsvTable {
  header: string[];
  /** Each record with the 1-based line number it starts on (the header is line 1). */
  rows: { line: number; fields: string[] }[];
}

/** Thrown for text that is not CSV (an unclosed quote); the message and `line` name the line the quote opens on. */
export class CsvSyntaxError extends Error {
  override readonly name = 'CsvSyntaxError';
  readonly line: number;

  constructor(line: number) {
    super(`line ${line}: a quoted field is never closed`);
    this.line = line;
  }
}

export function parseCsv(input: string): CsvTable {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const separator = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    // A blank line (one empty field) is not a record.
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else {
        if (char === '\n') line += 1;
        field += char;
      }
      i += 1;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === separator) {
      fields.push(field);
      field = '';
    } else if (char === '\n' || (char === '\r' && text[i + 1] === '\n')) {
      endRecord();
      i += char === '\r' ? 2 : 1;
      line += 1;
      recordLine = line;
      continue;
    } else field += char;
    i += 1;
  }
  if (quoted) throw new CsvSyntaxError(recordLine);
  if (field !== '' || fields.length > 0) endRecord();
  const [header, ...rows] = records;
  return { header: (header?.fields ?? []).map((name) => name.trim()), rows };
}
