import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { describeTransitHistory } from './testing/history-contract.ts';

describeTransitHistory('node:sqlite', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'transits-'));
  return [
    new SqliteSql({ dataDir, file: 'labels.sqlite' }),
    new SqliteSql({ dataDir, file: 'labels.sqlite' }),
  ];
});
