import pg from 'pg';
import { type Sql, type SqlRunner, type SqlTransaction, type SqlValue, UniqueViolation } from './sql.ts';

/** `?` placeholders (the text both databases share, see sql.ts) as PostgreSQL's `$1, $2, …`; cached per text. */
const numbered = new Map<string, string>();
function toNumbered(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, text);
  }
  return text;
}

/** Turns PostgreSQL's unique violation (23505) into `UniqueViolation`, naming the column from its detail. */
function translate(error: unknown): never {
  const { code, detail } = (error ?? {}) as { code?: string; detail?: string };
  const column = code === '23505' ? /^Key \((\w+)/.exec(detail ?? '')?.[1] : undefined;
  if (column) throw new UniqueViolation(column, { cause: error });
  throw error;
}

/** BIGINT (epoch milliseconds, counts) as numbers, as node:sqlite returns them; safe below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

function runner(client: pg.Pool | pg.PoolClient): SqlRunner {
  const query = async (sql: string, params: readonly SqlValue[] = []) => {
    try {
      return await client.query(toNumbered(sql), [...params]);
    } catch (error) {
      return translate(error);
    }
  };
  return {
    dialect: 'postgres',
    all: async (sql, params) => (await query(sql, params)).rows,
    one: async (sql, params) => (await query(sql, params)).rows[0],
    run: async (sql, params) => (await query(sql, params)).rowCount ?? 0,
  };
}

/**
 * PostgreSQL (`BFF_DATABASE_URL`) behind the `Sql` interface: one pool for every store of the BFF. A PostgreSQL that
 * stops answering must not hold an agent's call: queries give up after 5 s (client and server).
 */
export class PostgresSql implements Sql {
  readonly dialect = 'postgres';
  readonly label = 'PostgreSQL';
  readonly all: SqlRunner['all'];
  readonly one: SqlRunner['one'];
  readonly run: SqlRunner['run'];
  private readonly pool: pg.Pool;

  constructor(url: string) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
      statement_timeout: 5_000,
      types,
    });
    // An idle client losing its connection must not crash the process: the next query reports it.
    this.pool.on('error', () => {});
    ({ all: this.all, one: this.one, run: this.run } = runner(this.pool));
  }

  async transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // The pool listens for errors on idle clients only: a connection lost while this one is checked out (PostgreSQL
    // stopped mid-transaction) would be an uncaught 'error' and end the process. Its next query reports it instead.
    const lost = () => {};
    client.on('error', lost);
    const tx: SqlTransaction = {
      ...runner(client),
      // A transaction-scoped advisory lock: released by COMMIT or ROLLBACK, whichever instance holds it.
      lock: async (key) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
      },
    };
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.off('error', lost);
      client.release();
    }
  }

  async healthy(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}
