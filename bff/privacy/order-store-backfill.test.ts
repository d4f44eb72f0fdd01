import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeOrderStoreBackfill } from './testing/order-store-backfill.ts';

// The same cases on PostgreSQL in order-store-backfill.postgres.test.ts: starting PostgreSQL takes seconds.
describeOrderStoreBackfill('node:sqlite', async () => ({
  BFF_DATA_DIR: mkdtempSync(join(tmpdir(), 'order-store-backfill-')),
}));
