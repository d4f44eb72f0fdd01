import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../shared/sql/migrate.ts';
import type { Sql } from '../../shared/sql/sql.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { linkSecret, SECRET_MIGRATIONS } from './link-secret.ts';

const opened: Sql[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sql) => sql.close()));
});

async function database(dataDir: string): Promise<Sql> {
  const sql = new SqliteSql({ dataDir, file: 'labels.sqlite' });
  opened.push(sql);
  await migrate(sql, SECRET_MIGRATIONS);
  return sql;
}

describe('linkSecret', () => {
  it('takes BFF_LINK_SECRET as it is written, and stores nothing', async () => {
    const sql = await database(':memory:');
    expect(await linkSecret(sql, 'a configured key')).toEqual(Buffer.from('a configured key', 'utf8'));
    expect(await sql.all('SELECT * FROM bff_secrets')).toEqual([]);
  });

  it('makes 32 random bytes once and keeps them: every instance sharing the database reads the same', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'link-secret-'));
    const [a, b] = [await database(dataDir), await database(dataDir)];
    const first = await linkSecret(a, undefined);
    expect(first).toHaveLength(32);
    expect(await linkSecret(b, '')).toEqual(first);
    expect(await linkSecret(a, undefined)).toEqual(first);
    const other = await linkSecret(await database(':memory:'), undefined);
    expect(other).not.toEqual(first);
  });
});
