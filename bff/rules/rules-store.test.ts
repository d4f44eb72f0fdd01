import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { ShippingRulesStore } from './rules-store.ts';
import { describeRulesStore } from './testing/store-contract.ts';

describeRulesStore('node:sqlite', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rules-'));
  return [
    new SqliteSql({ dataDir, file: 'labels.sqlite' }),
    new SqliteSql({ dataDir, file: 'labels.sqlite' }),
  ];
});

describe('ShippingRulesStore when its database cannot be read', () => {
  it('keeps the rules last read in force (and logs it), rather than charging without them', async () => {
    let now = 0;
    const sql = new SqliteSql({ dataDir: mkdtempSync(join(tmpdir(), 'rules-')), file: 'labels.sqlite' });
    const store = new ShippingRulesStore(sql, { cacheMs: 1000, now: () => now });
    await store.ready;
    await store.write([{ id: 'gratis', then: { free: true } }], 'test');
    await sql.close();
    now += 5000;
    expect(await store.current()).toEqual({ version: 1, rules: [{ id: 'gratis', then: { free: true } }] });
  });
});
