import type { Dialect, Sql, SqlTransaction } from './sql.ts';

/**
 * One step of a schema, applied once, in order. Released steps are never edited: add a new one. `sql` is the text both
 * databases take (or one per dialect); `run` is for a step that must look before it writes (a legacy table).
 */
export interface Migration {
  id: string;
  sql?: string | Record<Dialect, string>;
  run?: (tx: SqlTransaction) => Promise<void>;
  /** Only on this database (e.g. an old node:sqlite layout that PostgreSQL never had). */
  only?: Dialect;
}

/** The ledger of applied steps. Named as the first PostgreSQL release named it, so its databases open as they are. */
const TABLE: Record<Dialect, string> = {
  sqlite: `CREATE TABLE IF NOT EXISTS bff_migrations (
    id TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
  postgres: `CREATE TABLE IF NOT EXISTS bff_migrations (
    id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
};

/** Runs every statement of a script (`;`-separated; our migrations hold no `;` inside a literal). */
async function exec(tx: SqlTransaction, script: string): Promise<void> {
  for (const statement of script.split(';')) {
    if (statement.trim()) await tx.run(statement);
  }
}

/**
 * Applies the steps not yet applied, in one transaction under a lock, so that instances (or the BFF and
 * `npm run ledger`) starting together apply each step exactly once, and a failing step leaves nothing half done.
 * Idempotent: running it again applies nothing. Answers the ids it applied.
 */
export function migrate(sql: Sql, migrations: readonly Migration[]): Promise<string[]> {
  return sql.transaction(async (tx) => {
    await tx.lock('bff_migrations');
    await tx.run(TABLE[sql.dialect]);
    const done = new Set((await tx.all('SELECT id FROM bff_migrations')).map((row) => String(row.id)));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      if (!migration.only || migration.only === sql.dialect) {
        const script = typeof migration.sql === 'string' ? migration.sql : migration.sql?.[sql.dialect];
        if (script) await exec(tx, script);
        await migration.run?.(tx);
      }
      await tx.run('INSERT INTO bff_migrations (id) VALUES (?)', [migration.id]);
      applied.push(migration.id);
    }
    return applied;
  });
}

/**
 * `sql` for a store whose tables `migrations` make: they are applied now, and every statement and transaction through
 * the answered `sql` waits for them. `ready` settles once they are applied (await it at start to fail fast).
 */
export function migrated(sql: Sql, migrations: readonly Migration[]): { ready: Promise<void>; sql: Sql } {
  const ready = migrate(sql, migrations).then(() => undefined);
  ready.catch(() => undefined);
  return {
    ready,
    sql: {
      dialect: sql.dialect,
      label: sql.label,
      all: (text, params) => ready.then(() => sql.all(text, params)),
      one: (text, params) => ready.then(() => sql.one(text, params)),
      run: (text, params) => ready.then(() => sql.run(text, params)),
      transaction: (work) => ready.then(() => sql.transaction(work)),
      healthy: () => sql.healthy(),
      close: () => sql.close(),
    },
  };
}

/** A store over its own tables: `sql` waits for `migrations` (see `migrated`); `now` is its clock. */
export class MigratedStore {
  /** Settles once the tables are migrated (await it at start to fail fast). */
  readonly ready: Promise<void>;
  protected readonly sql: Sql;
  protected readonly now: () => number;

  constructor(sql: Sql, migrations: readonly Migration[], now: () => number = Date.now) {
    ({ ready: this.ready, sql: this.sql } = migrated(sql, migrations));
    this.now = now;
  }
}
