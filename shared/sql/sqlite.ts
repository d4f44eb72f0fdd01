import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { type Row, type Sql, type SqlTransaction, type SqlValue, UniqueViolation } from './sql.ts';

export interface SqliteOptions {
  /** A directory (the file is `<dataDir>/<file>`), or `':memory:'` (tests: gone when closed). */
  dataDir: string;
  /** The file's name in `dataDir`, e.g. `labels.sqlite`. */
  file: string;
}

/** Turns node:sqlite's unique-constraint error into `UniqueViolation`; anything else is rethrown as is. */
function translate(error: unknown): never {
  const column = /UNIQUE constraint failed: \w+\.(\w+)/.exec(String(error))?.[1];
  if (column) throw new UniqueViolation(column, { cause: error });
  throw error;
}

/**
 * Who holds a database file's write lock in this process. node:sqlite is synchronous: a second connection to the same
 * file that met the lock would wait for it in a busy loop that blocks the event loop, and so the first connection's
 * transaction could never finish. Connections of one process to one file therefore take turns here, and only other
 * processes (`npm run ledger` beside the BFF) meet the busy timeout.
 */
class Turns {
  /** The end of the last transaction queued on this file. */
  queue: Promise<unknown> = Promise.resolve();
  busy = false;
}

const turnsByFile = new Map<string, Turns>();

/**
 * node:sqlite behind the `Sql` interface: WAL mode and a busy timeout, so the BFF and `npm run ledger` can use one
 * file at once; transactions are `BEGIN IMMEDIATE` (the write lock up front, so a read-then-write cannot interleave
 * with another process). node:sqlite is synchronous and its connection is one: statements of other callers wait
 * (in this process) while a transaction's async work is under way, instead of landing inside it.
 */
export class SqliteSql implements Sql {
  readonly dialect = 'sqlite';
  readonly label = 'node:sqlite';
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly turns: Turns;

  constructor(options: SqliteOptions) {
    if (options.dataDir === ':memory:') {
      this.db = new DatabaseSync(':memory:');
      this.turns = new Turns();
    } else {
      mkdirSync(options.dataDir, { recursive: true });
      const path = resolve(join(options.dataDir, options.file));
      this.db = new DatabaseSync(path);
      this.turns = turnsByFile.get(path) ?? new Turns();
      turnsByFile.set(path, this.turns);
    }
    // How long to wait for another process's write lock (`npm run ledger` beside the BFF).
    this.db.exec('PRAGMA busy_timeout = 5000;');
    this.db.exec('PRAGMA journal_mode = WAL;');
    // Deleted rows (revoked tokens, purged clients) are overwritten, not left readable in free pages.
    this.db.exec('PRAGMA secure_delete = ON;');
  }

  all(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return this.whenIdle(() => this.allNow(sql, params));
  }

  one(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    return this.whenIdle(() => this.allNow(sql, params)[0]);
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return this.whenIdle(() => this.runNow(sql, params));
  }

  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    const result = this.turns.queue.then(() => this.transactionNow(work));
    this.turns.queue = result.catch(() => undefined);
    return result;
  }

  async healthy(): Promise<boolean> {
    try {
      this.db.prepare('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.turns.queue;
    if (this.db.isOpen) this.db.close();
  }

  /**
   * Runs a statement once no transaction of this process holds the file. The check and the statement run in one
   * synchronous step, so a transaction cannot begin in between and take the statement in.
   */
  private async whenIdle<T>(statement: () => T): Promise<T> {
    while (this.turns.busy) await this.turns.queue;
    return statement();
  }

  private async transactionNow<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    this.db.exec('BEGIN IMMEDIATE');
    this.turns.busy = true;
    const tx: SqlTransaction = {
      dialect: 'sqlite',
      all: async (sql, params = []) => this.allNow(sql, params),
      one: async (sql, params = []) => this.allNow(sql, params)[0],
      run: async (sql, params = []) => this.runNow(sql, params),
      // BEGIN IMMEDIATE already holds the database's one write lock.
      lock: async () => undefined,
    };
    try {
      const result = await work(tx);
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.turns.busy = false;
    }
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private allNow(sql: string, params: readonly SqlValue[]): Row[] {
    try {
      return this.statement(sql).all(...params) as Row[];
    } catch (error) {
      return translate(error);
    }
  }

  private runNow(sql: string, params: readonly SqlValue[]): number {
    try {
      return Number(this.statement(sql).run(...params).changes);
    } catch (error) {
      return translate(error);
    }
  }
}
