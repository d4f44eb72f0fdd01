import { setTimeout as sleep } from 'node:timers/promises';
import type { DiagnoseLabelIssueInput, DiagnoseLabelIssueOutput } from '../../shared/diagnosis.ts';
import type { GenerateLabelInput, GenerateLabelOutput, GetLabelPdfOutput } from '../../shared/label.ts';
import type { Logger } from '../logger.ts';
import type { PlatformPort } from '../upstream/platform-mcp.ts';
import { canonicalRequest, fingerprint } from './fingerprint.ts';
import {
  AlreadyCreatedError,
  IdempotencyConflictError,
  type LedgerAttempt,
  OpenAttemptConflictError,
  type UnknownWhy,
} from './ledger.ts';
import type { LedgerStore } from './ledger-store.ts';
import { LabelPdfs } from './pdf.ts';
import { Reconciler, whyOf } from './reconciler.ts';
import { Sender } from './sender.ts';

export { unknownAdvice } from './reconciler.ts';

/** What the agent is told. `record` follows spec 2.4 (plus the platform's `supportCode`). */
export type IssueOutcome =
  | { kind: 'created'; record: GenerateLabelOutput; attemptId: string; replayed: boolean }
  | { kind: 'rejected'; record: GenerateLabelOutput; attemptId: string; replayed: boolean }
  /** Sent, answer lost, not settled by the platform's history: the pre-posting may or may not exist (spec 3.4). */
  | { kind: 'unknown'; attemptId: string; since: number; why: UnknownWhy }
  /** Never reached the platform's tool: nothing was created; the same request may be sent again. */
  | { kind: 'not_sent'; attemptId: string; message: string }
  | { kind: 'refused'; why: 'key_conflict' | 'in_progress'; message: string };

export interface LabelIssuerOptions {
  ledger: LedgerStore;
  platform: PlatformPort;
  logger: Logger;
  now?: () => number;
  /** An identical request without an idempotency key within this window returns the first label. Default 24 h. */
  dedupeWindowMs?: number;
  /** get_label_pdf after label_pdf_timeout: delays between tries (bounded). */
  pdfDelaysMs?: number[];
  /** How long generate_label may take upstream before its outcome is unknown. */
  timeoutMs?: number;
  /** Most generate_label calls in flight at once (see `Sender`). Default 4. */
  maxInFlight?: number;
  /** Tolerated clock difference between the BFF and the platform when matching history entries. Default 5 s. */
  clockSkewMs?: number;
  /** After an unknown outcome that diagnosis could not settle at once, try again after these delays. */
  retryReconcileMs?: number[];
  /**
   * Several instances share the ledger (PostgreSQL): a `pending` attempt may then be another live instance's call in
   * flight, so start-up takes only orphans (below) instead of every pending attempt.
   */
  sharedLedger?: boolean;
  /**
   * A `pending` attempt older than this (longer than any call can last: default `timeoutMs` + 30 s) is a dead call's
   * — its process died, or its answer could not be written — and becomes `unknown`, swept every minute.
   */
  orphanAfterMs?: number;
  /** How often orphans are looked for (default every minute). */
  sweepEveryMs?: number;
}

/**
 * Labels that are never issued twice and never told to the wrong order: every attempt is written before the upstream
 * call and settled after (`Sender`); a lost answer is reconciled only against a platform attempt whose evidence is the
 * whole request and that nothing else holds (`Reconciler`); `label_pdf_timeout` is followed by `get_label_pdf`,
 * never by another `generate_label` (`LabelPdfs`, spec 3). This class decides, for each intended label, whether to
 * send, wait, replay or reconcile.
 */
export class LabelIssuer {
  private readonly ledger: LedgerStore;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly dedupeWindowMs: number;
  private readonly sharedLedger: boolean;
  private readonly orphanAfterMs: number;
  private readonly sweepEveryMs: number;
  private readonly sender: Sender;
  private readonly reconciler: Reconciler;
  private readonly pdfs: LabelPdfs;
  private readonly inFlight = new Map<string, Promise<IssueOutcome>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private recovered: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(options: LabelIssuerOptions) {
    const { ledger, platform, logger } = options;
    this.ledger = ledger;
    this.logger = logger;
    this.now = options.now ?? Date.now;
    this.dedupeWindowMs = options.dedupeWindowMs ?? 24 * 3_600_000;
    this.sharedLedger = options.sharedLedger ?? false;
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
    // Each part takes its own options from the issuer's (the names are the same).
    this.sender = new Sender(options);
    this.orphanAfterMs = options.orphanAfterMs ?? this.sender.timeoutMs + 30_000;
    this.reconciler = new Reconciler({ ...options, now: this.now });
    this.pdfs = new LabelPdfs(options);
  }

  /**
   * At start-up: attempts left `pending` by a process that died mid-call become `unknown` and are reconciled in the
   * background, before any new label is sent (so they are still among the platform's recent attempts).
   */
  start(): Promise<void> {
    // A call whose answer could not be written, or (shared ledger) an instance that died mid-call, is noticed here
    // while this process runs, not only at the next start.
    const sweep = setInterval(() => void this.recoverOrphans(this.orphanAfterMs), this.sweepEveryMs);
    sweep.unref();
    this.timers.add(sweep);
    // One instance: every pending attempt at start is a previous run's. Shared: only the orphans.
    this.recovered = this.recoverOrphans(this.sharedLedger ? this.orphanAfterMs : -1);
    return this.recovered;
  }

  /** Pending attempts older than `olderThanMs` become unknown; then unknown attempts are reconciled. */
  private async recoverOrphans(olderThanMs: number): Promise<void> {
    try {
      const recovered = await this.ledger.recoverPending(this.now() - olderThanMs);
      if (recovered.length > 0) {
        this.logger.warn(
          { attempts: recovered.map((a) => a.id) },
          'labels: attempts left pending by a stop are unknown',
        );
      }
      const unknown = await this.ledger.list({ state: 'unknown', limit: 50 });
      if (unknown.length > 0) await this.reconciler.reconcile(unknown);
    } catch (error) {
      this.logger.error(
        { error: error instanceof Error ? error.message : String(error) },
        'labels: start-up reconciliation failed',
      );
    }
  }

  async issue(input: GenerateLabelInput, idempotencyKey?: string): Promise<IssueOutcome> {
    // Start-up reconciliation goes first while the crashed attempts are the platform's most recent; a platform that
    // does not answer holds new labels back at most 15 s.
    await Promise.race([this.recovered, sleep(15_000, undefined, { ref: false })]);
    const { ledger, now, dedupeWindowMs } = this;
    const fp = fingerprint(input);
    for (let round = 0; round < 5; round++) {
      if (idempotencyKey) {
        const existing = await ledger.byKey(idempotencyKey);
        if (existing && existing.fingerprint !== fp) {
          return {
            kind: 'refused',
            why: 'key_conflict',
            message: 'This idempotencyKey was used for a different label request.',
          };
        }
        if (existing && existing.state !== 'not_sent') return this.resume(existing);
      }
      const open = await ledger.openAttempt(fp);
      if (open) {
        // The same request is in the air or its outcome is unknown: never send it again on top.
        const outcome = await this.resume(open);
        if (!idempotencyKey || outcome.kind === 'unknown' || outcome.kind === 'refused') return outcome;
        continue;
      }
      if (!idempotencyKey) {
        const last = await ledger.lastCreated(fp, now() - dedupeWindowMs);
        if (last) return this.replay(last);
      }
      // The row is written only once a send slot is held: at most `maxInFlight` attempts are ever pending, so a
      // crash leaves few enough for the platform's recent history to settle them all.
      await this.sender.acquire();
      let attempt: LedgerAttempt;
      try {
        attempt = await ledger.begin({
          fingerprint: fp,
          idempotencyKey,
          request: canonicalRequest(input),
          createdSince: idempotencyKey ? undefined : now() - dedupeWindowMs,
        });
      } catch (error) {
        this.sender.release();
        // Another call took the key, opened the same request, or created it while this one waited for a slot:
        // look again (and wait for it, or replay it).
        if (
          error instanceof IdempotencyConflictError ||
          error instanceof OpenAttemptConflictError ||
          error instanceof AlreadyCreatedError
        )
          continue;
        throw error;
      }
      const flight = this.send(attempt, input);
      this.inFlight.set(attempt.id, flight);
      try {
        return await flight;
      } finally {
        this.inFlight.delete(attempt.id);
      }
    }
    return { kind: 'refused', why: 'in_progress', message: 'An identical label request is in progress.' };
  }

  /** Sends a written attempt (the caller holds a slot) and tells its outcome; a lost answer is reconciled at once. */
  private async send(attempt: LedgerAttempt, input: GenerateLabelInput): Promise<IssueOutcome> {
    const sent = await this.sender.send(attempt, input);
    switch (sent.kind) {
      case 'created':
        return {
          kind: 'created',
          record: await this.pdfs.attach(sent.record),
          attemptId: attempt.id,
          replayed: false,
        };
      case 'rejected':
        return { kind: 'rejected', record: sent.record, attemptId: attempt.id, replayed: false };
      case 'not_sent':
        return { kind: 'not_sent', attemptId: attempt.id, message: 'the request did not reach the platform' };
      case 'binding_conflict':
        return { kind: 'unknown', attemptId: attempt.id, since: attempt.createdAt, why: 'binding_conflict' };
      case 'lost': {
        // Right after the loss, so a dropped answer is usually told as created on the same call.
        const [settled] = await this.reconciler.reconcile([sent.attempt]);
        if (settled && settled.state !== 'unknown') return markFresh(await this.resume(settled));
        this.reconciler.retryLater(attempt.id);
        return {
          kind: 'unknown',
          attemptId: attempt.id,
          since: attempt.createdAt,
          why: whyOf(settled ?? sent.attempt),
        };
      }
    }
  }

  /** An attempt seen again: wait for it, replay it, or reconcile it. */
  private async resume(attempt: LedgerAttempt): Promise<IssueOutcome> {
    switch (attempt.state) {
      case 'pending':
        return this.awaitPending(attempt);
      case 'created':
        return this.replay(attempt);
      case 'rejected':
        return { kind: 'rejected', record: stored(attempt), attemptId: attempt.id, replayed: true };
      case 'not_sent':
        return {
          kind: 'not_sent',
          attemptId: attempt.id,
          message: attempt.note ?? 'the request did not reach the platform',
        };
      case 'unknown': {
        const [settled] = await this.reconciler.reconcile([attempt]);
        if (settled && settled.state !== 'unknown') return markReplayed(await this.resume(settled));
        return {
          kind: 'unknown',
          attemptId: attempt.id,
          since: attempt.createdAt,
          why: whyOf(settled ?? attempt),
        };
      }
    }
  }

  /**
   * Waits for a pending attempt: its flight when it is this process's (the row can be seen a moment before the flight
   * is registered), otherwise until the ledger shows it settled, for as long as a call may take.
   */
  private async awaitPending(attempt: LedgerAttempt): Promise<IssueOutcome> {
    const deadline = this.now() + this.sender.timeoutMs + 5_000;
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      const flight = this.inFlight.get(attempt.id);
      if (flight) return markReplayed(await flight);
      const current = await this.ledger.get(attempt.id);
      if (current && current.state !== 'pending') return markReplayed(await this.resume(current));
      if (this.now() > deadline || this.closed) {
        return {
          kind: 'refused',
          why: 'in_progress',
          message: 'An identical label request is in progress elsewhere; ask again in a minute.',
        };
      }
      await sleep(wait);
    }
  }

  /** A created label asked for again: the same pre-posting, with its PDF when it can be had. */
  private async replay(attempt: LedgerAttempt): Promise<IssueOutcome> {
    const record = await this.pdfs.attach(stored(attempt), 1);
    return { kind: 'created', record, attemptId: attempt.id, replayed: true };
  }

  /** Settles what it can of unknown attempts from the platform's history (see `Reconciler`). */
  reconcile(attempts: LedgerAttempt[]): Promise<(LedgerAttempt | undefined)[]> {
    return this.reconciler.reconcile(attempts);
  }

  /** `diagnose_label_issue` on the platform, parsed with the shared schema. */
  diagnose(input: Omit<DiagnoseLabelIssueInput, 'instanceId'>): Promise<DiagnoseLabelIssueOutput> {
    return this.reconciler.diagnose(input);
  }

  /** `get_label_pdf` on the platform, parsed with the shared schema. */
  labelPdf(prepostagemId: string): Promise<GetLabelPdfOutput> {
    return this.pdfs.get(prepostagemId);
  }

  /** Stops background reconciliation (the ledger stays as it is; the next start picks up). */
  close(): void {
    this.closed = true;
    this.reconciler.close();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

function stored(attempt: LedgerAttempt): GenerateLabelOutput {
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

function markFresh(outcome: IssueOutcome): IssueOutcome {
  return outcome.kind === 'created' || outcome.kind === 'rejected'
    ? { ...outcome, replayed: false }
    : outcome;
}
