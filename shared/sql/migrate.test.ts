import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { type Migration, migrate, migrated } from './migrate.ts';
import { PostgresSql } from './postgres.ts';
import type { Sql } from './sql.ts';
import { isUniqueViolation } from './sql.ts';
import { SqliteSql } from './sqlite.ts';

const MIGRATIONS: Migration[] = [
  { id: '001-things', sql: 'CREATE TABLE things (id TEXT PRIMARY KEY, n BIGINT)' },
  {
    id: '002-more',
    sql: 'ALTER TABLE things ADD COLUMN note TEXT; CREATE UNIQUE INDEX things_note ON things (note)',
  },
];

let postgres: PostgresServer;
let databases = 0;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.close();
});

/** Each dialect: a fresh database and a way to open more connections to it (as other processes or instances). */
const DIALECTS: { name: string; open: () => Promise<() => Sql> }[] = [
  {
    name: 'node:sqlite',
    open: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'sql-'));
      return () => new SqliteSql({ dataDir, file: 'test.sqlite' });
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const url = await postgres.createDatabase(`sql_${++databases}`);
      return () => new PostgresSql(url);
    },
  },
];

for (const { name, open } of DIALECTS) {
  describe(`the SQL layer on ${name}`, () => {
    it('applies each step once when three instances start together, and nothing the second time', async () => {
      const connect = await open();
      const sqls = [connect(), connect(), connect()];
      try {
        const applied = await Promise.all(sqls.map((sql) => migrate(sql, MIGRATIONS)));
        expect(applied.flat().sort()).toEqual(['001-things', '002-more']);
        expect(await migrate(sqls[0] as Sql, MIGRATIONS)).toEqual([]);
        expect(await (sqls[1] as Sql).one('SELECT count(*) AS n FROM bff_migrations')).toEqual({ n: 2 });
      } finally {
        await Promise.all(sqls.map((sql) => sql.close()));
      }
    });

    it('rolls a failing run back whole and applies it on the next start once fixed', async () => {
      const sql = (await open())();
      try {
        const broken: Migration[] = [
          { id: '001-half', sql: 'CREATE TABLE half (id TEXT)' },
          { id: '002-broken', sql: 'INSERT INTO no_such_table VALUES (1)' },
        ];
        await expect(migrate(sql, broken)).rejects.toThrow(/no_such_table|no such table/);
        await expect(sql.all('SELECT * FROM half')).rejects.toThrow();
        expect(await migrate(sql, [{ id: '001-half', sql: 'CREATE TABLE half (id TEXT)' }])).toEqual([
          '001-half',
        ]);
      } finally {
        await sql.close();
      }
    });

    it('binds ? placeholders in order, returns numbers for BIGINT and counts changed rows', async () => {
      const sql = (await open())();
      try {
        await migrate(sql, MIGRATIONS);
        expect(
          await sql.run('INSERT INTO things (id, n, note) VALUES (?, ?, ?)', ['a', 1_763_800_000_000, 'x']),
        ).toBe(1);
        expect(
          await sql.one('SELECT id, n, note FROM things WHERE id = ? AND n = ?', ['a', 1_763_800_000_000]),
        ).toEqual({ id: 'a', n: 1_763_800_000_000, note: 'x' });
        expect(await sql.run('UPDATE things SET note = ? WHERE id = ?', ['y', 'nobody'])).toBe(0);
        expect(await sql.all('UPDATE things SET n = n + 1 RETURNING n')).toEqual([{ n: 1_763_800_000_001 }]);
      } finally {
        await sql.close();
      }
    });

    it('names the column of a unique violation, for a constraint and for a unique index alike', async () => {
      const sql = (await open())();
      try {
        await migrate(sql, MIGRATIONS);
        await sql.run('INSERT INTO things (id, note) VALUES (?, ?)', ['a', 'x']);
        const duplicateKey = await sql
          .run('INSERT INTO things (id) VALUES (?)', ['a'])
          .catch((error) => error);
        expect(isUniqueViolation(duplicateKey, 'id')).toBe(true);
        const duplicateNote = await sql
          .run('INSERT INTO things (id, note) VALUES (?, ?)', ['b', 'x'])
          .catch((error) => error);
        expect(isUniqueViolation(duplicateNote, 'note')).toBe(true);
        // Anything else is not taken for a unique violation.
        const other = await sql.run('INSERT INTO nowhere VALUES (1)').catch((error) => error);
        expect(isUniqueViolation(other)).toBe(false);
      } finally {
        await sql.close();
      }
    });

    it('rolls a transaction back when its work throws, and keeps what committed', async () => {
      const sql = (await open())();
      try {
        await migrate(sql, MIGRATIONS);
        await expect(
          sql.transaction(async (tx) => {
            await tx.run('INSERT INTO things (id) VALUES (?)', ['gone']);
            throw new Error('changed my mind');
          }),
        ).rejects.toThrow('changed my mind');
        await sql.transaction(async (tx) => {
          await tx.run('INSERT INTO things (id) VALUES (?)', ['kept']);
        });
        expect(await sql.all('SELECT id FROM things ORDER BY id')).toEqual([{ id: 'kept' }]);
      } finally {
        await sql.close();
      }
    });

    it('serializes read-then-write transactions on one lock across connections: no lost update', async () => {
      const connect = await open();
      const sqls = [connect(), connect()];
      try {
        await migrate(sqls[0] as Sql, MIGRATIONS);
        await (sqls[0] as Sql).run('INSERT INTO things (id, n) VALUES (?, ?)', ['counter', 0]);
        // Each transaction reads, waits a turn of the event loop (another transaction could interleave here), writes.
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (sqls[i % 2] as Sql).transaction(async (tx) => {
              await tx.lock('counter');
              const row = await tx.one('SELECT n FROM things WHERE id = ?', ['counter']);
              await new Promise((resolve) => setImmediate(resolve));
              await tx.run('UPDATE things SET n = ? WHERE id = ?', [Number(row?.n) + 1, 'counter']);
            }),
          ),
        );
        expect(await (sqls[1] as Sql).one('SELECT n FROM things WHERE id = ?', ['counter'])).toEqual({
          n: 20,
        });
      } finally {
        await Promise.all(sqls.map((sql) => sql.close()));
      }
    });

    it('answers healthy while the database answers, and not once it is closed', async () => {
      const sql = (await open())();
      expect(await sql.healthy()).toBe(true);
      await sql.close();
      expect(await sql.healthy()).toBe(false);
    });
  });
}

describe('the SQL layer on node:sqlite, one process', () => {
  it('keeps a statement outside a transaction from landing inside another caller’s open transaction', async () => {
    const sql = new SqliteSql({ dataDir: ':memory:', file: 'x' });
    try {
      await migrate(sql, MIGRATIONS);
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const rolledBack = sql.transaction(async (tx) => {
        await tx.run('INSERT INTO things (id) VALUES (?)', ['inside']);
        await held;
        throw new Error('roll back');
      });
      // Issued while the transaction is open: it must wait, and survive the rollback.
      const outside = sql.run('INSERT INTO things (id) VALUES (?)', ['outside']);
      release();
      await expect(rolledBack).rejects.toThrow('roll back');
      await outside;
      expect(await sql.all('SELECT id FROM things')).toEqual([{ id: 'outside' }]);
    } finally {
      await sql.close();
    }
  });
});

describe('migrated', () => {
  it('makes the first statement and transaction, issued at once, wait for the tables', async () => {
    const { ready, sql } = migrated(new SqliteSql({ dataDir: ':memory:', file: 'x' }), MIGRATIONS);
    try {
      // Both issued before the migrations ran: on a bare connection each would fail with "no such table".
      const inserted = sql.transaction((tx) => tx.run("INSERT INTO things (id, note) VALUES ('a', 'first')"));
      const counted = sql.one('SELECT count(*) AS n FROM things');
      expect(await inserted).toBe(1);
      expect(await counted).toEqual({ n: expect.any(Number) });
      await expect(ready).resolves.toBeUndefined();
      expect(await sql.all('SELECT id, note FROM things')).toEqual([{ id: 'a', note: 'first' }]);
    } finally {
      await sql.close();
    }
  });

  it('answers every call with the failure of a migration that did not apply, and stays healthy', async () => {
    const { ready, sql } = migrated(new SqliteSql({ dataDir: ':memory:', file: 'x' }), [
      { id: '001-broken', sql: 'INSERT INTO no_such_table VALUES (1)' },
    ]);
    try {
      await expect(ready).rejects.toThrow(/no such table/);
      await expect(sql.one('SELECT 1 AS n')).rejects.toThrow(/no such table/);
      await expect(sql.transaction(async () => 1)).rejects.toThrow(/no such table/);
      expect(await sql.healthy()).toBe(true);
    } finally {
      await sql.close();
    }
  });
});
