import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Migration, migrate } from './postgres.ts';
import { type PostgresServer, startPostgres } from './test-servers.ts';

const MIGRATIONS: Migration[] = [
  { id: '001-things', sql: 'CREATE TABLE things (id TEXT PRIMARY KEY)' },
  { id: '002-more', sql: 'ALTER TABLE things ADD COLUMN note TEXT' },
];

describe('migrate (real PostgreSQL)', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('applies each step once when three instances start together, and nothing the second time', async () => {
    const url = await server.createDatabase('migrate_once');
    const pools = [createPool(url), createPool(url), createPool(url)];
    try {
      const applied = await Promise.all(pools.map((pool) => migrate(pool, MIGRATIONS)));
      expect(applied.flat().sort()).toEqual(['001-things', '002-more']);
      expect(await migrate(pools[0] as (typeof pools)[0], MIGRATIONS)).toEqual([]);
      const { rows } = await (pools[0] as (typeof pools)[0]).query(
        'SELECT count(*)::int AS n FROM bff_migrations',
      );
      expect(rows[0].n).toBe(2);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('rolls a failing step back whole and applies it on the next start once fixed', async () => {
    const url = await server.createDatabase('migrate_rollback');
    const pool = createPool(url);
    try {
      const broken: Migration[] = [
        { id: '001-half', sql: 'CREATE TABLE half (id TEXT); SELECT no_such_function()' },
      ];
      await expect(migrate(pool, broken)).rejects.toThrow(/no_such_function/);
      const { rows } = await pool.query("SELECT to_regclass('half') AS t");
      expect(rows[0].t).toBeNull();
      expect(await migrate(pool, [{ id: '001-half', sql: 'CREATE TABLE half (id TEXT)' }])).toEqual([
        '001-half',
      ]);
    } finally {
      await pool.end();
    }
  });
});
