import { code128, datamatrix } from 'bwip-js';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { formatCep } from '../../shared/cep.ts';
import { declaredValueCents } from '../../shared/labels/declared-value.ts';
import type { GenerateLabelInput } from '../../shared/labels/label.ts';
import type { Party } from '../../shared/labels/party.ts';

const CM = 72 / 2.54;
const WIDTH = 10 * CM;
const HEIGHT = 15 * CM;
const MARGIN = 0.4 * CM;

export interface LabelPdfData {
  prepostagemId: string;
  trackingCode: string;
  serviceName: string;
  contractNumber: string;
  input: GenerateLabelInput;
}

/** Helvetica speaks WinAnsi: keep Portuguese letters, drop what it cannot draw. */
function printable(text: string): string {
  return text.normalize('NFC').replace(/[^\x20-\x7E\u00A0-\u00FF]/g, '?');
}

/** Writes text and rules on the label, keeping the baseline of the last line it wrote (`y`, from the bottom). */
class Writer {
  y = HEIGHT - MARGIN;
  private readonly page: PDFPage;
  private readonly font: PDFFont;
  private readonly bold: PDFFont;

  constructor(page: PDFPage, font: PDFFont, bold: PDFFont) {
    this.page = page;
    this.font = font;
    this.bold = bold;
  }

  text(text: string, x: number, y: number, size = 8, isBold = false): void {
    const font = isBold ? this.bold : this.font;
    let line = printable(text);
    while (line.length > 1 && font.widthOfTextAtSize(line, size) > WIDTH - x - MARGIN)
      line = line.slice(0, -1);
    this.page.drawText(line, { x, y, size, font });
  }

  /** `gap` points below the last line, a line of text at the left margin. */
  line(text: string, gap: number, size: number, isBold = false): void {
    this.y -= gap;
    this.text(text, MARGIN, this.y, size, isBold);
  }

  /** `gap` points below the last line, a rule across the label. */
  rule(gap: number): void {
    this.y -= gap;
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: WIDTH - MARGIN, y: this.y },
      thickness: 0.8,
      color: rgb(0, 0, 0),
    });
  }
}

function partyLines(party: Party): string[] {
  const a = party.endereco;
  return [
    party.nome,
    `${a.logradouro}, ${a.numero}${a.complemento ? ` - ${a.complemento}` : ''}`,
    `${a.bairro}`,
    `${formatCep(a.cep)}  ${a.cidade}/${a.uf.toUpperCase()}`,
  ];
}

/** A 10 × 15 cm thermal label: service, contract, Code 128 tracking barcode, DataMatrix, parties, content. */
export async function renderLabelPdf(data: LabelPdfData): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Etiqueta ${data.trackingCode}`);
  pdf.setProducer('frete-kit sandbox');
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));
  const page = pdf.addPage([WIDTH, HEIGHT]);
  const w = new Writer(
    page,
    await pdf.embedFont(StandardFonts.Helvetica),
    await pdf.embedFont(StandardFonts.HelveticaBold),
  );
  const { input } = data;

  const top = HEIGHT - MARGIN;
  const matrixSize = 1.6 * CM;
  w.text(data.serviceName.toUpperCase(), MARGIN, top - 16, 16, true);
  w.text(`Contrato ${data.contractNumber}`, MARGIN, top - 28, 7);
  w.text(`Pré-postagem ${data.prepostagemId}`, MARGIN, top - 37, 7);
  const matrixPng = await datamatrix({
    bcid: 'datamatrix',
    text: `${data.trackingCode}|${input.recipient.endereco.cep}`,
    scale: 2,
  });
  const matrix = await pdf.embedPng(matrixPng);
  page.drawImage(matrix, {
    x: WIDTH - MARGIN - matrixSize,
    y: top - matrixSize,
    width: matrixSize,
    height: matrixSize,
  });

  const barHeight = 1.5 * CM;
  w.y = top - matrixSize - 0.3 * CM - barHeight;
  const barcode = await pdf.embedPng(
    await code128({ bcid: 'code128', text: data.trackingCode, scale: 3, height: 14, includetext: false }),
  );
  page.drawImage(barcode, {
    x: MARGIN + 0.5 * CM,
    y: w.y,
    width: WIDTH - 2 * MARGIN - 1 * CM,
    height: barHeight,
  });
  w.y -= 14;
  w.text(data.trackingCode, WIDTH / 2 - 45, w.y, 12, true);

  w.line('Recebedor: ____________________________  Assinatura: ____________', 10, 6);
  w.rule(8);
  w.line('DESTINATÁRIO', 12, 9, true);
  for (const line of partyLines(input.recipient)) w.line(line, 11, 9);
  w.rule(10);
  w.line('REMETENTE', 11, 7, true);
  for (const line of partyLines(input.sender)) w.line(line, 9, 7);
  w.rule(8);
  const total = declaredValueCents(input.declaredItems) / 100;
  const value = total.toFixed(2).replace('.', ',');
  w.line(`Declaração de conteúdo: ${input.declaredItems.length} item(ns), valor R$ ${value}`, 10, 7);
  for (const item of input.declaredItems.slice(0, 3)) w.line(`${item.quantidade} × ${item.conteudo}`, 9, 7);
  const d = input.dimensions;
  const size = `${d.comprimento} × ${d.largura} × ${d.altura} cm`;
  w.line(`Peso ${input.weightGrams} g  ·  ${size}  ·  formato ${input.objectFormat}`, 9, 7);
  return pdf.save();
}
