import { inflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { LedgerAttempt } from '../labels/ledger.ts';
import { type PrintJob, printLabels, STAMP, stampOf } from './print.ts';

/**
 * The day's labels as one PDF (docs/orders.md, "Ship a day in two clicks") in process: each label's pages stamped,
 * what cannot be printed on a last page, with labels the test draws. order-desk.test.ts prints through the desk on a
 * started BFF and the sandbox.
 */
const WORDS = {
  reportTitle: 'Etiquetas que faltam',
  reportIntro: (printed: number, missing: number) => `${printed} impressas, ${missing} faltam`,
  noOrder: 'sem pedido',
};
const WHY = {
  notCreated: (state: string) => `não criada (${state})`,
  missing: 'não existe',
  unreadable: 'PDF ilegível',
};
const LABEL_SIZE: [number, number] = [283.46, 425.2];

async function label(pages = 1, blank = false): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage(LABEL_SIZE);
    if (!blank) page.drawText(`page ${i + 1}`, { x: 10, y: 10 });
  }
  return doc.save();
}

const attempt = (change: Partial<LedgerAttempt> = {}) =>
  ({
    id: 'a1',
    state: 'created',
    prepostagemId: 'PP1',
    orderId: 'PED-1',
    volume: 1,
    ...change,
  }) as LedgerAttempt;

/** Each page's content streams, inflated: the operators it draws. */
async function pageOperators(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const refs = contents && 'asArray' in contents ? contents.asArray() : [contents];
    return refs
      .map((ref) => {
        const raw = (ref ? (doc.context.lookup(ref) as { contents?: Uint8Array }) : undefined)?.contents;
        if (!raw) return '';
        try {
          return inflateSync(raw).toString('latin1');
        } catch {
          return Buffer.from(raw).toString('latin1');
        }
      })
      .join('\n');
  });
}

const texts = (operators: string) =>
  [...operators.matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map((m) =>
    Buffer.from(m[1] ?? '', 'hex').toString('latin1'),
  );

const print = (jobs: PrintJob[], pdfOf: (a: LedgerAttempt) => Promise<Uint8Array | { why: string }>) =>
  printLabels(jobs, pdfOf, WORDS, WHY);

describe('the stamp’s words', () => {
  it('names the order and which of its volumes, the volumes counted at least up to this one', () => {
    expect(stampOf('PED-1', 2, 3, WORDS)).toBe('PED-1 · 2/3');
    expect(stampOf('PED-1', 4, 3, WORDS)).toBe('PED-1 · 4/4');
    expect(stampOf(null, null, 2, WORDS)).toBe('sem pedido · 1/2');
    expect(stampOf('PED-1', null, 0, WORDS)).toBe('PED-1 · 1/1');
  });
});

describe('a printed label', () => {
  it('is each page of the label shrunk and centred under the stamp, right-aligned 3 mm from the edges', async () => {
    const { pdf, printed, unprintable } = await print(
      [{ id: 'a1', attempt: attempt({ volume: 2 }), of: 2 }],
      () => label(2),
    );
    expect(printed).toBe(1);
    expect(unprintable).toEqual([]);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getPage(1).getSize()).toEqual({ width: LABEL_SIZE[0], height: LABEL_SIZE[1] });
    const [width, height] = LABEL_SIZE;
    const scale = (height - STAMP.band) / height;
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.HelveticaBold);
    for (const operators of await pageOperators(pdf)) {
      expect(texts(operators)).toEqual(['PED-1 · 2/2']);
      const [, tx] = /^1 0 0 1 (\S+) 0 cm$/m.exec(operators) ?? [];
      expect(Number(tx)).toBeCloseTo((width * (1 - scale)) / 2, 6);
      const [, s] = /^(0\.\d+) 0 0 \1 0 0 cm$/m.exec(operators) ?? [];
      expect(Number(s)).toBeCloseTo(scale, 6);
      const [, x, y] = /1 0 0 1 (\S+) (\S+) Tm/.exec(operators) ?? [];
      expect(Number(x)).toBeCloseTo(
        width - STAMP.edge - font.widthOfTextAtSize('PED-1 · 2/2', STAMP.size),
        6,
      );
      expect(Number(y)).toBeCloseTo(
        height - STAMP.edge - font.heightAtSize(STAMP.size, { descender: false }),
        6,
      );
      expect(operators).toMatch(/\/Helvetica-Bold-\d+ 9 Tf/);
      expect(operators).toMatch(/^0 0 0 rg$/m);
    }
  });

  it('keeps a stamp wider than the label 3 mm from the left edge, and draws what the font cannot as "?"', async () => {
    const long = `PED-${'9'.repeat(80)}→é`;
    const { pdf } = await print([{ id: 'a1', attempt: attempt({ orderId: long }), of: 1 }], () => label());
    const [operators = ''] = await pageOperators(pdf);
    expect(texts(operators)).toEqual([`PED-${'9'.repeat(80)}?é · 1/1`]);
    const [, x] = /1 0 0 1 (\S+) (\S+) Tm/.exec(operators) ?? [];
    expect(Number(x)).toBeCloseTo(STAMP.edge, 6);
  });

  it('prints a label whose page is blank', async () => {
    const { printed, unprintable } = await print([{ id: 'a1', attempt: attempt(), of: 1 }], () =>
      label(1, true),
    );
    expect(printed).toBe(1);
    expect(unprintable).toEqual([]);
  });
});

describe('labels that cannot be printed', () => {
  it('are left out, each said with its order, volume and why, and the others printed in the order asked', async () => {
    const asked: string[] = [];
    const { pdf, printed, unprintable } = await print(
      [
        { id: 'gone', attempt: undefined, of: 1 },
        { id: 'a2', attempt: attempt({ id: 'a2', volume: 2 }), of: 2 },
        { id: 'a3', attempt: attempt({ id: 'a3', state: 'pending', orderId: 'PED-3', volume: null }), of: 1 },
        { id: 'a4', attempt: attempt({ id: 'a4', prepostagemId: null, orderId: null, volume: null }), of: 1 },
        { id: 'a5', attempt: attempt({ id: 'a5', orderId: 'PED-5' }), of: 1 },
        { id: 'a6', attempt: attempt({ id: 'a6', orderId: 'PED-6' }), of: 1 },
        { id: 'a7', attempt: attempt({ id: 'a7', orderId: 'PED-7' }), of: 1 },
      ],
      async (a) => {
        asked.push(a.id);
        if (a.id === 'a5') return { why: 'o PDF ainda não está pronto' };
        if (a.id === 'a6') return new Uint8Array([1, 2, 3]);
        return label();
      },
    );
    expect(asked).toEqual(['a2', 'a5', 'a6', 'a7']);
    expect(printed).toBe(2);
    expect(unprintable).toEqual([
      { id: 'gone', orderId: null, volume: null, why: 'não existe' },
      { id: 'a3', orderId: 'PED-3', volume: null, why: 'não criada (pending)' },
      { id: 'a4', orderId: null, volume: null, why: 'não criada (created)' },
      { id: 'a5', orderId: 'PED-5', volume: 1, why: 'o PDF ainda não está pronto' },
      { id: 'a6', orderId: 'PED-6', volume: 1, why: 'PDF ilegível' },
    ]);
    const pages = await pageOperators(pdf);
    expect(pages.map(texts)).toEqual([
      ['PED-1 · 2/2'],
      ['PED-7 · 1/1'],
      [
        'Etiquetas que faltam',
        '2 impressas, 5 faltam',
        'gone',
        'não existe',
        'PED-3 · 1',
        'não criada (pending)',
        'a4',
        'não criada (created)',
        'PED-5 · 1',
        'o PDF ainda não está pronto',
        'PED-6 · 1',
        'PDF ilegível',
      ],
    ]);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPage(2).getSize()).toEqual({ width: 595, height: 842 });
    expect(pages[2]).toMatch(/\/Helvetica-Bold-\d+ 16 Tf/);
    expect(pages[2]).toMatch(/\/Helvetica-\d+ 11 Tf/);
    expect(pages[2]).toMatch(/\/Helvetica-\d+ 10 Tf/);
    // Each line 1.4 sizes below the one before, 8 pt more after the intro and 4 after each label's reason.
    const at = [...(pages[2] ?? '').matchAll(/1 0 0 1 (\S+) (\S+) Tm/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    let y = 842 - 48;
    const expected: number[] = [];
    for (const [size, after] of [
      [16, 0],
      [11, 8],
      [11, 0],
      [10, 4],
      [11, 0],
      [10, 4],
    ] as const) {
      expected.push(y - size);
      y -= size * 1.4 + after;
    }
    expect(at.slice(0, 6).map(([, ty]) => ty)).toEqual(expected.map((e) => expect.closeTo(e, 6)));
    expect(at.every(([tx]) => tx === 48)).toBe(true);
  });

  it('has no report page when every label is printed', async () => {
    const { pdf } = await print([{ id: 'a1', attempt: attempt(), of: 1 }], () => label());
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
    const none = await print([], () => label());
    expect([none.printed, none.unprintable]).toEqual([0, []]);
    expect(texts((await pageOperators(none.pdf)).join('\n'))).toEqual([]);
  });

  it('wraps a long reason within the page’s margins, word by word, and goes on to a new page when one is full', async () => {
    const why = Array.from({ length: 60 }, (_, i) => `palavra${i}`).join(' ');
    const jobs = Array.from({ length: 40 }, (_, i) => ({ id: `x${i}`, attempt: undefined, of: 1 }));
    const { pdf } = await printLabels(jobs, async () => label(), WORDS, { ...WHY, missing: why });
    const pages = await pageOperators(pdf);
    expect(pages.length).toBeGreaterThan(1);
    const lines = pages.flatMap(texts);
    const regular = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    const first = lines.slice(3, lines.indexOf('x1'));
    expect(first.length).toBeGreaterThan(1);
    expect(first.join(' ')).toBe(why);
    for (const line of first) expect(regular.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(595 - 2 * 48);
    expect(regular.widthOfTextAtSize(`${first[0]} ${first[1]?.split(' ')[0]}`, 10)).toBeGreaterThan(
      595 - 2 * 48,
    );
    expect(lines.filter((line) => /^x\d+$/.test(line))).toHaveLength(40);
    for (const operators of pages)
      for (const [, y] of operators.matchAll(/1 0 0 1 \S+ (\S+) Tm/g))
        expect(Number(y)).toBeGreaterThanOrEqual(48 - 0.01);
    // a new page starts its first line at the top margin again
    const [, top] = /1 0 0 1 \S+ (\S+) Tm/.exec(pages[1] ?? '') ?? [];
    expect([842 - 48 - 10, 842 - 48 - 11]).toContain(Number(top));
  });
});
