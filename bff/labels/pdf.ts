import { setTimeout as sleep } from 'node:timers/promises';
import {
  type GenerateLabelOutput,
  type GetLabelPdfOutput,
  GetLabelPdfOutputSchema,
} from '../../shared/labels/label.ts';
import { type Logger, messageOf } from '../logger.ts';
import type { PlatformPort } from '../upstream/platform-mcp.ts';

export interface LabelPdfsOptions {
  platform: PlatformPort;
  logger: Logger;
  /** After `label_pdf_timeout`: the delays between `get_label_pdf` tries (bounded; default about 6 s in all). */
  pdfDelaysMs?: number[];
}

/** spec 3.2: a label's PDF comes from `get_label_pdf` with its `prepostagemId`, never from a second `generate_label`. */
export class LabelPdfs {
  private readonly platform: PlatformPort;
  private readonly logger: Logger;
  private readonly delaysMs: number[];

  constructor(options: LabelPdfsOptions) {
    this.platform = options.platform;
    this.logger = options.logger;
    this.delaysMs = options.pdfDelaysMs ?? [250, 500, 1000, 2000, 2000];
  }

  /** `get_label_pdf` on the platform (read-only, tried twice), parsed with the shared schema. */
  async get(prepostagemId: string): Promise<GetLabelPdfOutput> {
    const result = await this.platform.read('get_label_pdf', { prepostagemId });
    const parsed = GetLabelPdfOutputSchema.safeParse(result.structuredContent ?? {});
    if (!parsed.success) throw new Error('get_label_pdf answered an output that does not parse');
    return parsed.data;
  }

  /**
   * The record with its PDF: as it came when it has one; otherwise fetched with bounded backoff (`tries`, default
   * every delay), and when still not ready, the record with the carrier's status and its `reason` kept.
   */
  async attach(record: GenerateLabelOutput, tries?: number): Promise<GenerateLabelOutput> {
    if (record.labelPdfBase64 || !record.prepostagemId) return record;
    const pdf = await this.fetch(record.prepostagemId, tries);
    if (pdf.labelPdfBase64) {
      const { reason: _timeout, ...rest } = record;
      return { ...rest, labelPdfBase64: pdf.labelPdfBase64 };
    }
    return pdf.status ? { ...record, status: pdf.status } : record;
  }

  private async fetch(
    prepostagemId: string,
    tries = this.delaysMs.length + 1,
  ): Promise<{ labelPdfBase64?: string; status?: string }> {
    let status: string | undefined;
    for (let i = 0; i < tries; i++) {
      if (i > 0) await sleep(this.delaysMs[i - 1] ?? 2000);
      try {
        const out = await this.get(prepostagemId);
        if (out.labelPdfBase64) return { labelPdfBase64: out.labelPdfBase64 };
        if (out.status) status = out.status;
      } catch (error) {
        this.logger.warn({ prepostagemId, error: messageOf(error) }, 'labels: get_label_pdf failed');
      }
    }
    return status ? { status } : {};
  }
}
