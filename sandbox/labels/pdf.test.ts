import { inflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { SAMPLE_LABEL } from '../testing.ts';
import { renderLabelPdf } from './pdf.ts';

const CM = 72 / 2.54;
const MARGIN = 0.4 * CM;

interface Text {
  text: string;
  x: number;
  y: number;
  size: number;
  bold: boolean;
}
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Layout {
  texts: Text[];
  images: Box[];
  rules: { x1: number; x2: number; y: number }[];
}

/** What the label's page draws, in order: text lines (WinAnsi hex strings), images and ruled lines. */
function layoutOf(pdf: Uint8Array): Layout {
  const bytes = Buffer.from(pdf);
  const raw = bytes.toString('latin1');
  const layout: Layout = { texts: [], images: [], rules: [] };
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    let content: string;
    try {
      content = inflateSync(bytes.subarray(start, raw.indexOf('endstream', start))).toString('latin1');
    } catch {
      continue;
    }
    if (!content.includes(' Tf')) continue;
    for (const block of content.split(/\nQ\n?/)) {
      const text = /\/(Helvetica[-\w]*) ([\d.]+) Tf[\s\S]*?([-\d.]+) ([-\d.]+) Tm\s*<([0-9A-Fa-f]*)> Tj/.exec(
        block,
      );
      if (text) {
        layout.texts.push({
          text: Buffer.from(text[5] ?? '', 'hex').toString('latin1'),
          x: Number(text[3]),
          y: Number(text[4]),
          size: Number(text[2]),
          bold: (text[1] ?? '').startsWith('Helvetica-Bold'),
        });
        continue;
      }
      const at = /1 0 0 1 ([-\d.]+) ([-\d.]+) cm/.exec(block);
      const scale = [...block.matchAll(/([\d.]+) 0 0 ([\d.]+) 0 0 cm/g)].find(
        (m) => m[1] !== '1' || m[2] !== '1',
      );
      if (at && scale && block.includes(' Do')) {
        layout.images.push({
          x: Number(at[1]),
          y: Number(at[2]),
          width: Number(scale[1]),
          height: Number(scale[2]),
        });
        continue;
      }
      const rule = /([-\d.]+) ([-\d.]+) m\s+[-\d.]+ [-\d.]+ m\s+([-\d.]+) ([-\d.]+) l\s+S/.exec(block);
      if (rule) layout.rules.push({ x1: Number(rule[1]), x2: Number(rule[3]), y: Number(rule[2]) });
    }
  }
  return layout;
}

const data = (change: Record<string, unknown> = {}) => ({
  prepostagemId: 'PP4812345678',
  trackingCode: 'QB123456785BR',
  serviceName: 'Pac',
  contractNumber: '9912345678',
  input: GenerateLabelInputSchema.parse({ ...SAMPLE_LABEL, ...change }),
});

let helvetica: { width: (text: string, size: number, bold: boolean) => number };
beforeAll(async () => {
  const doc = await PDFDocument.create();
  const [regular, bold] = await Promise.all([
    doc.embedFont(StandardFonts.Helvetica),
    doc.embedFont(StandardFonts.HelveticaBold),
  ]);
  helvetica = {
    width: (text, size, isBold) => (isBold ? bold : regular).widthOfTextAtSize(text, size),
  };
});

describe('renderLabelPdf: a 10 × 15 cm thermal label a carrier would print', () => {
  it('is one 10 × 15 cm page, titled with the tracking code, and the same bytes for the same label', async () => {
    const pdf = await renderLabelPdf(data());
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect(width).toBeCloseTo(10 * CM, 3);
    expect(height).toBeCloseTo(15 * CM, 3);
    expect(doc.getTitle()).toBe('Etiqueta QB123456785BR');
    expect(doc.getProducer()).toBe('frete-kit sandbox');
    expect(doc.getCreationDate()?.getTime()).toBe(0);
    expect(doc.getModificationDate()?.getTime()).toBe(0);
    expect(Buffer.from(await renderLabelPdf(data())).equals(Buffer.from(pdf))).toBe(true);
  });

  it('reads top to bottom in the carrier order, every line below the last and inside the margins', async () => {
    const { texts } = layoutOf(await renderLabelPdf(data()));
    expect(texts.map((t) => t.text)).toEqual([
      'PAC',
      'Contrato 9912345678',
      'Pré-postagem PP4812345678',
      'QB123456785BR',
      'Recebedor: ____________________________  Assinatura: ____________',
      'DESTINATÁRIO',
      'Maria Silva',
      'Rua A, 10',
      'Centro',
      '20040-020  Rio de Janeiro/RJ',
      'REMETENTE',
      'Maria Silva',
      'Rua A, 10',
      'Centro',
      '01310-100  São Paulo/SP',
      'Declaração de conteúdo: 1 item(ns), valor R$ 159,80',
      '2 × Camiseta',
      'Peso 800 g  ·  20 × 15 × 10 cm  ·  formato 2',
    ]);
    for (const [i, line] of texts.entries()) {
      expect(line.x, line.text).toBeGreaterThanOrEqual(MARGIN - 0.01);
      expect(line.x + helvetica.width(line.text, line.size, line.bold), line.text).toBeLessThanOrEqual(
        10 * CM - MARGIN + 0.01,
      );
      expect(line.y, line.text).toBeGreaterThanOrEqual(MARGIN);
      expect(line.y + line.size, line.text).toBeLessThanOrEqual(15 * CM - MARGIN + 0.01);
      const above = texts[i - 1];
      // Each baseline at least its own size below the one above: lines never overlap.
      if (above) expect(above.y - line.y, `${above.text} / ${line.text}`).toBeGreaterThanOrEqual(line.size);
    }
  });

  it('sets the service and the tracking code large and bold, the recipient larger than the sender', async () => {
    const { texts } = layoutOf(await renderLabelPdf(data()));
    const at = (text: string, nth = 0) => texts.filter((t) => t.text === text)[nth];
    expect(at('PAC')).toMatchObject({ size: 16, bold: true });
    expect(at('QB123456785BR')).toMatchObject({ size: 12, bold: true });
    expect(at('Contrato 9912345678')).toMatchObject({ size: 7, bold: false });
    expect(at('DESTINATÁRIO')).toMatchObject({ size: 9, bold: true });
    expect(at('REMETENTE')).toMatchObject({ size: 7, bold: true });
    expect(at('Maria Silva', 0)).toMatchObject({ size: 9, bold: false });
    expect(at('Maria Silva', 1)).toMatchObject({ size: 7, bold: false });
    expect(at('Recebedor: ____________________________  Assinatura: ____________')?.size).toBe(6);
    // The tracking code is printed centred under its barcode.
    const code = at('QB123456785BR');
    const middle = (code?.x ?? 0) + helvetica.width('QB123456785BR', 12, true) / 2;
    expect(Math.abs(middle - 5 * CM)).toBeLessThan(0.5 * CM);
  });

  it('draws a 1.6 cm DataMatrix at the top right and a wide Code 128 above the tracking code, clear of the text', async () => {
    const { texts, images } = layoutOf(await renderLabelPdf(data()));
    expect(images).toHaveLength(2);
    const [matrix, barcode] = images as [Box, Box];
    expect(matrix.width).toBeCloseTo(1.6 * CM, 3);
    expect(matrix.height).toBeCloseTo(1.6 * CM, 3);
    expect(matrix.x + matrix.width).toBeCloseTo(10 * CM - MARGIN, 3);
    expect(matrix.y + matrix.height).toBeCloseTo(15 * CM - MARGIN, 3);
    expect(barcode.height).toBeCloseTo(1.5 * CM, 3);
    expect(barcode.x).toBeCloseTo(MARGIN + 0.5 * CM, 3);
    expect(barcode.x + barcode.width).toBeCloseTo(10 * CM - MARGIN - 0.5 * CM, 3);
    // Below the DataMatrix with a gap, above the code printed under it.
    expect(matrix.y - (barcode.y + barcode.height)).toBeCloseTo(0.3 * CM, 3);
    const code = texts.find((t) => t.text === 'QB123456785BR');
    expect(barcode.y - (code?.y ?? 0)).toBeCloseTo(14, 3);
    // The header lines end left of the DataMatrix.
    for (const line of texts.slice(0, 3))
      expect(line.x + helvetica.width(line.text, line.size, line.bold), line.text).toBeLessThan(matrix.x);
  });

  it('rules a line across the label between the signature, the recipient, the sender and the content', async () => {
    const { texts, rules } = layoutOf(await renderLabelPdf(data()));
    expect(rules).toHaveLength(3);
    const y = (text: string) => texts.find((t) => t.text === text)?.y ?? Number.NaN;
    for (const rule of rules) {
      expect(rule.x1).toBeCloseTo(MARGIN, 3);
      expect(rule.x2).toBeCloseTo(10 * CM - MARGIN, 3);
    }
    const [first, second, third] = rules.map((r) => r.y) as [number, number, number];
    expect(first).toBeLessThan(y('Recebedor: ____________________________  Assinatura: ____________'));
    expect(first).toBeGreaterThan(y('DESTINATÁRIO') + 9);
    expect(second).toBeLessThan(y('20040-020  Rio de Janeiro/RJ'));
    expect(second).toBeGreaterThan(y('REMETENTE') + 7);
    expect(third).toBeLessThan(y('01310-100  São Paulo/SP'));
    expect(third).toBeGreaterThan(y('Declaração de conteúdo: 1 item(ns), valor R$ 159,80') + 7);
  });

  it('cuts a line too long for the label at its right margin, and keeps at least one character', async () => {
    const long = 'Maria '.repeat(40).trim();
    const { texts } = layoutOf(
      await renderLabelPdf(data({ recipient: { ...SAMPLE_LABEL.recipient, nome: long } })),
    );
    const name = texts.find((t) => t.text.startsWith('Maria Maria'));
    expect(long.startsWith(name?.text ?? '-')).toBe(true);
    const end = (name?.x ?? 0) + helvetica.width(name?.text ?? '', 9, false);
    expect(end).toBeLessThanOrEqual(10 * CM - MARGIN);
    // As long as fits: one more character would cross the margin.
    expect(
      (name?.x ?? 0) + helvetica.width(long.slice(0, (name?.text.length ?? 0) + 1), 9, false),
    ).toBeGreaterThan(10 * CM - MARGIN);
  });
});
