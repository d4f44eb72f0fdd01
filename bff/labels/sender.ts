import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type GenerateLabelInput,
  type GenerateLabelOutput,
  GenerateLabelOutputSchema,
} from '../../shared/labels/label.ts';
import { type Logger, messageOf } from '../logger.ts';
import { isPlatformCallError, type PlatformPort } from '../upstream/platform-mcp.ts';
import { BindingConflictError, type LedgerAttempt, TransitionError } from './ledger.ts';
import type { LedgerStore } from './ledger-store.ts';

/** What one `generate_label` call came to, as the ledger now records it. */
export type SendResult =
  | { kind: 'created'; record: GenerateLabelOutput }
  | { kind: 'rejected'; record: GenerateLabelOutput }
  /** Never reached the tool: nothing was created; the same request may go again. */
  | { kind: 'not_sent' }
  /**
   * Sent, answer lost (or unreadable): the attempt is `unknown`, to reconcile. It still holds its lease, so the send
   * window keeps it within the platform's reach; `release` ends the lease once the first reconciliation is done.
   */
  | { kind: 'lost'; attempt: LedgerAttempt; release: () => Promise<void> }
  /** The platform answered a pre-posting the ledger binds to another attempt: `unknown`, for a person. */
  | { kind: 'binding_conflict' };

/** What a call came to before the lease is handed on: a lost answer names the attempt it left unknown. */
type CallResult = Exclude<SendResult, { kind: 'lost' }> | { kind: 'lost'; attempt: LedgerAttempt };

export interface SenderOptions {
  ledger: LedgerStore;
  platform: PlatformPort;
  logger: Logger;
  /** How long generate_label may take upstream before its outcome is unknown (default 60 s). */
  timeoutMs?: number;
  /**
   * Most generate_label calls in flight at once. A crash or a lost answer can only be reconciled while the attempt is
   * among the platform's 10 most recent (spec 4.4.5), so fewer in flight keeps every one of them reachable.
   */
  maxInFlight?: number;
  /** Keeps an attempt's lease alive while its call is in flight; the returned function ends it. */
  onLease?: (attemptId: string) => () => Promise<void>;
}

/**
 * Sends written attempts to the platform's `generate_label`, at most `maxInFlight` at once, and settles each from
 * its answer: `created` or `rejected` when the answer says so; `not_sent` when the tool cannot have run; otherwise
 * `unknown` (a lost answer is never taken for a refusal to resend on).
 */
export class Sender {
  readonly timeoutMs: number;
  private readonly ledger: LedgerStore;
  private readonly platform: PlatformPort;
  private readonly logger: Logger;
  private readonly maxInFlight: number;
  private readonly onLease: (attemptId: string) => () => Promise<void>;
  private sending = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(options: SenderOptions) {
    this.ledger = options.ledger;
    this.platform = options.platform;
    this.logger = options.logger;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxInFlight = options.maxInFlight ?? 4;
    this.onLease = options.onLease ?? (() => async () => undefined);
  }

  /** Waits for a send slot. The attempt is written only once one is held, so at most `maxInFlight` are pending. */
  async acquire(): Promise<void> {
    if (this.sending < this.maxInFlight) {
      this.sending += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Gives a slot back (to the next waiter, if any). */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.sending -= 1;
  }

  /** Sends one pending attempt; the caller holds a send slot, released here once the platform call ends. */
  async send(attempt: LedgerAttempt, input: GenerateLabelInput): Promise<SendResult> {
    const release = this.onLease(attempt.id);
    const result = await this.call(attempt, input).catch(async (error: unknown) => {
      await release();
      throw error;
    });
    if (result.kind === 'lost') return { ...result, release };
    await release();
    return result;
  }

  private async call(attempt: LedgerAttempt, input: GenerateLabelInput): Promise<CallResult> {
    let result: CallToolResult;
    try {
      const { instanceId: _ignored, ...args } = input;
      result = await this.platform.call('generate_label', args, this.timeoutMs);
    } catch (error) {
      return this.failed(attempt, error);
    } finally {
      this.release();
    }
    const parsed = GenerateLabelOutputSchema.safeParse(result.structuredContent ?? {});
    if (!parsed.success) {
      // The tool ran and answered something we cannot read: as good as a lost answer.
      return this.failed(attempt, new Error('generate_label answered a record that does not parse'));
    }
    const record = parsed.data;
    if (!record.prepostagemId && !record.reason) {
      // A tool error (or an answer) that says neither what was created nor why not: the tool may have created the
      // pre-posting before failing, so this is a lost answer, reconciled — never a final "rejected" to resend on.
      return this.failed(attempt, new Error('generate_label answered neither a pre-posting nor a reason'));
    }
    if (!record.prepostagemId) return this.rejected(attempt, record);
    return this.created(attempt, record);
  }

  private async rejected(attempt: LedgerAttempt, record: GenerateLabelOutput): Promise<CallResult> {
    const reason = record.reason ?? 'platform_error';
    const settlement = {
      state: 'rejected' as const,
      settledBy: 'answer' as const,
      reason,
      status: record.status,
      supportCode: record.supportCode,
    };
    try {
      await this.ledger.settle(attempt.id, settlement);
    } catch (error) {
      // A supportCode held elsewhere is not copied: it is evidence, not a binding this attempt needs.
      if (!(error instanceof BindingConflictError)) throw error;
      await this.ledger.settle(attempt.id, { ...settlement, supportCode: undefined });
    }
    return { kind: 'rejected', record: { ...record, reason } };
  }

  private async created(attempt: LedgerAttempt, record: GenerateLabelOutput): Promise<CallResult> {
    try {
      await this.ledger.settle(attempt.id, {
        state: 'created',
        settledBy: 'answer',
        prepostagemId: record.prepostagemId,
        trackingCode: record.trackingCode,
        reason: record.reason,
        status: record.status,
        supportCode: record.supportCode,
      });
      return { kind: 'created', record };
    } catch (error) {
      if (error instanceof TransitionError) {
        // Settled meanwhile from the platform's history (a sweep took this slow call for a dead one): the same
        // pre-posting is this answer's; anything else is an error for a person.
        const current = await this.ledger.get(attempt.id);
        if (current?.state === 'created' && current.prepostagemId === record.prepostagemId)
          return { kind: 'created', record };
        throw error;
      }
      if (!(error instanceof BindingConflictError)) throw error;
    }
    // Only a person's earlier decision can hold this pre-posting: never tell it to two orders.
    const note = `the platform answered ${record.prepostagemId}, which the ledger already binds to another attempt`;
    await this.ledger.settle(attempt.id, {
      state: 'unknown',
      settledBy: 'answer',
      unknownWhy: 'binding_conflict',
      note,
    });
    this.logger.error({ attemptId: attempt.id }, `labels: binding_conflict: ${note}; a person must check`);
    return { kind: 'binding_conflict' };
  }

  /** The call failed: `not_sent` when the tool cannot have run; otherwise `unknown`, for the issuer to reconcile. */
  private async failed(attempt: LedgerAttempt, error: unknown): Promise<CallResult> {
    const message = messageOf(error);
    if (isPlatformCallError(error) && error.failure === 'not_sent') {
      await this.ledger.settle(attempt.id, { state: 'not_sent', settledBy: 'answer', note: message });
      this.logger.warn(
        { attemptId: attempt.id, error: message },
        'labels: generate_label did not reach the platform',
      );
      return { kind: 'not_sent' };
    }
    const unknown = await this.ledger.settle(attempt.id, {
      state: 'unknown',
      settledBy: 'answer',
      note: `answer lost: ${message}`,
    });
    this.logger.error(
      { attemptId: attempt.id, error: message },
      'labels: generate_label answer lost; reconciling with the platform history',
    );
    return { kind: 'lost', attempt: unknown };
  }
}
