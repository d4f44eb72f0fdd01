import { setTimeout as sleep } from 'node:timers/promises';
import { declaredValueCents } from '../../shared/labels/declared-value.ts';
import type { DiagnoseLabelIssueInput, DiagnoseLabelIssueOutput } from '../../shared/labels/diagnosis.ts';
import type { GenerateLabelInput, GetLabelPdfOutput } from '../../shared/labels/label.ts';
import type { Logger } from '../logger.ts';
import { canonicalRequest, fingerprint } from './fingerprint.ts';
import {
  AgentLimitError,
  AlreadyCreatedError,
  type BeginInput,
  IdempotencyConflictError,
  type LedgerAttempt,
  OpenAttemptConflictError,
  OrderVolumeConflictError,
  SendWindowError,
} from './ledger.ts';
import type { LedgerStore } from './ledger-store.ts';
import { diagnoseOrder } from './order-diagnosis.ts';
import {
  type IssueOutcome,
  identicalRequestUnknown,
  inProgress,
  keyConflict,
  limitReached,
  markReplayed,
  orderConflict,
  storedRecord,
  unknownOutcome,
} from './outcomes.ts';
import { LabelPdfs, type LabelPdfsOptions } from './pdf.ts';
import { Reconciler, type ReconcilerOptions, whyOf } from './reconciler.ts';
import { Recovery } from './recovery.ts';
import { Sender, type SenderOptions } from './sender.ts';

/**
 * Which label this is, and who asks. With `orderId`, the intended label is (`orderId`, `volume`); with an
 * `idempotencyKey`, the key; with neither, the request itself (an identical request within the dedupe window returns
 * the first label).
 */
export type LabelIntent = Pick<
  BeginInput,
  'idempotencyKey' | 'orderId' | 'volume' | 'issuedBy' | 'limits' | 'locale'
>;

/** The issuer's own settings, and each part's (`Sender`, `Reconciler`, `LabelPdfs`) under the part's names. */
export interface LabelIssuerOptions
  extends Omit<SenderOptions, 'onLease'>,
    Omit<ReconcilerOptions, 'now'>,
    LabelPdfsOptions {
  now?: () => number;
  /** An identical request without an idempotency key within this window returns the first label. Default 24 h. */
  dedupeWindowMs?: number;
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
  /** How often pending attempts whose lease ran out are looked for (default every 2 s). */
  sweepEveryMs?: number;
  /** How often every unknown attempt is tried against the history again (default every minute). */
  reconcileEveryMs?: number;
  /**
   * How long an attempt's lease lasts without renewal (default 10 s): the instance holding it renews it every third
   * of that while its call is in flight, so an instance that dies is noticed within seconds by another one.
   */
  leaseMs?: number;
  /**
   * How many of the platform's recent attempts an unsettled attempt of ours may have after it (default 8: the
   * platform lists 10, less a margin for attempts made elsewhere for the store); see `SendWindow`.
   */
  recentReach?: number;
  /** How long a label waits for room in the store's send window before it is refused as in progress (30 s). */
  windowWaitMs?: number;
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
  private readonly leaseMs: number;
  private readonly recentReach: number;
  private readonly windowWaitMs: number;
  private readonly maxInFlight: number;
  private readonly sender: Sender;
  private readonly reconciler: Reconciler;
  private readonly pdfs: LabelPdfs;
  private readonly recovery: Recovery;
  private readonly inFlight = new Map<string, Promise<IssueOutcome>>();
  private recovered: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(options: LabelIssuerOptions) {
    this.ledger = options.ledger;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.dedupeWindowMs = options.dedupeWindowMs ?? 24 * 3_600_000;
    this.leaseMs = options.leaseMs ?? 10_000;
    this.recentReach = options.recentReach ?? 8;
    this.windowWaitMs = options.windowWaitMs ?? 30_000;
    this.maxInFlight = options.maxInFlight ?? 4;
    this.sender = new Sender({ ...options, onLease: (id) => this.recovery.holdLease(id) });
    this.reconciler = new Reconciler({ ...options, now: this.now });
    this.pdfs = new LabelPdfs(options);
    this.recovery = new Recovery({
      ledger: this.ledger,
      logger: this.logger,
      now: this.now,
      reconciler: this.reconciler,
      sharedLedger: options.sharedLedger ?? false,
      orphanAfterMs: options.orphanAfterMs ?? this.sender.timeoutMs + 30_000,
      sweepEveryMs: options.sweepEveryMs ?? 2_000,
      reconcileEveryMs: options.reconcileEveryMs ?? 60_000,
      leaseMs: this.leaseMs,
    });
  }

  /** Starts the background recovery (recovery.ts); labels wait for its first round, at most 15 s. */
  start(): Promise<void> {
    this.recovered = this.recovery.start();
    return this.recovered;
  }

  /** Issues the intended label once, whatever the concurrency, resends and crashes (see the class comment). */
  async issue(input: GenerateLabelInput, intent: LabelIntent = {}): Promise<IssueOutcome> {
    // Start-up reconciliation goes first while the crashed attempts are the platform's most recent; a platform that
    // does not answer holds new labels back at most 15 s.
    await Promise.race([this.recovered, sleep(15_000, undefined, { ref: false })]);
    const fp = fingerprint(input);
    for (let round = 0; round < 5; round++) {
      const known = await this.known(fp, intent);
      if (known) return known;
      const outcome = await this.begin(input, fp, intent);
      if (outcome !== 'again') return outcome;
    }
    return inProgress('An identical label request is in progress.');
  }

  /** What one attempt came to (waited for, replayed or reconciled; never sent again), or undefined if unknown. */
  async answer(attemptId: string): Promise<IssueOutcome | undefined> {
    const attempt = await this.ledger.get(attemptId);
    return attempt && this.resume(attempt);
  }

  /**
   * What the ledger already knows of this intended label: its attempt (replayed, awaited or reconciled), a conflict,
   * or undefined when it may be sent. An identical request held by another intent is waited for, never told.
   */
  private async known(fp: string, intent: LabelIntent): Promise<IssueOutcome | undefined> {
    const { ledger } = this;
    const { idempotencyKey, orderId } = intent;
    if (orderId !== undefined) {
      const held = await ledger.byOrderVolume(orderId, intent.volume ?? 1);
      if (held && held.fingerprint !== fp) return orderConflict(orderId, intent.volume ?? 1, held);
      if (held) return this.resume(held);
    }
    if (idempotencyKey) {
      const existing = await ledger.byKey(idempotencyKey);
      if (existing && existing.fingerprint !== fp) {
        return keyConflict();
      }
      if (existing && existing.state !== 'not_sent') return this.resume(existing);
    }
    const open = await ledger.openAttempt(fp);
    if (open) {
      // The same request is in the air or its outcome is unknown: never send it again on top.
      if (orderId === undefined) {
        const outcome = await this.resume(open);
        if (!idempotencyKey || outcome.kind === 'unknown' || outcome.kind === 'refused') return outcome;
        return undefined;
      }
      // Another order's (or volume's) identical box: wait for it, then send this one; never tell its outcome here.
      const settled = await this.resume(open);
      if (settled.kind === 'unknown') {
        return identicalRequestUnknown(open.id);
      }
      if (settled.kind === 'refused') return settled;
      return undefined;
    }
    if (!idempotencyKey && orderId === undefined) {
      const last = await ledger.lastCreated(fp, this.now() - this.dedupeWindowMs);
      if (last) return this.replay(last);
    }
    return undefined;
  }

  /**
   * Writes the attempt (holding a send slot, inside the store's send window) and sends it; 'again' when another call
   * got there first (look again), a refusal when the issuer is over its limits or the window stayed full.
   */
  private async begin(
    input: GenerateLabelInput,
    fp: string,
    intent: LabelIntent,
  ): Promise<IssueOutcome | 'again'> {
    const { orderId } = intent;
    // The row is written only once a send slot is held: at most `maxInFlight` attempts are ever pending here, and
    // the window (in the ledger) holds every instance sharing it to the same.
    await this.sender.acquire();
    let attempt: LedgerAttempt;
    try {
      attempt = await this.beginInWindow({
        fingerprint: fp,
        idempotencyKey: intent.idempotencyKey,
        request: canonicalRequest(input),
        orderId,
        volume: orderId === undefined ? undefined : (intent.volume ?? 1),
        issuedBy: intent.issuedBy,
        locale: intent.locale,
        recipient: input.recipient.nome,
        serviceCode: input.serviceCode,
        declaredValueCents: declaredValueCents(input.declaredItems),
        limits: intent.limits,
        createdSince:
          intent.idempotencyKey || orderId !== undefined ? undefined : this.now() - this.dedupeWindowMs,
      });
    } catch (error) {
      this.sender.release();
      // Another call took the key, the volume or the request, or created it while this one waited: look again.
      if (
        error instanceof IdempotencyConflictError ||
        error instanceof OpenAttemptConflictError ||
        error instanceof AlreadyCreatedError ||
        error instanceof OrderVolumeConflictError
      )
        return 'again';
      if (error instanceof AgentLimitError) return limitReached(error);
      if (error instanceof SendWindowError) {
        return inProgress(
          `The store's labels are busy (${error.message}); nothing was sent. Ask again in a minute with the same input.`,
        );
      }
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

  /** `ledger.begin` inside the send window, waiting (with backoff, up to `windowWaitMs`) while it is full. */
  private async beginInWindow(fields: Omit<BeginInput, 'window' | 'leaseUntil'>): Promise<LedgerAttempt> {
    const deadline = this.now() + this.windowWaitMs;
    for (let wait = 20; ; wait = Math.min(wait * 2, 1_000)) {
      const now = this.now();
      try {
        return await this.ledger.begin({
          ...fields,
          window: { maxInFlight: this.maxInFlight, recentReach: this.recentReach, now },
          leaseUntil: now + this.leaseMs,
        });
      } catch (error) {
        if (!(error instanceof SendWindowError) || this.now() + wait > deadline || this.closed) throw error;
      }
      await sleep(wait);
    }
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
        return unknownOutcome(attempt, 'binding_conflict');
      case 'lost': {
        // Right after the loss, so a dropped answer is usually told as created on the same call; the attempt keeps
        // its lease (and its place in the send window) until this first reconciliation ends.
        const settled = await this.reconciler.reconcileLost(sent.attempt).finally(sent.release);
        if (settled && settled.state !== 'unknown') return markReplayed(await this.resume(settled), false);
        this.reconciler.retryLater(attempt.id);
        return unknownOutcome(attempt, whyOf(settled ?? sent.attempt));
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
        return { kind: 'rejected', record: storedRecord(attempt), attemptId: attempt.id, replayed: true };
      case 'not_sent':
        return {
          kind: 'not_sent',
          attemptId: attempt.id,
          message: attempt.note ?? 'the request did not reach the platform',
        };
      case 'unknown': {
        const [settled] = await this.reconciler.reconcile([attempt]);
        if (settled && settled.state !== 'unknown') return markReplayed(await this.resume(settled));
        return unknownOutcome(attempt, whyOf(settled ?? attempt));
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
        return inProgress('An identical label request is in progress elsewhere; ask again in a minute.');
      }
      await sleep(wait);
    }
  }

  /** A created label asked for again: the same pre-posting, with its PDF when it can be had. */
  private async replay(attempt: LedgerAttempt): Promise<IssueOutcome> {
    const record = await this.pdfs.attach(storedRecord(attempt), 1);
    return { kind: 'created', record, attemptId: attempt.id, replayed: true };
  }

  /**
   * `diagnose_label_issue` on the platform, parsed with the shared schema; by `orderId`, with this BFF's own attempts
   * of the order from the ledger (the platform's carry no order, see `diagnoseOrder`).
   */
  diagnose(input: Omit<DiagnoseLabelIssueInput, 'instanceId'>): Promise<DiagnoseLabelIssueOutput> {
    const read = (query: Omit<DiagnoseLabelIssueInput, 'instanceId'>) => this.reconciler.diagnose(query);
    const { orderId } = input;
    if (orderId === undefined || input.supportCode !== undefined) return read(input);
    return diagnoseOrder(this.ledger, read, { ...input, orderId });
  }

  /** `get_label_pdf` on the platform, parsed with the shared schema. */
  labelPdf(prepostagemId: string): Promise<GetLabelPdfOutput> {
    return this.pdfs.get(prepostagemId);
  }

  /** Stops background reconciliation (the ledger stays as it is; the next start picks up). */
  close(): void {
    this.closed = true;
    this.reconciler.close();
    this.recovery.close();
  }
}
