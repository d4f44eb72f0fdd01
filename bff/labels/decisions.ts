import { SERVER_ERROR_STATUS, type ServerErrorCode } from '../../shared/errors.ts';
import type { Attempt } from '../../shared/labels/diagnosis.ts';
import { MAX_LISTED_ATTEMPTS } from '../../shared/platform-limits.ts';
import { cleanTrackingCode, isS10 } from '../../shared/s10.ts';
import type { PlatformPort } from '../upstream/platform-mcp.ts';
import { BindingConflictError, type LedgerAttempt, TransitionError } from './ledger.ts';
import type { LedgerStore } from './ledger-store.ts';
import { CLOCK_SKEW_MS, diagnose, evidenceFingerprint } from './reconciler.ts';

/** A pre-posting id as the platform writes them: letters and digits only (`PP2275353189`), 4 to 40 of them. */
export const PREPOSTAGEM_ID = /^[A-Z0-9]{4,40}$/;

/** Why an operator's decision was refused: codes of the one error table (shared/errors.ts), with their statuses. */
export type DecisionRefusalCode = Extract<
  ServerErrorCode,
  | 'attempt_not_found'
  | 'not_unknown'
  | 'malformed_prepostagem_id'
  | 'malformed_tracking_code'
  | 'not_confirmed'
  | 'other_request'
  | 'bound_elsewhere'
  | 'created_in_history'
  | 'history_too_short'
  | 'history_unavailable'
  | 'reason_required'
>;

export class DecisionRefused extends Error {
  override readonly name = 'DecisionRefused';
  readonly code: DecisionRefusalCode;
  readonly status: (typeof SERVER_ERROR_STATUS)[DecisionRefusalCode];

  constructor(code: DecisionRefusalCode, message: string) {
    super(message);
    this.code = code;
    this.status = SERVER_ERROR_STATUS[code];
  }
}

/** What the operator decides about an unknown attempt. */
export type Decision = { created: string; trackingCode?: string | undefined } | { notCreated: true };

/** A platform attempt beside ours: whether its evidence is this attempt's request, and whether another holds it. */
export interface HistoryEntry {
  attempt: Attempt;
  sameRequest: boolean;
  boundElsewhere: boolean;
}

/**
 * The operator's decisions on attempts whose outcome nobody knows (the desk's "resolve", `npm run ledger -- resolve`),
 * checked before the ledger takes them (docs/desk.md, "Decisions are checked"): a pre-posting is bound to
 * an attempt only when it is well formed, the platform's history lists it for this store as created, its evidence is
 * this attempt's whole request, and nothing else holds it; "not created" only while the history shows no unbound
 * pre-posting of this very request. A decision the platform cannot confirm needs a written reason (`force`), kept in
 * the ledger's note and shown by `show` and the desk. Force is for a history that no longer lists the pre-posting (or
 * cannot be read): a pre-posting the readable history lists for another request, or as not created, is refused even
 * then; and a tracking code given by hand must be a well-formed S10 code.
 */
export class OperatorDecisions {
  private readonly ledger: LedgerStore;
  private readonly platform: PlatformPort;

  constructor(options: { ledger: LedgerStore; platform: PlatformPort }) {
    this.ledger = options.ledger;
    this.platform = options.platform;
  }

  /** The attempt beside the platform's recent attempts (at most 10, spec 4.4.5), for a person to compare. */
  async evidence(attemptId: string): Promise<{ attempt: LedgerAttempt; history: HistoryEntry[] }> {
    const attempt = await this.mustGet(attemptId);
    return { attempt, history: await this.history(attempt) };
  }

  /** Settles an unknown attempt as the operator decided, or throws `DecisionRefused` and changes nothing. */
  async resolve(
    attemptId: string,
    decision: Decision,
    options: { by: string; force?: { reason: string } | undefined },
  ): Promise<LedgerAttempt> {
    const attempt = await this.mustGet(attemptId);
    if (attempt.state !== 'unknown') {
      throw new DecisionRefused(
        'not_unknown',
        `attempt ${attempt.id} is ${attempt.state}; only an unknown outcome is decided by a person`,
      );
    }
    const reason = options.force?.reason.trim();
    if (options.force && (!reason || reason.length < 10)) {
      throw new DecisionRefused(
        'reason_required',
        'a forced decision needs a written reason of at least 10 characters (what you checked, e.g. the carrier panel)',
      );
    }
    const note = `resolved by ${options.by}${reason ? ` (forced: ${reason})` : ''}`;
    if ('notCreated' in decision) {
      // "Nothing was created" lets the request be sent again: refused while the history shows a pre-posting of this
      // very request that no attempt holds (it may be this one's), unless a person checked and says why.
      const history = reason ? [] : await this.history(attempt);
      const created = history.find(
        (entry) => entry.sameRequest && entry.attempt.outcome === 'created' && !entry.boundElsewhere,
      );
      // A full list whose oldest entry is younger than the attempt no longer shows what became of it.
      const oldest = Math.min(...history.map((entry) => Date.parse(entry.attempt.createdAt)));
      if (!created && history.length >= MAX_LISTED_ATTEMPTS && oldest > attempt.createdAt - CLOCK_SKEW_MS) {
        throw new DecisionRefused(
          'history_too_short',
          "the platform's recent history no longer reaches back to this attempt, so it cannot show whether it was created: check the carrier's panel, then decide with a written reason (force)",
        );
      }
      if (created) {
        throw new DecisionRefused(
          'created_in_history',
          `the platform's history lists ${created.attempt.prepostagemId ?? 'a pre-posting'} as created for this very request, and no attempt holds it: it may be this attempt's. Decide it created with that id, or not created with a written reason (force) after checking the carrier's panel`,
        );
      }
      return this.settle(attempt.id, { state: 'not_sent', settledBy: 'operator', note });
    }
    const prepostagemId = decision.created.trim().toUpperCase();
    if (!PREPOSTAGEM_ID.test(prepostagemId)) {
      throw new DecisionRefused(
        'malformed_prepostagem_id',
        'a pre-posting id is 4 to 40 letters and digits, e.g. PP2275353189',
      );
    }
    const trackingCode = decision.trackingCode?.trim() ? cleanTrackingCode(decision.trackingCode) : undefined;
    if (trackingCode !== undefined && !isS10(trackingCode)) {
      throw new DecisionRefused(
        'malformed_tracking_code',
        'a tracking code is an S10 code: 2 letters, 9 digits (the last a check digit) and 2 letters, e.g. DG049186226BR',
      );
    }
    if (await this.ledger.isBound({ prepostagemId })) {
      throw new DecisionRefused('bound_elsewhere', `${prepostagemId} is already bound to another attempt`);
    }
    const entry = reason
      ? await this.notContradicted(attempt, prepostagemId)
      : await this.confirmed(attempt, prepostagemId);
    return this.settle(attempt.id, {
      state: 'created',
      settledBy: 'operator',
      prepostagemId,
      trackingCode: entry?.attempt.trackingCode ?? trackingCode,
      supportCode: entry?.attempt.supportCode,
      note,
    });
  }

  /** The history entry that proves the pre-posting is this attempt's, or a refusal saying what is missing. */
  private async confirmed(
    attempt: LedgerAttempt,
    prepostagemId: string,
    read?: HistoryEntry[],
  ): Promise<HistoryEntry> {
    const history = read ?? (await this.history(attempt));
    const entry = history.find((candidate) => candidate.attempt.prepostagemId === prepostagemId);
    if (entry?.attempt.outcome !== 'created') {
      throw new DecisionRefused(
        'not_confirmed',
        `the platform's recent history does not list ${prepostagemId} as created for this store; check the id, or decide with a written reason (force) after checking the carrier's panel`,
      );
    }
    if (!entry.sameRequest) {
      throw new DecisionRefused(
        'other_request',
        `${prepostagemId} was created for another request (another recipient, address, parcel or service): it is not this attempt's`,
      );
    }
    if (entry.boundElsewhere) {
      throw new DecisionRefused('bound_elsewhere', `${prepostagemId} is already bound to another attempt`);
    }
    return entry;
  }

  /**
   * A forced decision's check: the history, when it can be read, must not list this pre-posting as anything but this
   * attempt's created label. Its entry when it does list it so (nothing to force, then); undefined when it does not
   * list it, or cannot be read.
   */
  private async notContradicted(
    attempt: LedgerAttempt,
    prepostagemId: string,
  ): Promise<HistoryEntry | undefined> {
    const history = await this.history(attempt).catch((error: unknown) => {
      if (error instanceof DecisionRefused) return [];
      throw error;
    });
    const entry = history.find((candidate) => candidate.attempt.prepostagemId === prepostagemId);
    return entry && this.confirmed(attempt, prepostagemId, history);
  }

  private async history(attempt: LedgerAttempt): Promise<HistoryEntry[]> {
    let attempts: Attempt[];
    try {
      attempts = (await diagnose(this.platform, { source: 'mcp' })).attempts;
    } catch {
      throw new DecisionRefused(
        'history_unavailable',
        "the platform's history could not be read now; try again in a minute",
      );
    }
    return Promise.all(
      attempts.map(async (entry) => ({
        attempt: entry,
        sameRequest: evidenceFingerprint(entry) === attempt.fingerprint,
        boundElsewhere: await this.ledger.isBound({
          supportCode: entry.supportCode,
          prepostagemId: entry.prepostagemId,
        }),
      })),
    );
  }

  private async settle(id: string, settlement: Parameters<LedgerStore['settle']>[1]): Promise<LedgerAttempt> {
    try {
      return await this.ledger.settle(id, settlement);
    } catch (error) {
      if (error instanceof BindingConflictError) {
        throw new DecisionRefused('bound_elsewhere', 'that pre-posting is already bound to another attempt');
      }
      if (error instanceof TransitionError) {
        throw new DecisionRefused(
          'not_unknown',
          'the attempt was settled meanwhile (by the history or another person)',
        );
      }
      throw error;
    }
  }

  private async mustGet(id: string): Promise<LedgerAttempt> {
    const attempt = await this.ledger.get(id);
    if (!attempt) throw new DecisionRefused('attempt_not_found', `no attempt ${id}`);
    return attempt;
  }
}
