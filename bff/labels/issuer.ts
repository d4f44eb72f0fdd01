import { setTimeout as sleep } from 'node:timers/promises';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type Attempt,
  type DiagnoseLabelIssueInput,
  type DiagnoseLabelIssueOutput,
  DiagnoseLabelIssueOutputSchema,
} from '../../shared/diagnosis.ts';
import {
  type GenerateLabelInput,
  GenerateLabelInputSchema,
  type GenerateLabelOutput,
  GenerateLabelOutputSchema,
  type GetLabelPdfOutput,
  GetLabelPdfOutputSchema,
} from '../../shared/label.ts';
import { MAX_LISTED_ATTEMPTS } from '../../shared/limits.ts';
import type { Logger } from '../logger.ts';
import { isPlatformCallError, type PlatformMcp } from '../upstream/platform-mcp.ts';
import { canonicalRequest, fingerprint } from './fingerprint.ts';
import {
  AlreadyCreatedError,
  BindingConflictError,
  IdempotencyConflictError,
  type LedgerAttempt,
  type LedgerStore,
  OpenAttemptConflictError,
  TransitionError,
} from './ledger.ts';

/** Why an unknown outcome could not be settled (yet). */
export type UnknownWhy =
  /** No platform attempt matching the whole request was found among the recent ones (it may still appear). */
  | 'no_match'
  /** More than one unclaimed platform attempt matches the whole request: no choice is safe. */
  | 'ambiguous'
  /** The recent history the platform lists no longer reaches back to this attempt. */
  | 'history_overflow'
  /** The platform's history could not be read. */
  | 'diagnosis_failed'
  /** The platform answered with a pre-posting already bound to another attempt (needs a person). */
  | 'binding_conflict';

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
  platform: PlatformMcp;
  logger: Logger;
  now?: () => number;
  /** An identical request without an idempotency key within this window returns the first label. Default 24 h. */
  dedupeWindowMs?: number;
  /** get_label_pdf after label_pdf_timeout: delays between tries (bounded). */
  pdfDelaysMs?: number[];
  /** How long generate_label may take upstream before its outcome is unknown. */
  timeoutMs?: number;
  /**
   * Most generate_label calls in flight at once. A crash or a lost answer can only be reconciled while the attempt is
   * among the platform's 10 most recent (spec 4.4.5), so fewer in flight keeps every one of them reachable.
   */
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

type Options = Required<Omit<LabelIssuerOptions, 'now'>> & { now: () => number };

/**
 * Labels that are never issued twice and never told to the wrong order: every attempt is written before the upstream
 * call and settled after; a lost answer is reconciled only against a platform attempt whose evidence is the whole
 * request and that nothing else holds; `label_pdf_timeout` is followed by `get_label_pdf`, never by another
 * `generate_label` (spec 3).
 */
export class LabelIssuer {
  private readonly options: Options;
  private readonly inFlight = new Map<string, Promise<IssueOutcome>>();
  private reconciling: Promise<unknown> = Promise.resolve();
  private sending = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private recovered: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(options: LabelIssuerOptions) {
    this.options = {
      dedupeWindowMs: 24 * 3_600_000,
      pdfDelaysMs: [250, 500, 1000, 2000, 2000],
      timeoutMs: 60_000,
      maxInFlight: 4,
      clockSkewMs: 5_000,
      retryReconcileMs: [2_000, 10_000, 60_000],
      now: Date.now,
      sharedLedger: false,
      sweepEveryMs: 60_000,
      ...options,
      orphanAfterMs: options.orphanAfterMs ?? (options.timeoutMs ?? 60_000) + 30_000,
    };
  }

  /**
   * At start-up: attempts left `pending` by a process that died mid-call become `unknown` and are reconciled in the
   * background, before any new label is sent (so they are still among the platform's recent attempts).
   */
  start(): Promise<void> {
    // A call whose answer could not be written, or (shared ledger) an instance that died mid-call, is noticed here
    // while this process runs, not only at the next start.
    const sweep = setInterval(
      () => void this.recoverOrphans(this.options.orphanAfterMs),
      this.options.sweepEveryMs,
    );
    sweep.unref();
    this.timers.add(sweep);
    // One instance: every pending attempt at start is a previous run's. Shared: only the orphans.
    this.recovered = this.recoverOrphans(this.options.sharedLedger ? this.options.orphanAfterMs : -1);
    return this.recovered;
  }

  /** Pending attempts older than `olderThanMs` become unknown; then unknown attempts are reconciled. */
  private recoverOrphans(olderThanMs: number): Promise<void> {
    return (async () => {
      const { ledger, logger, now } = this.options;
      const recovered = await ledger.recoverPending(now() - olderThanMs);
      if (recovered.length > 0) {
        logger.warn(
          { attempts: recovered.map((a) => a.id) },
          'labels: attempts left pending by a stop are unknown',
        );
      }
      const unknown = await ledger.list({ state: 'unknown', limit: 50 });
      if (unknown.length > 0) await this.reconcile(unknown);
    })().catch((error: unknown) => {
      this.options.logger.error(
        { error: error instanceof Error ? error.message : String(error) },
        'labels: start-up reconciliation failed',
      );
    });
  }

  async issue(input: GenerateLabelInput, idempotencyKey?: string): Promise<IssueOutcome> {
    // Start-up reconciliation goes first while the crashed attempts are the platform's most recent; a platform that
    // does not answer holds new labels back at most 15 s.
    await Promise.race([this.recovered, sleep(15_000, undefined, { ref: false })]);
    const { ledger, now, dedupeWindowMs } = this.options;
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
      await this.acquire();
      let attempt: LedgerAttempt;
      try {
        attempt = await ledger.begin({
          fingerprint: fp,
          idempotencyKey,
          request: canonicalRequest(input),
          createdSince: idempotencyKey ? undefined : now() - dedupeWindowMs,
        });
      } catch (error) {
        this.release();
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
        const [settled] = await this.reconcile([attempt]);
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
    const deadline = this.options.now() + this.options.timeoutMs + 5_000;
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      const flight = this.inFlight.get(attempt.id);
      if (flight) return markReplayed(await flight);
      const current = await this.options.ledger.get(attempt.id);
      if (current && current.state !== 'pending') return markReplayed(await this.resume(current));
      if (this.options.now() > deadline || this.closed) {
        return {
          kind: 'refused',
          why: 'in_progress',
          message: 'An identical label request is in progress elsewhere; ask again in a minute.',
        };
      }
      await sleep(wait);
    }
  }

  /** Sends one attempt; the caller holds a send slot, released here once the platform call ends. */
  private async send(attempt: LedgerAttempt, input: GenerateLabelInput): Promise<IssueOutcome> {
    let result: CallToolResult;
    try {
      const { instanceId: _ignored, ...args } = input;
      result = await this.options.platform.call('generate_label', args, this.options.timeoutMs);
    } catch (error) {
      return this.lost(attempt, error);
    } finally {
      this.release();
    }
    const parsed = GenerateLabelOutputSchema.safeParse(result.structuredContent ?? {});
    if (!parsed.success) {
      // The tool ran and answered something we cannot read: as good as a lost answer.
      return this.lost(attempt, new Error('generate_label answered a record that does not parse'));
    }
    const record = parsed.data;
    if (!record.prepostagemId && !record.reason) {
      // A tool error (or an answer) that says neither what was created nor why not: the tool may have created the
      // pre-posting before failing, so this is a lost answer, reconciled — never a final "rejected" to resend on.
      return this.lost(attempt, new Error('generate_label answered neither a pre-posting nor a reason'));
    }
    if (!record.prepostagemId) {
      const reason = record.reason ?? 'platform_error';
      const full: GenerateLabelOutput = { ...record, reason };
      await this.settleAnswer(attempt, {
        state: 'rejected',
        reason,
        status: record.status,
        supportCode: record.supportCode,
      });
      return { kind: 'rejected', record: full, attemptId: attempt.id, replayed: false };
    }
    try {
      await this.options.ledger.settle(attempt.id, {
        state: 'created',
        settledBy: 'answer',
        prepostagemId: record.prepostagemId,
        trackingCode: record.trackingCode,
        reason: record.reason,
        status: record.status,
        supportCode: record.supportCode,
      });
    } catch (error) {
      if (error instanceof TransitionError) {
        // Settled meanwhile from the platform's history (a sweep took this slow call for a dead one): the same
        // pre-posting is this answer's; anything else is an error for a person.
        const current = await this.options.ledger.get(attempt.id);
        if (current?.state === 'created' && current.prepostagemId === record.prepostagemId)
          return {
            kind: 'created',
            record: await this.withPdf(record),
            attemptId: attempt.id,
            replayed: false,
          };
        throw error;
      }
      if (!(error instanceof BindingConflictError)) throw error;
      // Only a person's earlier decision can hold this pre-posting: never tell it to two orders.
      const note = `binding_conflict: the platform answered ${record.prepostagemId}, which the ledger already binds to another attempt`;
      await this.options.ledger.settle(attempt.id, { state: 'unknown', settledBy: 'answer', note });
      this.options.logger.error({ attemptId: attempt.id }, `labels: ${note}; a person must check`);
      return { kind: 'unknown', attemptId: attempt.id, since: attempt.createdAt, why: 'binding_conflict' };
    }
    return { kind: 'created', record: await this.withPdf(record), attemptId: attempt.id, replayed: false };
  }

  /** A rejection settles; a supportCode held elsewhere is not copied (it is evidence, not a binding we need). */
  private async settleAnswer(
    attempt: LedgerAttempt,
    settlement: {
      state: 'rejected';
      reason: string;
      status?: string | undefined;
      supportCode?: string | undefined;
    },
  ): Promise<void> {
    try {
      await this.options.ledger.settle(attempt.id, { ...settlement, settledBy: 'answer' });
    } catch (error) {
      if (!(error instanceof BindingConflictError)) throw error;
      await this.options.ledger.settle(attempt.id, {
        ...settlement,
        supportCode: undefined,
        settledBy: 'answer',
      });
    }
  }

  /** The call failed: `not_sent` when the tool cannot have run; otherwise unknown, reconciled at once. */
  private async lost(attempt: LedgerAttempt, error: unknown): Promise<IssueOutcome> {
    const { ledger, logger } = this.options;
    const message = error instanceof Error ? error.message : String(error);
    if (isPlatformCallError(error) && error.failure === 'not_sent') {
      await ledger.settle(attempt.id, { state: 'not_sent', settledBy: 'answer', note: message });
      logger.warn(
        { attemptId: attempt.id, error: message },
        'labels: generate_label did not reach the platform',
      );
      return { kind: 'not_sent', attemptId: attempt.id, message: 'the request did not reach the platform' };
    }
    const unknown = await ledger.settle(attempt.id, {
      state: 'unknown',
      settledBy: 'answer',
      note: `answer lost: ${message}`,
    });
    logger.error(
      { attemptId: attempt.id, error: message },
      'labels: generate_label answer lost; reconciling with the platform history',
    );
    const [settled] = await this.reconcile([unknown]);
    if (settled && settled.state !== 'unknown') return this.resume(settled).then(markFresh);
    this.retryLater(attempt.id);
    return {
      kind: 'unknown',
      attemptId: attempt.id,
      since: attempt.createdAt,
      why: whyOf(settled ?? unknown),
    };
  }

  /** Tries an unsettled attempt again after the configured delays (in the background). */
  private retryLater(id: string, step = 0): void {
    const delay = this.options.retryReconcileMs[step];
    if (delay === undefined || this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void (async () => {
        const attempt = await this.options.ledger.get(id);
        if (attempt?.state !== 'unknown') return;
        const [settled] = await this.reconcile([attempt]);
        if (settled?.state === 'unknown') this.retryLater(id, step + 1);
      })().catch(() => undefined);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * spec 3.4: settles unknown attempts from the platform's history, one reconciliation at a time. An attempt claims a
   * history entry only when the entry's evidence is the whole request (same fingerprint), it falls within the
   * attempt's time, nothing in the ledger holds it, and it is the only such entry; otherwise it stays unknown and
   * the note says why. Storage UNIQUE constraints make the claim exclusive even across processes.
   */
  reconcile(attempts: LedgerAttempt[]): Promise<(LedgerAttempt | undefined)[]> {
    const run = this.reconciling.then(() => this.reconcileNow(attempts));
    this.reconciling = run.catch(() => undefined);
    return run;
  }

  private async reconcileNow(attempts: LedgerAttempt[]): Promise<(LedgerAttempt | undefined)[]> {
    const { ledger, logger, now, clockSkewMs } = this.options;
    const current = await Promise.all(attempts.map((attempt) => ledger.get(attempt.id)));
    const open = current.filter((attempt): attempt is LedgerAttempt => attempt?.state === 'unknown');
    if (open.length === 0) return current;
    let history: Attempt[];
    try {
      const diagnosis = await this.diagnose({ source: 'mcp' });
      if (diagnosis.reason && diagnosis.attempts.length === 0) {
        throw new Error(`diagnose_label_issue answered reason ${diagnosis.reason}`);
      }
      history = diagnosis.attempts;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.warn({ error: message }, 'labels: diagnosis failed; attempts stay unknown');
      for (const attempt of open) await ledger.note(attempt.id, `diagnosis_failed: ${message}`);
      return Promise.all(attempts.map((attempt) => ledger.get(attempt.id)));
    }
    const entries = history
      .filter((entry) => entry.source === 'mcp')
      .map((entry) => ({ entry, at: Date.parse(entry.createdAt), fingerprint: evidenceFingerprint(entry) }));
    const oldestListed = Math.min(...entries.map(({ at }) => at));
    const full = history.length >= MAX_LISTED_ATTEMPTS;
    const claimed = new Set<string>();
    for (const attempt of open) {
      const from = attempt.createdAt - clockSkewMs;
      const to = (attempt.settledAt ?? now()) + clockSkewMs;
      const matches: Attempt[] = [];
      for (const { entry, at, fingerprint: fp } of entries) {
        if (fp !== attempt.fingerprint || at < from || at > to || claimed.has(entry.supportCode)) continue;
        if (await ledger.isBound({ supportCode: entry.supportCode, prepostagemId: entry.prepostagemId }))
          continue;
        matches.push(entry);
      }
      const [match] = matches;
      if (matches.length !== 1 || !match) {
        const why: UnknownWhy =
          matches.length > 1 ? 'ambiguous' : full && oldestListed > from ? 'history_overflow' : 'no_match';
        await ledger.note(attempt.id, `${why}: ${WHY_TEXT[why]}`);
        continue;
      }
      try {
        await ledger.settle(attempt.id, {
          state: match.outcome === 'created' && match.prepostagemId ? 'created' : 'rejected',
          settledBy: 'diagnosis',
          prepostagemId: match.prepostagemId,
          trackingCode: match.trackingCode,
          reason: match.reason ?? (match.outcome === 'created' ? undefined : match.outcome),
          supportCode: match.supportCode,
        });
        claimed.add(match.supportCode);
        logger.info(
          { attemptId: attempt.id, supportCode: match.supportCode, outcome: match.outcome },
          'labels: unknown attempt settled by diagnosis (whole request matched)',
        );
      } catch (error) {
        // Another process (the operator's tool, another instance) settled or bound it first: the storage decided.
        if (error instanceof TransitionError) continue;
        if (!(error instanceof BindingConflictError)) throw error;
        await ledger.note(
          attempt.id,
          'no_match: the matching platform attempt is already bound to another attempt',
        );
      }
    }
    return Promise.all(attempts.map((attempt) => ledger.get(attempt.id)));
  }

  /** `diagnose_label_issue` on the platform, parsed with the shared schema. Throws when it cannot be read. */
  async diagnose(input: Omit<DiagnoseLabelIssueInput, 'instanceId'>): Promise<DiagnoseLabelIssueOutput> {
    const result = await this.options.platform.read('diagnose_label_issue', { ...input });
    const structured = result.structuredContent ?? { attempts: [] };
    // spec 2.7: when the query is not authorized or fails, the answer may carry only `reason` (and `actionUrl`).
    const parsed = DiagnoseLabelIssueOutputSchema.safeParse(
      'attempts' in structured ? structured : { ...structured, attempts: [] },
    );
    if (!parsed.success) throw new Error('diagnose_label_issue answered an output that does not parse');
    return parsed.data;
  }

  /** `get_label_pdf` on the platform (read-only, tried twice), parsed with the shared schema. */
  async labelPdf(prepostagemId: string): Promise<GetLabelPdfOutput> {
    const result = await this.options.platform.read('get_label_pdf', { prepostagemId });
    const parsed = GetLabelPdfOutputSchema.safeParse(result.structuredContent ?? {});
    if (!parsed.success) throw new Error('get_label_pdf answered an output that does not parse');
    return parsed.data;
  }

  /** spec 3.2: the PDF comes from get_label_pdf with this prepostagemId, never from a second generate_label. */
  private async withPdf(record: GenerateLabelOutput, tries?: number): Promise<GenerateLabelOutput> {
    if (record.labelPdfBase64 || !record.prepostagemId) return record;
    const pdf = await this.fetchPdf(record.prepostagemId, tries);
    if (pdf.labelPdfBase64) {
      const { reason: _timeout, ...rest } = record;
      return { ...rest, labelPdfBase64: pdf.labelPdfBase64 };
    }
    return pdf.status ? { ...record, status: pdf.status } : record;
  }

  /** A created label asked for again: the same pre-posting, with its PDF when it can be had. */
  private async replay(attempt: LedgerAttempt): Promise<IssueOutcome> {
    const record = await this.withPdf(stored(attempt), 1);
    return { kind: 'created', record, attemptId: attempt.id, replayed: true };
  }

  /** get_label_pdf with bounded backoff. */
  private async fetchPdf(
    prepostagemId: string,
    tries = this.options.pdfDelaysMs.length + 1,
  ): Promise<{ labelPdfBase64?: string; status?: string }> {
    let status: string | undefined;
    for (let i = 0; i < tries; i++) {
      if (i > 0) await sleep(this.options.pdfDelaysMs[i - 1] ?? 2000);
      try {
        const out = await this.labelPdf(prepostagemId);
        if (out.labelPdfBase64) return { labelPdfBase64: out.labelPdfBase64 };
        if (out.status) status = out.status;
      } catch (error) {
        this.options.logger.warn(
          { prepostagemId, error: error instanceof Error ? error.message : String(error) },
          'labels: get_label_pdf failed',
        );
      }
    }
    return status ? { status } : {};
  }

  private async acquire(): Promise<void> {
    if (this.sending < this.options.maxInFlight) {
      this.sending += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.sending -= 1;
  }

  /** Stops background reconciliation (the ledger stays as it is; the next start picks up). */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

const WHY_TEXT: Record<UnknownWhy, string> = {
  no_match:
    'no platform attempt with this exact request was found among the recent ones; it may appear later, and absence proves nothing',
  ambiguous: 'more than one unclaimed platform attempt carries this exact request; none can be chosen safely',
  history_overflow: "the platform's list of recent attempts no longer reaches back to this one",
  diagnosis_failed: "the platform's history could not be read",
  binding_conflict: 'the platform answered a pre-posting the ledger already binds to another attempt',
};

/** What an unknown outcome tells the agent, from the attempt's note. */
export function unknownAdvice(why: UnknownWhy): string {
  return WHY_TEXT[why];
}

function whyOf(attempt: LedgerAttempt): UnknownWhy {
  const code = attempt.note?.split(':')[0];
  return code && code in WHY_TEXT ? (code as UnknownWhy) : 'no_match';
}

/** The fingerprint of the request a history entry says was sent, or undefined when its evidence is not a request. */
function evidenceFingerprint(entry: Attempt): string | undefined {
  const parsed = GenerateLabelInputSchema.safeParse(entry.evidence.request);
  return parsed.success ? fingerprint(parsed.data) : undefined;
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
