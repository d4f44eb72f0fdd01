/**
 * The one SQL layer: every store (the BFF's ledger, OAuth for both servers, approvals, notifications…) is written
 * once against this interface and runs on node:sqlite (embedded default; the sandbox keeps its OAuth in memory) and
 * on PostgreSQL (`BFF_DATABASE_URL`). Only `sqlite.ts` and `postgres.ts` in this folder import a driver.
 *
 * The SQL text is the common subset both databases take: `?` placeholders (never a `?` inside a literal), TEXT,
 * BIGINT and INTEGER columns, UNIQUE constraints and partial unique indexes, `INSERT … ON CONFLICT`, `RETURNING`.
 * Where the two differ, a store reads `dialect` (e.g. `FOR UPDATE SKIP LOCKED` exists only on PostgreSQL, where
 * several writers compete; node:sqlite has a single writer).
 */

/** A row as the database returns it: column name → value (numbers come back as numbers on both). */
export type Row = Record<string, unknown>;

/** What a placeholder may be bound to. */
export type SqlValue = string | number | bigint | null;

export type Dialect = 'sqlite' | 'postgres';

/** Statements on one connection (or one transaction). */
export interface SqlRunner {
  readonly dialect: Dialect;
  /** Every row the statement returns. */
  all(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** The first row, or undefined. */
  one(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  /** Runs a statement; answers how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

/** Inside `transaction`: the same statements, plus a lock held until the transaction ends. */
export interface SqlTransaction extends SqlRunner {
  /**
   * Serializes this transaction with every other one that takes the same key, across processes: an advisory lock on
   * PostgreSQL; on node:sqlite a no-op, since a transaction there already holds the database's only write lock.
   */
  lock(key: string): Promise<void>;
}

export interface Sql extends SqlRunner {
  /**
   * Runs `work` in one transaction: committed when it returns, rolled back when it throws. `work` must use the
   * transaction it is given, never this object (on node:sqlite that would wait for the transaction to end).
   */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T>;
  /** Whether the database answers a trivial query now (readiness). */
  healthy(): Promise<boolean>;
  /** Human name for logs and `/readyz` ("node:sqlite", "PostgreSQL"). */
  readonly label: string;
  close(): Promise<void>;
}

/**
 * A UNIQUE constraint or unique index refused a write. `column` names the (first) column it guards, on both
 * databases: node:sqlite says "UNIQUE constraint failed: table.column", PostgreSQL puts "Key (column)=…" in its
 * detail.
 */
export class UniqueViolation extends Error {
  override readonly name = 'UniqueViolation';
  readonly column: string;

  constructor(column: string, options?: ErrorOptions) {
    super(`unique constraint on ${column}`, options);
    this.column = column;
  }
}

export function isUniqueViolation(error: unknown, column?: string): error is UniqueViolation {
  return error instanceof UniqueViolation && (column === undefined || error.column === column);
}

/** `?, ?, …` for an IN list of `n` values. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/**
 * ` FOR UPDATE SKIP LOCKED` on PostgreSQL, where every instance claims rows of the same queue; nothing on node:sqlite
 * (one writer).
 */
export function skipLocked(sql: SqlRunner): string {
  return sql.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
}
