import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderLabelPdf } from '../../sandbox/labels/pdf.ts';
import { SAMPLE_LABEL } from '../../sandbox/testing.ts';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { attemptFromRow } from '../labels/ledger.ts';
import { printLabels, STAMP } from './print.ts';

const MM = 72 / 25.4;
const attempt = attemptFromRow({
  id: 'a1',
  fingerprint: 'f',
  idempotency_key: null,
  state: 'created',
  prepostagem_id: 'PP1',
  tracking_code: 'QB123456785BR',
  reason: null,
  status: null,
  support_code: null,
  settled_by: null,
  created_at: 0,
  settled_at: 0,
  request: '{}',
  note: null,
  order_id: 'PED-2001',
  volume: 1,
});

/** The page's own drawing (not the label's, which is a form XObject): its operators as text. */
async function pageOperators(pdf: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(pdf);
  const page = doc.getPage(0);
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
}

describe('the stamp on a printed label', () => {
  it('is at least 8 pt, 3 mm inside the top and right edges of a 10 × 15 cm label, above the label shrunk under it', async () => {
    const label = await renderLabelPdf({
      prepostagemId: 'PP1',
      trackingCode: 'QB123456785BR',
      serviceName: 'PAC',
      contractNumber: '9912345678',
      input: GenerateLabelInputSchema.parse(SAMPLE_LABEL),
    });
    const { pdf, printed } = await printLabels(
      [{ id: 'a1', attempt, of: 2 }],
      async () => label,
      { reportTitle: '', reportIntro: () => '', noOrder: '' },
      { notCreated: () => '', missing: '', unreadable: '' },
    );
    expect(printed).toBe(1);
    const doc = await PDFDocument.load(pdf);
    const { width, height } = doc.getPage(0).getSize();
    expect([width / MM, height / MM].map(Math.round)).toEqual([100, 150]);
    const ops = await pageOperators(pdf);
    const size = Number(/\/\S+ (\d+(?:\.\d+)?) Tf/.exec(ops)?.[1]);
    expect(size).toBeGreaterThanOrEqual(8);
    const [, x, y] = /1 0 0 1 (\S+) (\S+) Tm/.exec(ops) ?? [];
    expect(Number(x)).toBeGreaterThanOrEqual(3 * MM);
    // The capitals' top (Helvetica Bold's cap height is 0.72 em) stays out of the outer 3 mm.
    expect(Number(y) + 0.72 * size).toBeLessThanOrEqual(height - 3 * MM + 0.1);
    expect(Number(y)).toBeGreaterThan(height - STAMP.band);
    // The label itself is drawn scaled below the band: nothing of it in the band.
    const [, scale] = /^(0\.\d+) 0 0 \1 0 0 cm$/m.exec(ops) ?? [];
    expect(Number(scale) * height).toBeLessThanOrEqual(height - STAMP.band + 0.01);
  });
});
