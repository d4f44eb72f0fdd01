import { NO_RULES, type Rule, RuleSchema, type ShippingRules } from '../../shared/shipping-rules.ts';
import { MigratedStore, type Migration } from '../../shared/sql/migrate.ts';
import type { Sql } from '../../shared/sql/sql.ts';
import { type Logger, messageOf } from '../logger.ts';
import type { RulesSource } from '../rates/service.ts';

/**
 * The merchant's shipping rules, in the ledger's database (node:sqlite in `BFF_DATA_DIR`, or the PostgreSQL every
 * instance shares), ids 7xx. One row per version (`shipping_rules`): the whole ordered list as written, who wrote it
 * and when. The row with the highest version is in force; each row with the one before it is the change log (before
 * and after). The version is the table's primary key: two instances writing at once never both get the same version.
 */
export const RULES_MIGRATIONS: readonly Migration[] = [
  {
    id: '701-shipping-rules',
    sql: `
      CREATE TABLE shipping_rules (
        version INTEGER PRIMARY KEY,
        rules TEXT NOT NULL,
        changed_by TEXT NOT NULL,
        changed_at BIGINT NOT NULL
      )
    `,
  },
];

/**
 * How long an instance answers the rules it last read (ms): the "cache period" of docs/shipping-rules.md. A rule
 * written on one instance is in force there at once, on the others within this period; `GET /api/shipping-rules`
 * lets a browser keep it as long.
 */
export const RULES_CACHE_MS = 30_000;

/** One change of the rules: who wrote them, when, and the list before and after. */
export interface RulesChange {
  version: number;
  changedBy: string;
  changedAt: number;
  before: Rule[];
  after: Rule[];
}

export interface ShippingRulesStoreOptions {
  now?: () => number;
  /** `RULES_CACHE_MS` by default. */
  cacheMs?: number;
  logger?: Logger | undefined;
}

/** The rules in force (cached per instance for `cacheMs`), their writes and their change log. */
export class ShippingRulesStore extends MigratedStore implements RulesSource {
  private readonly cacheMs: number;
  private readonly logger: Logger | undefined;
  private cached: { rules: ShippingRules; at: number } | undefined;
  private reading: Promise<ShippingRules> | undefined;

  constructor(sql: Sql, options: ShippingRulesStoreOptions = {}) {
    super(sql, RULES_MIGRATIONS, options.now);
    this.cacheMs = options.cacheMs ?? RULES_CACHE_MS;
    this.logger = options.logger;
  }

  /**
   * The rules in force. Read again once the cache period is over (one read at a time); a database that cannot be
   * read then keeps the rules last read in force (logged), and only fails when there are none yet.
   */
  async current(): Promise<ShippingRules> {
    const cached = this.cached;
    if (cached && this.now() - cached.at < this.cacheMs) return cached.rules;
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
    });
    try {
      return await this.reading;
    } catch (error) {
      if (!cached) throw error;
      this.logger?.warn(
        { error: messageOf(error) },
        'shipping rules: not read now; the rules last read stay',
      );
      return cached.rules;
    }
  }

  /** Puts `rules` (already checked: `parseRules`) in force as the next version; answers it. */
  async write(rules: readonly Rule[], changedBy: string): Promise<number> {
    const at = this.now();
    const version = await this.sql.transaction(async (tx) => {
      await tx.lock('shipping_rules');
      const row = await tx.one('SELECT MAX(version) AS version FROM shipping_rules');
      const next = Number(row?.version ?? 0) + 1;
      await tx.run(
        'INSERT INTO shipping_rules (version, rules, changed_by, changed_at) VALUES (?, ?, ?, ?)',
        [next, JSON.stringify(rules), changedBy, at],
      );
      return next;
    });
    this.cached = { rules: { version, rules: [...rules] }, at };
    return version;
  }

  /** The last `limit` changes, newest first, each with the list before it. */
  async changes(limit = 20): Promise<RulesChange[]> {
    const rows = await this.sql.all(
      'SELECT version, rules, changed_by, changed_at FROM shipping_rules ORDER BY version DESC LIMIT ?',
      [limit + 1],
    );
    return rows.slice(0, limit).map((row, i) => ({
      version: Number(row.version),
      changedBy: String(row.changed_by),
      changedAt: Number(row.changed_at),
      before: i + 1 < rows.length ? rulesOf(rows[i + 1]?.rules) : [],
      after: rulesOf(row.rules),
    }));
  }

  private async read(): Promise<ShippingRules> {
    const row = await this.sql.one('SELECT version, rules FROM shipping_rules ORDER BY version DESC LIMIT 1');
    const rules = row ? { version: Number(row.version), rules: rulesOf(row.rules) } : NO_RULES;
    this.cached = { rules, at: this.now() };
    return rules;
  }
}

/** A stored list, checked again on the way out: a row edited by hand to something else is no rule at all. */
function rulesOf(text: unknown): Rule[] {
  try {
    return JSON.parse(String(text)).map((rule: unknown) => RuleSchema.parse(rule));
  } catch {
    throw new Error('shipping rules: a stored version is not a valid list of rules');
  }
}
