import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { MigratedStore, type Migration } from '../../shared/sql/migrate.ts';
import { type CamelCased, flag, fromRow } from '../../shared/sql/rows.ts';
import { isUniqueViolation, type Row, type Sql } from '../../shared/sql/sql.ts';

export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'expired'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

export const APPROVAL_MIGRATIONS: readonly Migration[] = [
  {
    id: '201-label-approvals',
    sql: `
      CREATE TABLE label_approvals (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        intent TEXT NOT NULL,
        request TEXT NOT NULL,
        issued_by TEXT NOT NULL,
        quoted_price_cents BIGINT,
        declared_value_cents BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        decided_at BIGINT,
        attempt_id TEXT,
        expiry_reported INTEGER NOT NULL DEFAULT 0
      );
      CREATE UNIQUE INDEX label_approvals_one_pending ON label_approvals (intent) WHERE state = 'pending';
      CREATE INDEX label_approvals_by_intent ON label_approvals (intent, created_at);
      CREATE INDEX label_approvals_by_state ON label_approvals (state, created_at)
    `,
  },
  {
    // One pending approval per agent and intended label (a second agent asking for the same order and volume gets its
    // own, which reaches the desk); the agent's policy as it asked, and the merchant's confirmation of a label over it.
    id: '202-label-approvals-per-agent',
    sql: `
      DROP INDEX label_approvals_one_pending;
      CREATE UNIQUE INDEX label_approvals_one_pending_per_agent ON label_approvals (intent, issued_by)
        WHERE state = 'pending';
      ALTER TABLE label_approvals ADD COLUMN policy TEXT;
      ALTER TABLE label_approvals ADD COLUMN over_limit INTEGER NOT NULL DEFAULT 0
    `,
  },
];

/** A label an agent asked for that waits for (or got) the merchant's decision: a row as stored. */
const RowSchema = z.object({
  id: z.string(),
  state: z.enum(APPROVAL_STATES),
  /**
   * Which intended label it is for, as the ledger knows it: `key:<idempotencyKey>`, `order:<orderId>#<volume>`, or
   * `request:<fingerprint>` (neither given).
   */
  intent: z.string(),
  /** The agent's request as it would be sent (JSON: the platform's fields, mapped service) with its intent fields. */
  request: z.string(),
  issued_by: z.string(),
  /**
   * What the label costs the store, in centavos: the platform's price for this package and destination as the
   * carrier charges it (quoted with no cart value, so no free-shipping rule of the shopper's applies); null when the
   * quote had no price for the service.
   */
  quoted_price_cents: z.nullable(z.number()),
  declared_value_cents: z.number(),
  created_at: z.number(),
  expires_at: z.number(),
  decided_at: z.nullable(z.number()),
  /** The ledger attempt the approved label was issued as. */
  attempt_id: z.nullable(z.string()),
  /** Whether the agent was already told it expired (the next call asks the merchant again). */
  expiry_reported: flag,
  /** The agent's policy when it asked (JSON), whose daily limits the card shows and the approval counts against. */
  policy: z.nullable(z.string()),
  /** The merchant approved it over the agent's daily limits, confirming so explicitly. */
  over_limit: flag,
});
export type Approval = CamelCased<z.output<typeof RowSchema>>;

function toApproval(row: Row | undefined): Approval | undefined {
  return row ? fromRow(RowSchema, row) : undefined;
}

/**
 * The merchant's approvals of labels, in the ledger's database (node:sqlite or PostgreSQL, shared by every
 * instance): at most one pending approval per agent and intended label (a partial unique index), and a decision
 * taken once — of two approvals of one request, from one instance or two, exactly one changes it.
 */
export class ApprovalStore extends MigratedStore {
  constructor(sql: Sql, options: { now?: () => number } = {}) {
    super(sql, APPROVAL_MIGRATIONS, options.now);
  }

  /**
   * Asks the merchant: a new pending approval for the intended label, or the pending one this agent already has
   * (asking again, or through two instances at once; another agent's is never handed out) — or undefined, sending
   * nothing, when `issuedBy` already has `maxPending` waiting. Counted and inserted under one lock per caller, so calls
   * at once never pass the cap.
   */
  async request(fields: {
    intent: string;
    request: string;
    issuedBy: string;
    /** The agent's policy as it asks (JSON), kept for the card's limits and the approval's count. */
    policy?: string | undefined;
    quotedPriceCents?: number | undefined;
    declaredValueCents: number;
    ttlMs: number;
    maxPending: number;
  }): Promise<Approval | undefined> {
    const now = this.now();
    await this.expire();
    const id = randomUUID();
    try {
      const asked = await this.sql.transaction(async (tx) => {
        await tx.lock(`label-approvals:${fields.issuedBy}`);
        const pending = await tx.one(
          `SELECT id FROM label_approvals WHERE intent = ? AND issued_by = ? AND state = 'pending'`,
          [fields.intent, fields.issuedBy],
        );
        if (pending) return String(pending.id);
        const row = await tx.one(
          `SELECT COUNT(*) AS n FROM label_approvals WHERE state = 'pending' AND issued_by = ?`,
          [fields.issuedBy],
        );
        if (Number(row?.n ?? 0) >= fields.maxPending) return undefined;
        await tx.run(
          `INSERT INTO label_approvals (id, state, intent, request, issued_by, policy, quoted_price_cents,
             declared_value_cents, created_at, expires_at) VALUES (?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            id,
            fields.intent,
            fields.request,
            fields.issuedBy,
            fields.policy ?? null,
            fields.quotedPriceCents ?? null,
            fields.declaredValueCents,
            now,
            now + fields.ttlMs,
          ],
        );
        return id;
      });
      return asked === undefined ? undefined : ((await this.get(asked)) as Approval);
    } catch (error) {
      // The same agent's approval of the same label was inserted at once through another instance: that one waits.
      if (!isUniqueViolation(error, 'intent')) throw error;
      const pending = await this.latest(fields.intent, fields.issuedBy);
      if (pending) return pending;
      throw error;
    }
  }

  /**
   * The most recent approval of an intended label (expired ones marked so first), or of the one that `issuedBy` asked
   * for: an agent's approval is its own, never another caller's.
   */
  async latest(intent: string, issuedBy?: string): Promise<Approval | undefined> {
    await this.expire();
    return toApproval(
      await this.sql.one(
        `SELECT * FROM label_approvals WHERE intent = ? ${issuedBy === undefined ? '' : 'AND issued_by = ?'}
         ORDER BY created_at DESC, id LIMIT 1`,
        issuedBy === undefined ? [intent] : [intent, issuedBy],
      ),
    );
  }

  async get(id: string): Promise<Approval | undefined> {
    await this.expire();
    return toApproval(await this.sql.one('SELECT * FROM label_approvals WHERE id = ?', [id]));
  }

  /**
   * The merchant's decision on a pending approval: `decided` is true for the one call that changed it (so only that
   * call issues the label); otherwise the approval as it stands (already decided, or expired).
   */
  async decide(
    id: string,
    state: 'approved' | 'rejected',
    options: { overLimit?: boolean } = {},
  ): Promise<{ decided: boolean; approval: Approval | undefined }> {
    await this.expire();
    const changed = await this.sql.run(
      `UPDATE label_approvals SET state = ?, decided_at = ?, over_limit = ? WHERE id = ? AND state = 'pending'`,
      [state, this.now(), options.overLimit ? 1 : 0, id],
    );
    return { decided: changed === 1, approval: await this.get(id) };
  }

  /**
   * An approval whose label the agent's limits refused at issue (another of its labels counted first) waits again,
   * undecided, so the merchant can decide it over the limit; answers whether it did.
   */
  async reopen(id: string): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE label_approvals SET state = 'pending', decided_at = NULL
       WHERE id = ? AND state = 'approved' AND attempt_id IS NULL AND over_limit = 0`,
      [id],
    );
    return changed === 1;
  }

  /** Records the ledger attempt an approved label was issued as. */
  async issued(id: string, attemptId: string): Promise<void> {
    await this.sql.run('UPDATE label_approvals SET attempt_id = ? WHERE id = ? AND attempt_id IS NULL', [
      attemptId,
      id,
    ]);
  }

  /** Notes that the agent was told the approval expired. */
  async expiryTold(id: string): Promise<void> {
    await this.sql.run('UPDATE label_approvals SET expiry_reported = 1 WHERE id = ?', [id]);
  }

  /**
   * Approvals, most recent first: every pending one, however many were decided since (each agent has at most
   * `MAX_PENDING_APPROVALS` waiting), then the `limit` most recent decided ones (default 200); or those of one state.
   */
  async list(filter: { state?: ApprovalState; limit?: number } = {}): Promise<Approval[]> {
    await this.expire();
    const limit = filter.limit ?? 200;
    const { state } = filter;
    const pending =
      state === undefined || state === 'pending'
        ? await this.sql.all(
            `SELECT * FROM label_approvals WHERE state = 'pending' ORDER BY created_at DESC, id`,
          )
        : [];
    const decided =
      state === 'pending'
        ? []
        : await this.sql.all(
            `SELECT * FROM label_approvals WHERE ${state ? 'state = ?' : "state <> 'pending'"}
             ORDER BY created_at DESC, id LIMIT ?`,
            [...(state ? [state] : []), limit],
          );
    return [...pending, ...decided].flatMap((row) => toApproval(row) ?? []);
  }

  /** Pending approvals past their time become `expired` (nobody answered). */
  private async expire(): Promise<void> {
    await this.sql.run(
      `UPDATE label_approvals SET state = 'expired' WHERE state = 'pending' AND expires_at <= ?`,
      [this.now()],
    );
  }
}
