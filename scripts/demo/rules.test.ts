import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShippingRulesStore } from '../../bff/rules/rules-store.ts';
import { parseRules, rulesWarnings } from '../../shared/shipping-rules.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { DEMO_RULES, seedDemoRules } from './rules.ts';

describe('the demo store’s shipping rules', () => {
  it('are two valid rules without warnings, written into the demo ledger the BFF then reads', async () => {
    expect(parseRules({ rules: DEMO_RULES })).toEqual({ rules: DEMO_RULES });
    expect(rulesWarnings(DEMO_RULES, ['correios-pac', 'correios-sedex'])).toEqual([]);
    const dataDir = mkdtempSync(join(tmpdir(), 'demo-rules-'));
    await seedDemoRules(dataDir);
    const sql = new SqliteSql({ dataDir, file: 'labels.sqlite' });
    try {
      expect(await new ShippingRulesStore(sql).current()).toEqual({ version: 1, rules: DEMO_RULES });
    } finally {
      await sql.close();
    }
  });
});
