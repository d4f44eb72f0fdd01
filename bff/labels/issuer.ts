import { setTimeout as sleep } from 'node:timers/promises';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AttemptSchema } from '../../shared/diagnosis.ts';
import { type GenerateLabelInput, type LabelRecord, LabelRecordSchema } from '../../shared/label.ts';
import type { Logger } from '../logger.ts';
import type { PlatformMcp } from '../mcp/platform.ts';
import { fingerprint } from './fingerprint.ts';
import { IdempotencyConflictError, type LabelLedger, type LedgerAttempt } from './ledger.ts';

/** What the agent is told. `record` follows spec 2.4 (plus the platform's `supportCode`). */
export type IssueOutcome =
  | { kind: 'created'; record: LabelRecord & { supportCode?: string }; attemptId: string; replayed: boolean }
  | { kind: 'rejected'; record: LabelRecord & { supportCode?: string }; attemptId: string; replayed: boolean }
  /** The network lost the answer: the pre-posting may or may not exist. Never resent blindly (spec 3.4). */
  | { kind: 'unknown'; attemptId: string; since: number }
  | { kind: 'refused'; why: 'key_conflict' | 'in_progress'; message: string };

/** What the ledger keeps of a request: enough to match it in `diagnose_label_issue`'s evidence, no personal data. */
function summary(input: GenerateLabelInput) {
  return {
    serviceCode: input.serviceCode,
    weightGrams: input.weightGrams,
    senderCep: input.sender.endereco.cep,
    recipientCep: input.recipient.endereco.cep,
    declaredItems: input.declaredItems.length,
  };
}

export interface LabelIssuerOptions {
  ledger: LabelLedger;
  platform: PlatformMcp;
  logger: Logger;
  now?: () => number;
  /** An identical request without an idempotency key within this window returns the first label. Default 24 h. */
  dedupeWindowMs?: number;
  /** get_label_pdf after label_pdf_timeout: delays between tries (bounded). */
  pdfDelaysMs?: number[];
  /** How long generate_label may take upstream before its outcome is unknown. */
  timeoutMs?: number;
}

/**
 * Labels that are never issued twice: every attempt is written before the upstream call and settled after; an
 * unknown outcome blocks the same request until `diagnose_label_issue` settles it; `label_pdf_timeout` is followed by
 * `get_label_pdf`, never by another `generate_label` (spec 3).
 */
export class LabelIssuer {
  private readonly options: Required<Omit<LabelIssuerOptions, 'now'>> & { now: () => number };
  private readonly inFlight = new Map<string, Promise<IssueOutcome>>();

  constructor(options: LabelIssuerOptions) {
    this.options = {
      dedupeWindowMs: 24 * 3_600_000,
      pdfDelaysMs: [250, 500, 1000, 2000, 2000],
      timeoutMs: 60_000,
      now: Date.now,
      ...options,
    };
  }

  async issue(input: GenerateLabelInput, idempotencyKey?: string): Promise<IssueOutcome> {
    const { ledger, now, dedupeWindowMs } = this.options;
    const fp = fingerprint(input);

    if (idempotencyKey) {
      const existing = ledger.byKey(idempotencyKey);
      if (existing) {
        if (existing.fingerprint !== fp) {
          return {
            kind: 'refused',
            why: 'key_conflict',
            message: 'This idempotencyKey was used for a different label request.',
          };
        }
        return this.resume(existing);
      }
    }

    for (const attempt of ledger.sameRequest(fp, now() - dedupeWindowMs)) {
      if (attempt.state === 'pending' || attempt.state === 'unknown') {
        // The same request is still in the air, or its outcome is unknown: never send it again on top.
        const outcome = await this.resume(attempt);
        if (outcome.kind === 'unknown' || outcome.kind === 'refused') return outcome;
        if (!idempotencyKey && outcome.kind === 'created') return outcome;
      } else if (attempt.state === 'created' && !idempotencyKey) {
        return this.replay(attempt);
      }
    }

    let attempt: LedgerAttempt;
    try {
      attempt = ledger.begin(fp, idempotencyKey, summary(input));
    } catch (error) {
      if (!(error instanceof IdempotencyConflictError)) throw error;
      return {
        kind: 'refused',
        why: 'in_progress',
        message: 'A request with this idempotencyKey is in progress.',
      };
    }
    const flight = this.send(attempt, input);
    this.inFlight.set(attempt.id, flight);
    try {
      return await flight;
    } finally {
      this.inFlight.delete(attempt.id);
    }
  }

  /** An attempt seen again: wait for it, replay it, or reconcile it. */
  private async resume(attempt: LedgerAttempt): Promise<IssueOutcome> {
    switch (attempt.state) {
      case 'pending': {
        const flight = this.inFlight.get(attempt.id);
        if (flight) return markReplayed(await flight);
        if (this.options.now() - attempt.createdAt > this.options.timeoutMs) {
          // Pending with no flight past the timeout: the process died mid-call. Its outcome is unknown.
          return this.resume(this.options.ledger.settle(attempt.id, { state: 'unknown' }));
        }
        return {
          kind: 'refused',
          why: 'in_progress',
          message: 'An identical label request is in progress elsewhere.',
        };
      }
      case 'created':
        return this.replay(attempt);
      case 'rejected':
        return { kind: 'rejected', record: stored(attempt), attemptId: attempt.id, replayed: true };
      case 'unknown': {
        const settled = await this.reconcile(attempt);
        if (settled.state === 'unknown')
          return { kind: 'unknown', attemptId: attempt.id, since: attempt.createdAt };
        return this.resume(settled);
      }
    }
  }

  private async send(attempt: LedgerAttempt, input: GenerateLabelInput): Promise<IssueOutcome> {
    const { ledger, platform, logger } = this.options;
    const { instanceId: _ignored, ...args } = input;
    let result: CallToolResult;
    try {
      result = await platform.call('generate_label', args, this.options.timeoutMs);
    } catch (error) {
      ledger.settle(attempt.id, { state: 'unknown' });
      logger.error(
        { attemptId: attempt.id, error: error instanceof Error ? error.message : String(error) },
        'labels: generate_label outcome unknown; the same request is blocked until diagnosis settles it',
      );
      return { kind: 'unknown', attemptId: attempt.id, since: attempt.createdAt };
    }
    const parsed = LabelRecordSchema.safeParse(result.structuredContent ?? {});
    const record: LabelRecord = parsed.success ? parsed.data : {};
    const supportCode = supportCodeOf(result.structuredContent);
    if (result.isError || !record.prepostagemId) {
      const reason = record.reason ?? (result.isError ? 'platform_error' : 'no_prepostagem');
      ledger.settle(attempt.id, { state: 'rejected', reason, status: record.status, supportCode });
      const full = { ...record, reason, ...(supportCode ? { supportCode } : {}) };
      return { kind: 'rejected', record: full, attemptId: attempt.id, replayed: false };
    }
    ledger.settle(attempt.id, {
      state: 'created',
      prepostagemId: record.prepostagemId,
      trackingCode: record.trackingCode,
      reason: record.reason,
      status: record.status,
      supportCode,
    });
    let full: LabelRecord & { supportCode?: string } = { ...record, ...(supportCode ? { supportCode } : {}) };
    if (!full.labelPdfBase64) {
      // spec 3.2: the PDF comes from get_label_pdf with this prepostagemId, never from a second generate_label.
      const pdf = await this.fetchPdf(record.prepostagemId);
      if (pdf.labelPdfBase64) {
        const { reason: _timeout, ...rest } = full;
        full = { ...rest, labelPdfBase64: pdf.labelPdfBase64 };
      } else if (pdf.status) full = { ...full, status: pdf.status };
    }
    return { kind: 'created', record: full, attemptId: attempt.id, replayed: false };
  }

  /** A created label asked for again: the same pre-posting, with its PDF when it can be had. */
  private async replay(attempt: LedgerAttempt): Promise<IssueOutcome> {
    const record = stored(attempt);
    const pdf = attempt.prepostagemId ? await this.fetchPdf(attempt.prepostagemId, 1) : {};
    const { reason, ...rest } = record;
    const full = pdf.labelPdfBase64
      ? { ...rest, labelPdfBase64: pdf.labelPdfBase64 }
      : { ...record, ...(reason ? { reason } : {}) };
    return { kind: 'created', record: full, attemptId: attempt.id, replayed: true };
  }

  /** get_label_pdf with bounded backoff. */
  async fetchPdf(
    prepostagemId: string,
    tries = this.options.pdfDelaysMs.length + 1,
  ): Promise<{ labelPdfBase64?: string; status?: string }> {
    let status: string | undefined;
    for (let i = 0; i < tries; i++) {
      if (i > 0) await sleep(this.options.pdfDelaysMs[i - 1] ?? 2000);
      try {
        const result = await this.options.platform.read('get_label_pdf', { prepostagemId });
        const out = LabelRecordSchema.safeParse(result.structuredContent ?? {});
        if (out.success && out.data.labelPdfBase64) return { labelPdfBase64: out.data.labelPdfBase64 };
        if (out.success && out.data.status) status = out.data.status;
      } catch (error) {
        this.options.logger.warn(
          { prepostagemId, error: error instanceof Error ? error.message : String(error) },
          'labels: get_label_pdf failed',
        );
      }
    }
    return status ? { status } : {};
  }

  /**
   * spec 3.4: checks the platform's history for an unknown attempt. A match (same request, after our attempt began,
   * not already claimed) settles it; no match leaves it unknown: absence of a record proves nothing.
   */
  async reconcile(attempt: LedgerAttempt): Promise<LedgerAttempt> {
    const { ledger, platform, logger } = this.options;
    let attempts: unknown[];
    try {
      const result = await platform.read('diagnose_label_issue', { source: 'mcp' });
      attempts = ((result.structuredContent as { attempts?: unknown[] } | undefined)?.attempts ??
        []) as unknown[];
    } catch (error) {
      logger.warn(
        { attemptId: attempt.id, error: error instanceof Error ? error.message : String(error) },
        'labels: diagnosis failed',
      );
      return attempt;
    }
    const request = JSON.parse(attempt.request) as Record<string, unknown>;
    for (const raw of attempts) {
      const parsed = AttemptSchema.safeParse(raw);
      if (!parsed.success) continue;
      const candidate = parsed.data;
      if (Date.parse(candidate.createdAt) < attempt.createdAt - 2000) continue;
      if (ledger.bySupportCode(candidate.supportCode)) continue;
      const sent = (candidate.evidence.request ?? {}) as Record<string, unknown>;
      const same = ['serviceCode', 'weightGrams', 'senderCep', 'recipientCep'].every(
        (field) => sent[field] === request[field],
      );
      if (!same) continue;
      logger.info(
        { attemptId: attempt.id, supportCode: candidate.supportCode, outcome: candidate.outcome },
        'labels: unknown attempt settled by diagnosis',
      );
      return ledger.settle(attempt.id, {
        state: candidate.outcome === 'created' ? 'created' : 'rejected',
        prepostagemId: candidate.prepostagemId,
        trackingCode: candidate.trackingCode,
        reason: candidate.reason,
        supportCode: candidate.supportCode,
      });
    }
    return attempt;
  }
}

function stored(attempt: LedgerAttempt): LabelRecord & { supportCode?: string } {
  return {
    ...(attempt.prepostagemId ? { prepostagemId: attempt.prepostagemId } : {}),
    ...(attempt.trackingCode ? { trackingCode: attempt.trackingCode } : {}),
    ...(attempt.status ? { status: attempt.status } : {}),
    ...(attempt.reason ? { reason: attempt.reason } : {}),
    ...(attempt.supportCode ? { supportCode: attempt.supportCode } : {}),
  };
}

function markReplayed(outcome: IssueOutcome): IssueOutcome {
  return outcome.kind === 'created' || outcome.kind === 'rejected' ? { ...outcome, replayed: true } : outcome;
}

function supportCodeOf(structured: unknown): string | undefined {
  const code = (structured as { supportCode?: unknown } | undefined)?.supportCode;
  return typeof code === 'string' ? code : undefined;
}
