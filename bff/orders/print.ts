import { PDFDocument, type PDFEmbeddedPage, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { LedgerAttempt } from '../labels/ledger.ts';

/** A label to print, named as the desk names it: its order and volume of the order's volumes. */
export interface PrintJob {
  attempt: LedgerAttempt | undefined;
  /** The id asked for (shown when the ledger has no such attempt). */
  id: string;
  /** How many volumes the order has ("1/2"): its planned volumes, or the most its labels reach. */
  of: number;
}

/** Why one label is not in the PDF, in the desk's language (the report page lists these). */
export interface Unprintable {
  id: string;
  orderId: string | null;
  volume: number | null;
  why: string;
}

/** The report page's words (bff/desk/order-messages/ holds them, one file per language). */
export interface PrintWords {
  reportTitle: string;
  reportIntro: (printed: number, missing: number) => string;
  noOrder: string;
}

/** The stamp in a label's top band: "PED-2001 · 1/2" (the order and which of its volumes). */
export function stampOf(
  orderId: string | null,
  volume: number | null,
  of: number,
  words: Pick<PrintWords, 'noOrder'>,
) {
  return `${orderId ?? words.noOrder} · ${volume ?? 1}/${Math.max(of, volume ?? 1)}`;
}

/** Text the standard PDF fonts can draw (WinAnsi): anything else becomes "?". */
function drawable(text: string): string {
  return [...text].map((char) => (/[\u0020-\u007e\u00a0-\u00ff]/.test(char) ? char : '?')).join('');
}

const MM = 72 / 25.4;

/**
 * The stamp on a label printed by a 10 × 15 cm thermal printer: 9 pt bold, 3 mm from the top and right edges (a
 * thermal printer may not print the outer 1–2 mm, and cuts or smudges there), in a 7 mm band the label's own content
 * leaves free, shrunk to make room (to 95 %, centred: the codes keep their proportions and stay readable).
 */
export const STAMP = { size: 9, edge: 3 * MM, band: 7 * MM } as const;

/** A new page of the label's size: the label's page, shrunk under the stamp's band, and the stamp in it. */
function stamped(out: PDFPage, label: PDFEmbeddedPage, font: PDFFont, text: string): void {
  const { width, height } = out.getSize();
  const scale = (height - STAMP.band) / height;
  out.drawPage(label, { x: (width * (1 - scale)) / 2, y: 0, xScale: scale, yScale: scale });
  const shown = drawable(text);
  const textWidth = font.widthOfTextAtSize(shown, STAMP.size);
  // The cap height's top at 3 mm from the top edge; right-aligned at 3 mm from the right one.
  out.drawText(shown, {
    x: Math.max(STAMP.edge, width - STAMP.edge - textWidth),
    y: height - STAMP.edge - font.heightAtSize(STAMP.size, { descender: false }),
    size: STAMP.size,
    font,
    color: rgb(0, 0, 0),
  });
}

/**
 * The day's labels as one PDF (docs/orders.md, "Ship a day in two clicks"): each label's pages in the order asked, each page stamped with
 * its order and volume; a label that cannot be printed (not created, its PDF not ready, unreadable) does not stop the
 * others — a last page says which and why. `pdfOf` answers a label's PDF bytes, or why there is none.
 */
export async function printLabels(
  jobs: readonly PrintJob[],
  pdfOf: (attempt: LedgerAttempt) => Promise<Uint8Array | { why: string }>,
  words: PrintWords,
  why: { notCreated: (state: string) => string; missing: string; unreadable: string },
): Promise<{ pdf: Uint8Array; printed: number; unprintable: Unprintable[] }> {
  const merged = await PDFDocument.create();
  const bold = await merged.embedFont(StandardFonts.HelveticaBold);
  const regular = await merged.embedFont(StandardFonts.Helvetica);
  const unprintable: Unprintable[] = [];
  let printed = 0;
  for (const job of jobs) {
    const { attempt } = job;
    const miss = (reason: string) =>
      unprintable.push({
        id: job.id,
        orderId: attempt?.orderId ?? null,
        volume: attempt?.volume ?? null,
        why: reason,
      });
    if (!attempt) {
      miss(why.missing);
      continue;
    }
    if (attempt.state !== 'created' || !attempt.prepostagemId) {
      miss(why.notCreated(attempt.state));
      continue;
    }
    const bytes = await pdfOf(attempt);
    if (!(bytes instanceof Uint8Array)) {
      miss(bytes.why);
      continue;
    }
    let pages: PDFEmbeddedPage[];
    try {
      const source = await PDFDocument.load(bytes);
      // A page without a content stream (blank) cannot be embedded as is: give it an empty one.
      for (const page of source.getPages())
        if (!page.node.Contents()) page.drawRectangle({ x: 0, y: 0, width: 0, height: 0, opacity: 0 });
      pages = await merged.embedPdf(source, source.getPageIndices());
    } catch {
      miss(why.unreadable);
      continue;
    }
    const text = stampOf(attempt.orderId, attempt.volume, job.of, words);
    for (const page of pages) stamped(merged.addPage([page.width, page.height]), page, bold, text);
    printed += 1;
  }
  if (unprintable.length > 0) reportPage(merged, { bold, regular }, words, printed, unprintable);
  return { pdf: await merged.save(), printed, unprintable };
}

/** The last page: the labels left out, each with its order, volume and why (A4 portrait, wrapped). */
function reportPage(
  doc: PDFDocument,
  fonts: { bold: PDFFont; regular: PDFFont },
  words: PrintWords,
  printed: number,
  unprintable: readonly Unprintable[],
): void {
  const width = 595;
  const height = 842;
  const margin = 48;
  let page = doc.addPage([width, height]);
  let y = height - margin;
  const line = (text: string, font: PDFFont, size: number) => {
    for (const part of wrap(drawable(text), font, size, width - 2 * margin)) {
      if (y < margin + size) {
        page = doc.addPage([width, height]);
        y = height - margin;
      }
      page.drawText(part, { x: margin, y: y - size, size, font });
      y -= size * 1.4;
    }
  };
  line(words.reportTitle, fonts.bold, 16);
  line(words.reportIntro(printed, unprintable.length), fonts.regular, 11);
  y -= 8;
  for (const item of unprintable) {
    line(item.orderId === null ? item.id : `${item.orderId} · ${item.volume ?? 1}`, fonts.bold, 11);
    line(item.why, fonts.regular, 10);
    y -= 4;
  }
}

function wrap(text: string, font: PDFFont, size: number, max: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && font.widthOfTextAtSize(candidate, size) > max) {
      lines.push(current);
      current = word;
    } else current = candidate;
  }
  if (current) lines.push(current);
  return lines;
}
