import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Attempt,
  type DiagnoseLabelIssueInput,
  type DiagnoseLabelIssueOutput,
  DiagnoseLabelIssueOutputSchema,
} from '../../shared/labels/diagnosis.ts';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { MAX_LISTED_ATTEMPTS } from '../../shared/platform-limits.ts';
import { type Logger, messageOf } from '../logger.ts';
import type { PlatformPort } from '../upstream/platform-mcp.ts';
import { fingerprint } from './fingerprint.ts';
import { BindingConflictError, type LedgerAttempt, TransitionError, type UnknownWhy } from './ledger.ts';
import type { LedgerStore } from './ledger-store.ts';

/** How far the platform's clock may be from ours when its history is compared with an attempt (by default). */
export const CLOCK_SKEW_MS = 5_000;

export interface ReconcilerOptions {
  ledger: LedgerStore;
  platform: PlatformPort;
  logger: Logger;
  now: () => number;
  /** Tolerated clock difference between the BFF and the platform when matching history entries. Default 5 s. */
  clockSkewMs?: number;
  /** After an unknown outcome that diagnosis could not settle at once, try again after these delays. */
  retryReconcileMs?: number[];
  /**
   * A lost answer whose history could not be read (a 502, a timeout of `diagnose_label_issue`) is read again after
   * these delays, while it keeps its place in the send window (default 500 ms, 1 s, 2 s).
   */
  lostAnswerRereadMs?: number[];
}

/** What an unknown outcome tells the agent and the operator, by why it is still unknown. */
export const UNKNOWN_ADVICE: Record<UnknownWhy, string> = {
  no_match:
    'no platform attempt with this exact request was found among the recent ones; it may appear later, and absence proves nothing',
  ambiguous: 'more than one unclaimed platform attempt carries this exact request; none can be chosen safely',
  history_overflow: "the platform's list of recent attempts no longer reaches back to this one",
  diagnosis_failed: "the platform's history could not be read",
  binding_conflict: 'the platform answered a pre-posting the ledger already binds to another attempt',
};

/** `diagnose_label_issue` on the platform, parsed with the shared schema. Throws when it cannot be read. */
export async function diagnose(
  platform: PlatformPort,
  input: Omit<DiagnoseLabelIssueInput, 'instanceId'>,
): Promise<DiagnoseLabelIssueOutput> {
  const result = await platform.read('diagnose_label_issue', { ...input });
  const structured = result.structuredContent ?? { attempts: [] };
  // spec 2.7: when the query is not authorized or fails, the answer may carry only `reason` (and `actionUrl`).
  const parsed = DiagnoseLabelIssueOutputSchema.safeParse(
    'attempts' in structured ? structured : { ...structured, attempts: [] },
  );
  if (!parsed.success) throw new Error('diagnose_label_issue answered an output that does not parse');
  return parsed.data;
}

/** Why an attempt is unknown, from its column (an attempt never tried against the history reads as `no_match`). */
export function whyOf(attempt: LedgerAttempt): UnknownWhy {
  return attempt.unknownWhy ?? 'no_match';
}

/** The fingerprint of the request a history entry says was sent, or undefined when its evidence is not a request. */
export function evidenceFingerprint(entry: Attempt): string | undefined {
  const parsed = GenerateLabelInputSchema.safeParse(entry.evidence.request);
  return parsed.success ? fingerprint(parsed.data) : undefined;
}

/**
 * spec 3.4: settles unknown attempts from the platform's issuance history (`diagnose_label_issue`), one
 * reconciliation at a time. An attempt claims a history entry only when the entry's evidence is the whole request
 * (same fingerprint), it falls within the attempt's time, nothing in the ledger holds it, and it is the only such
 * entry; otherwise it stays unknown and its `unknown_why` says why. The ledger's UNIQUE constraints make a claim
 * exclusive even across processes.
 */
export class Reconciler {
  private readonly options: Required<ReconcilerOptions>;
  private running: Promise<unknown> = Promise.resolve();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(options: ReconcilerOptions) {
    this.options = {
      clockSkewMs: CLOCK_SKEW_MS,
      retryReconcileMs: [2_000, 10_000, 60_000],
      lostAnswerRereadMs: [500, 1_000, 2_000],
      ...options,
    };
  }

  /** Settles what it can of `attempts`; answers each attempt as it now stands (undefined if unknown to the ledger). */
  reconcile(attempts: LedgerAttempt[]): Promise<(LedgerAttempt | undefined)[]> {
    const run = this.running.then(() => this.reconcileNow(attempts));
    this.running = run.catch(() => undefined);
    return run;
  }

  /**
   * The first reconciliation of a lost answer, while its lease keeps it within the platform's reach. A history that
   * could not be read is read again (`lostAnswerRereadMs`): once the lease ends, newer labels may push the attempt out
   * of the platform's 10 most recent, and it would stay unknown for good (bench figure 9 before this: 1 lost answer of
   * 59 left `history_overflow`, 10 newer attempts sent within 6 s of it while its reads waited or failed).
   */
  async reconcileLost(attempt: LedgerAttempt): Promise<LedgerAttempt | undefined> {
    let [settled] = await this.reconcile([attempt]);
    for (const delay of this.options.lostAnswerRereadMs) {
      if (settled?.state !== 'unknown' || settled.unknownWhy !== 'diagnosis_failed' || this.closed) break;
      await sleep(delay);
      [settled] = await this.reconcile([settled]);
    }
    return settled;
  }

  /** `diagnose_label_issue` on the platform, parsed with the shared schema. Throws when it cannot be read. */
  diagnose(input: Omit<DiagnoseLabelIssueInput, 'instanceId'>): Promise<DiagnoseLabelIssueOutput> {
    return diagnose(this.options.platform, input);
  }

  /** Tries an attempt that stayed unknown again after the configured delays (in the background). */
  retryLater(id: string, step = 0): void {
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

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async reconcileNow(attempts: LedgerAttempt[]): Promise<(LedgerAttempt | undefined)[]> {
    const { ledger, now, clockSkewMs } = this.options;
    const current = await Promise.all(attempts.map((attempt) => ledger.get(attempt.id)));
    const open = current.filter((attempt): attempt is LedgerAttempt => attempt?.state === 'unknown');
    if (open.length === 0) return current;
    const history = await this.history(open);
    if (!history) return Promise.all(attempts.map((attempt) => ledger.get(attempt.id)));
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
        await ledger.explain(attempt.id, why, UNKNOWN_ADVICE[why]);
        continue;
      }
      if (await this.claim(attempt, match)) claimed.add(match.supportCode);
    }
    return Promise.all(attempts.map((attempt) => ledger.get(attempt.id)));
  }

  /** The platform's recent attempts, or undefined (and every open attempt says why) when they cannot be read. */
  private async history(open: LedgerAttempt[]): Promise<Attempt[] | undefined> {
    try {
      const diagnosis = await this.diagnose({ source: 'mcp' });
      if (diagnosis.reason && diagnosis.attempts.length === 0) {
        throw new Error(`diagnose_label_issue answered reason ${diagnosis.reason}`);
      }
      return diagnosis.attempts;
    } catch (error) {
      const message = messageOf(error);
      this.options.logger.warn({ error: message }, 'labels: diagnosis failed; attempts stay unknown');
      for (const attempt of open) {
        await this.options.ledger.explain(
          attempt.id,
          'diagnosis_failed',
          `${UNKNOWN_ADVICE.diagnosis_failed}: ${message}`,
        );
      }
      return undefined;
    }
  }

  /** Settles the attempt from its one matching entry; false when another process settled or bound it first. */
  private async claim(attempt: LedgerAttempt, match: Attempt): Promise<boolean> {
    const { ledger, logger } = this.options;
    try {
      await ledger.settle(attempt.id, {
        state: match.outcome === 'created' && match.prepostagemId ? 'created' : 'rejected',
        settledBy: 'diagnosis',
        prepostagemId: match.prepostagemId,
        trackingCode: match.trackingCode,
        reason: match.reason ?? (match.outcome === 'created' ? undefined : match.outcome),
        supportCode: match.supportCode,
      });
    } catch (error) {
      // Another process (the operator's tool, another instance) settled or bound it first: the storage decided.
      if (error instanceof TransitionError) return false;
      if (!(error instanceof BindingConflictError)) throw error;
      await ledger.explain(
        attempt.id,
        'no_match',
        'the matching platform attempt is already bound to another attempt',
      );
      return false;
    }
    logger.info(
      { attemptId: attempt.id, supportCode: match.supportCode, outcome: match.outcome },
      'labels: unknown attempt settled by diagnosis (whole request matched)',
    );
    return true;
  }
}
