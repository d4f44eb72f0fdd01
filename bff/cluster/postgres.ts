import pg from 'pg';

/** One step of a schema, applied once, in order, by `migrate`. Steps are never edited once released: add a new one. */
export interface Migration {
  id: string;
  sql: string;
}

/** A connection pool to `BFF_DATABASE_URL`, with a clear error when the server is unreachable. */
export function createPool(url: string): pg.Pool {
  // A PostgreSQL that stops answering must not hold an agent's call: queries give up after 5 s (client and server).
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    query_timeout: 5_000,
    statement_timeout: 5_000,
  });
  // An idle client losing its connection must not crash the process: the next query reports it.
  pool.on('error', () => {});
  return pool;
}

/**
 * Applies the migrations not yet applied, each in its own transaction, under an advisory lock so that instances
 * starting together apply each step exactly once. Idempotent: running it again applies nothing.
 */
export async function migrate(pool: pg.Pool, migrations: readonly Migration[]): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    // A fixed, arbitrary key: every BFF instance takes the same lock.
    await client.query('SELECT pg_advisory_lock(7411630001)');
    await client.query(
      'CREATE TABLE IF NOT EXISTS bff_migrations (id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ id: string }>('SELECT id FROM bff_migrations');
    const done = new Set(rows.map((row) => row.id));
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO bff_migrations (id) VALUES ($1)', [migration.id]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(migration.id);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(7411630001)').catch(() => undefined);
    client.release();
  }
  return applied;
}

/** Whether PostgreSQL answers a trivial query now (readiness). */
export async function answers(pool: pg.Pool): Promise<boolean> {
  try {
    await pool.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` in one transaction on one connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
