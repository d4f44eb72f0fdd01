import type { Migration } from '../../shared/sql/migrate.ts';
import type { SqlTransaction } from '../../shared/sql/sql.ts';
import { UNKNOWN_WHYS } from './ledger.ts';

/**
 * The ledger's schema, step by step, on node:sqlite and PostgreSQL alike. The first step is written with
 * `IF NOT EXISTS` because node:sqlite ledgers of earlier releases created the same table without recording a step.
 */
export const LEDGER_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-label-attempts',
    sql: `
      CREATE TABLE IF NOT EXISTS label_attempts (
        id TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        idempotency_key TEXT UNIQUE,
        state TEXT NOT NULL,
        prepostagem_id TEXT UNIQUE,
        tracking_code TEXT,
        reason TEXT,
        status TEXT,
        support_code TEXT UNIQUE,
        settled_by TEXT,
        created_at BIGINT NOT NULL,
        settled_at BIGINT,
        request TEXT NOT NULL,
        note TEXT
      );
      CREATE UNIQUE INDEX IF NOT EXISTS label_attempts_one_open
        ON label_attempts (fingerprint) WHERE state IN ('pending', 'unknown');
      CREATE INDEX IF NOT EXISTS label_attempts_by_request ON label_attempts (fingerprint, created_at);
      CREATE INDEX IF NOT EXISTS label_attempts_by_state ON label_attempts (state, created_at)
    `,
  },
  { id: '002-legacy-attempts-table', only: 'sqlite', run: moveLegacyAttempts },
  {
    id: '003-unknown-why',
    sql: 'ALTER TABLE label_attempts ADD COLUMN unknown_why TEXT',
    run: unknownWhyFromNotes,
  },
  {
    // Orders and volumes (the intended label is the pair), who asked, the desk's columns, and leases.
    id: '004-orders-volumes-leases',
    sql: `
      ALTER TABLE label_attempts ADD COLUMN order_id TEXT;
      ALTER TABLE label_attempts ADD COLUMN volume INTEGER;
      ALTER TABLE label_attempts ADD COLUMN issued_by TEXT;
      ALTER TABLE label_attempts ADD COLUMN recipient TEXT;
      ALTER TABLE label_attempts ADD COLUMN service_code TEXT;
      ALTER TABLE label_attempts ADD COLUMN declared_value_cents BIGINT;
      ALTER TABLE label_attempts ADD COLUMN lease_until BIGINT;
      CREATE UNIQUE INDEX label_attempts_one_per_volume ON label_attempts (order_id, volume)
        WHERE order_id IS NOT NULL AND state IN ('pending', 'unknown', 'created');
      CREATE INDEX label_attempts_by_order ON label_attempts (order_id, volume);
      CREATE INDEX label_attempts_by_issuer ON label_attempts (issued_by, created_at);
      CREATE INDEX label_attempts_by_time ON label_attempts (created_at)
    `,
    run: deskColumnsFromRequests,
  },
  // The language of the shopper's order, for their status e-mails (bff/notifications/).
  { id: '005-attempt-locale', sql: 'ALTER TABLE label_attempts ADD COLUMN locale TEXT' },
];

/** The desk's columns of attempts written before they existed, read from the request each one kept. */
async function deskColumnsFromRequests(tx: SqlTransaction): Promise<void> {
  const rows = await tx.all('SELECT id, request FROM label_attempts');
  for (const row of rows) {
    let request: { recipient?: { nome?: unknown }; serviceCode?: unknown };
    try {
      request = JSON.parse(String(row.request));
    } catch {
      continue;
    }
    const recipient = typeof request.recipient?.nome === 'string' ? request.recipient.nome : null;
    const serviceCode = typeof request.serviceCode === 'string' ? request.serviceCode : null;
    if (recipient === null && serviceCode === null) continue;
    await tx.run('UPDATE label_attempts SET recipient = ?, service_code = ? WHERE id = ?', [
      recipient,
      serviceCode,
      String(row.id),
    ]);
  }
}

/**
 * The first ledger (node:sqlite table `attempts`) had no UNIQUE on prepostagem_id and support_code. Its rows move to
 * `label_attempts`; a pre-posting already bound to an earlier row (the misassignment this schema now prevents) is not
 * copied onto the later row, which becomes `unknown` with a note for the operator.
 */
async function moveLegacyAttempts(tx: SqlTransaction): Promise<void> {
  const legacy = await tx.one(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'attempts'`);
  if (!legacy) return;
  const rows = await tx.all('SELECT * FROM attempts ORDER BY created_at');
  const seen = new Set<string>();
  const open = new Set<string>();
  for (const row of rows) {
    const binding = [row.prepostagem_id, row.support_code].filter((v): v is string => typeof v === 'string');
    const clash = binding.some((value) => seen.has(value));
    for (const value of binding) seen.add(value);
    const state = clash ? 'unknown' : String(row.state);
    const fingerprint = String(row.fingerprint);
    // The old ledger could hold two open attempts of one request (after 24 h); the first one keeps blocking it.
    const isOpen = state === 'pending' || state === 'unknown';
    if (isOpen && open.has(fingerprint)) continue;
    if (isOpen) open.add(fingerprint);
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    await tx.run(
      `INSERT INTO label_attempts (id, fingerprint, idempotency_key, state, prepostagem_id, tracking_code, reason,
         status, support_code, settled_by, created_at, settled_at, request, note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        String(row.id),
        fingerprint,
        text(row.idempotency_key),
        state,
        clash ? null : text(row.prepostagem_id),
        clash ? null : text(row.tracking_code),
        text(row.reason),
        text(row.status),
        clash ? null : text(row.support_code),
        row.settled_at === null ? null : 'answer',
        Number(row.created_at),
        row.settled_at === null ? null : Number(row.settled_at),
        String(row.request),
        clash
          ? `migrated: its pre-posting ${String(row.prepostagem_id)} is also bound to an earlier attempt; check the carrier's panel`
          : null,
      ],
    );
  }
  await tx.run('DROP TABLE attempts');
}

/** Earlier releases kept why an attempt was unknown only as the first word of its note ("ambiguous: …"). */
async function unknownWhyFromNotes(tx: SqlTransaction): Promise<void> {
  const rows = await tx.all(
    `SELECT id, note FROM label_attempts WHERE state = 'unknown' AND note IS NOT NULL`,
  );
  for (const row of rows) {
    const why = String(row.note).split(':')[0];
    if (UNKNOWN_WHYS.some((known) => known === why)) {
      await tx.run('UPDATE label_attempts SET unknown_why = ? WHERE id = ?', [why ?? null, String(row.id)]);
    }
  }
}
