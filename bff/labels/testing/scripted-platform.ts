import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { Attempt } from '../../../shared/labels/diagnosis.ts';
import { MAX_LISTED_ATTEMPTS } from '../../../shared/platform-limits.ts';
import { PlatformCallError, type PlatformPort } from '../../upstream/platform-mcp.ts';

/**
 * A platform scripted call by call, keeping the history `diagnose_label_issue` lists as the platform does: every
 * generate_label that reaches the tool leaves an attempt whose evidence is the request as received, whether or not
 * its answer comes back. Not our code: the platform's side of the wire, with the faults a real one can have.
 */
export type Step = {
  /** `vanish`: the answer is lost and the platform has no record of it (yet): the history cannot tell. */
  kind: 'create' | 'drop' | 'reject' | 'not_sent' | 'vanish';
  /** Where the platform's clock dates the attempt, relative to the BFF's (skew, or a slow call). */
  offsetMs?: number;
  prepostagemId?: string;
  supportCode?: string;
  /** Answer `label_pdf_timeout` without the PDF (spec 3.2). */
  pdfLate?: boolean;
};
export const PDF = Buffer.from('%PDF-1.4 label').toString('base64');

export class ScriptedPlatform {
  /** Every attempt the platform recorded, in the order it recorded them. */
  readonly history: Attempt[] = [];
  readonly sent: Record<string, unknown>[] = [];
  readonly reads: { name: string; args: Record<string, unknown> }[] = [];
  private readonly script: Step[] = [];
  private serial = 0;
  /** While set, every generate_label waits for it (a slow platform). */
  gate: Promise<void> | undefined;
  /** While set, every diagnose_label_issue waits for it (a slow history). */
  diagnoseGate: Promise<void> | undefined;
  inFlight = 0;
  mostInFlight = 0;
  diagnosisDown = false;
  /** Called with the count of diagnose_label_issue calls so far, before the platform answers. */
  onDiagnose: ((count: number) => void) | undefined;
  /** get_label_pdf answers `label_not_printable` this many times before the PDF. */
  pdfNotReady = 0;
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  answers(...steps: Step[]): this {
    this.script.push(...steps);
    return this;
  }

  /** An attempt in the platform's history that this BFF never saw the answer of (another client, an app). */
  record(request: Record<string, unknown>, over: Partial<Attempt> & { offsetMs?: number } = {}): Attempt {
    const { offsetMs = 0, ...rest } = over;
    const serial = ++this.serial;
    const attempt: Attempt = {
      supportCode: randomUUID(),
      createdAt: new Date(this.now() + offsetMs).toISOString(),
      source: 'mcp',
      outcome: 'created',
      prepostagemId: `PP${1_000_000 + serial}`,
      trackingCode: `AB${String(serial).padStart(9, '0')}BR`,
      evidence: { request },
      action: 'Imprima a etiqueta.',
      ...rest,
    };
    this.history.push(attempt);
    return attempt;
  }

  asPlatform(): PlatformPort {
    return {
      call: async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
        expect(name).toBe('generate_label');
        const step = this.script.shift() ?? { kind: 'create' };
        this.sent.push(args);
        this.inFlight += 1;
        this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
        try {
          if (this.gate) await this.gate;
          if (step.kind === 'not_sent') throw new PlatformCallError('not_sent', 'connect ECONNREFUSED');
          if (step.kind === 'vanish')
            throw new PlatformCallError('unknown', 'timed out waiting for the answer');
          const base = {
            offsetMs: step.offsetMs ?? 0,
            ...(step.supportCode ? { supportCode: step.supportCode } : {}),
          };
          if (step.kind === 'reject') {
            const attempt = this.record(args, {
              ...base,
              outcome: 'rejected',
              reason: 'prepostagem_rejected',
              prepostagemId: undefined,
              trackingCode: undefined,
            });
            return {
              content: [],
              structuredContent: {
                status: 'Peso acima do limite',
                reason: 'prepostagem_rejected',
                supportCode: attempt.supportCode,
              },
            };
          }
          const attempt = this.record(args, {
            ...base,
            ...(step.prepostagemId ? { prepostagemId: step.prepostagemId } : {}),
          });
          if (step.kind === 'drop')
            throw new PlatformCallError('unknown', 'socket hang up after the request');
          return {
            content: [],
            structuredContent: {
              prepostagemId: attempt.prepostagemId,
              trackingCode: attempt.trackingCode,
              status: 'Pré-postagem criada',
              supportCode: attempt.supportCode,
              ...(step.pdfLate ? { reason: 'label_pdf_timeout' } : { labelPdfBase64: PDF }),
            },
          };
        } finally {
          this.inFlight -= 1;
        }
      },
      read: async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
        this.reads.push({ name, args });
        if (name === 'diagnose_label_issue') {
          this.onDiagnose?.(this.reads.filter((r) => r.name === name).length);
          if (this.diagnoseGate) await this.diagnoseGate;
          if (this.diagnosisDown) throw new PlatformCallError('unknown', 'diagnosis timed out');
          // The most recent first, at most 10 (spec 4.4.5); this platform lists app attempts too.
          const attempts = [...this.history]
            .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
            .slice(0, MAX_LISTED_ATTEMPTS);
          return { content: [], structuredContent: { attempts } };
        }
        expect(name).toBe('get_label_pdf');
        if (this.pdfNotReady > 0) {
          this.pdfNotReady -= 1;
          return {
            content: [],
            structuredContent: { status: 'Etiqueta em processamento', reason: 'label_not_printable' },
          };
        }
        return { content: [], structuredContent: { prepostagemId: args.prepostagemId, labelPdfBase64: PDF } };
      },
    } satisfies PlatformPort;
  }
}
