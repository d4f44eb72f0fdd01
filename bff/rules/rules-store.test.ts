import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { describeRulesStore } from './testing/store-contract.ts';

describeRulesStore('node:sqlite', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rules-'));
  return [
    new SqliteSql({ dataDir, file: 'labels.sqlite' }),
    new SqliteSql({ dataDir, file: 'labels.sqlite' }),
  ];
});
