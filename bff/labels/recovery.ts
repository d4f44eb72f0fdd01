import { type Logger, messageOf } from '../logger.ts';
import type { LedgerStore } from './ledger-store.ts';
import type { Reconciler } from './reconciler.ts';

export interface RecoveryOptions {
  ledger: LedgerStore;
  logger: Logger;
  now: () => number;
  reconciler: Reconciler;
  /** Several instances share the ledger: start-up takes only orphans (see `LabelIssuerOptions.sharedLedger`). */
  sharedLedger: boolean;
  orphanAfterMs: number;
  sweepEveryMs: number;
  reconcileEveryMs: number;
  leaseMs: number;
}

/**
 * The issuer's background recovery (issuer.ts): attempts a stopped call or instance left `pending` become `unknown`
 * and are reconciled, unknown attempts are tried against the platform's history again, and the leases that tell a
 * live call's attempt from a dead one's are kept alive while a call is in flight.
 */
export class Recovery {
  private readonly ledger: LedgerStore;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly reconciler: Reconciler;
  private readonly sharedLedger: boolean;
  private readonly orphanAfterMs: number;
  private readonly sweepEveryMs: number;
  private readonly reconcileEveryMs: number;
  private readonly leaseMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(options: RecoveryOptions) {
    this.ledger = options.ledger;
    this.logger = options.logger;
    this.now = options.now;
    this.reconciler = options.reconciler;
    this.sharedLedger = options.sharedLedger;
    this.orphanAfterMs = options.orphanAfterMs;
    this.sweepEveryMs = options.sweepEveryMs;
    this.reconcileEveryMs = options.reconcileEveryMs;
    this.leaseMs = options.leaseMs;
  }

  /**
   * At start-up: attempts left `pending` by a process that died mid-call become `unknown` and are reconciled in the
   * background, before any new label is sent (so they are still among the platform's recent attempts). Then, while
   * this process runs: every `sweepEveryMs`, pending attempts whose lease ran out (another instance died) are taken
   * and reconciled at once; every `reconcileEveryMs`, every unknown attempt is tried against the history again.
   * Resolves when the start-up round is done.
   */
  start(): Promise<void> {
    const sweep = setInterval(() => void this.recoverOrphans(false), this.sweepEveryMs);
    const reconcile = setInterval(() => void this.reconcileUnknown(), this.reconcileEveryMs);
    for (const timer of [sweep, reconcile]) {
      timer.unref();
      this.timers.add(timer);
    }
    // One instance: every pending attempt at start is a previous run's. Shared: only the orphans.
    return this.recoverOrphans(!this.sharedLedger).then(() => this.reconcileUnknown());
  }

  /** Orphaned pending attempts become unknown and are reconciled while they hold the send window. */
  private async recoverOrphans(all: boolean): Promise<void> {
    try {
      const now = this.now();
      const before = all ? now + 1 : now - this.orphanAfterMs;
      const recovered = await this.ledger.recoverPending(before, now + 3 * this.leaseMs);
      if (recovered.length === 0) return;
      this.logger.warn(
        { attempts: recovered.map((a) => a.id) },
        'labels: attempts left pending by a stopped call or instance are unknown; reconciling',
      );
      await this.reconciler.reconcile(recovered);
      await Promise.all(recovered.map((attempt) => this.ledger.lease(attempt.id, null)));
    } catch (error) {
      this.logger.error({ error: messageOf(error) }, 'labels: recovering orphaned attempts failed');
    }
  }

  /** Every unknown attempt (the 50 most recent) tried against the platform's history again. */
  private async reconcileUnknown(): Promise<void> {
    try {
      const unknown = await this.ledger.list({ state: 'unknown', limit: 50 });
      if (unknown.length > 0) await this.reconciler.reconcile(unknown);
    } catch (error) {
      this.logger.error({ error: messageOf(error) }, 'labels: reconciliation of unknown attempts failed');
    }
  }

  /**
   * Keeps an attempt's lease alive (renewed every third of `leaseMs`) until the returned function is called; then
   * the lease ends. A renewal that finds the attempt settled stops on its own.
   */
  holdLease(id: string): () => Promise<void> {
    const timer = setInterval(() => {
      void this.ledger.lease(id, this.now() + this.leaseMs).then(
        (open) => {
          if (!open) clearInterval(timer);
        },
        () => undefined,
      );
    }, this.leaseMs / 3);
    timer.unref();
    this.timers.add(timer);
    return async () => {
      clearInterval(timer);
      this.timers.delete(timer);
      await this.ledger.lease(id, null).catch(() => false);
    };
  }

  /** Stops the sweeps and the lease renewals. */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
