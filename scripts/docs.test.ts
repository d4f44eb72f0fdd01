import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { sqliteLedger } from '../bff/labels/testing/ledgers.ts';

/**
 * Runs the blocks of docs/deploy.md marked `<!-- tested: name -->` (the code block right after the marker), so a
 * command the docs show cannot rot unnoticed.
 */
const DEPLOY = readFileSync(new URL('../docs/deploy.md', import.meta.url), 'utf8');

function block(name: string): string {
  const match = new RegExp(`<!-- tested: ${name} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(DEPLOY);
  if (!match?.[1]) throw new Error(`docs/deploy.md has no block marked "tested: ${name}"`);
  return match[1];
}

/** Runs a shell line with Node 24 (this process's node) first in PATH, as the server's `node` must be. */
function sh(line: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], {
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const OrderSchema = z.object({ orderId: z.string() });

const hasSystemd = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('docs/deploy.md: the systemd unit', () => {
  it.skipIf(!hasSystemd)('passes systemd-analyze verify with no warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'unit-'));
    const unit = join(dir, 'frete-kit.service');
    writeFileSync(unit, block('systemd-unit'));
    expect(block('systemd-unit')).toContain('ExecStart=/usr/bin/node bff/start.js');
    const run = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);

    // The instrument: a wrong value is reported, so the check above can fail.
    writeFileSync(unit, block('systemd-unit').replace('Type=simple', 'Type=bogus'));
    expect(spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' }).stderr).toMatch(/bogus/);
  });
});

describe('docs/deploy.md: ledger backup and restore', () => {
  it('backs up a ledger the BFF is writing to, and the copy opens as a ledger with every attempt taken before', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ledger-docs-'));
    const dataDir = join(root, 'lib');
    const backups = join(root, 'backups');
    mkdirSync(backups);
    const ledger = sqliteLedger({ dataDir });
    const order = (orderId: string) => JSON.stringify({ orderId });
    for (let i = 0; i < 200; i++) {
      await ledger.begin({
        fingerprint: `fp-${i}`,
        idempotencyKey: `key-${i}`,
        request: order(`pedido-${i}`),
      });
    }
    // The BFF keeps writing while the backup runs.
    let more = 0;
    const writer = setInterval(() => {
      void ledger.begin({ fingerprint: `fp-late-${more}`, request: order(`late-${more}`) });
      more++;
    }, 2);

    const line = block('ledger-backup')
      .split('\n')
      .find((command) => command.includes('node -e'));
    expect(line).toBeDefined();
    const command = (line ?? '')
      .replace(/^sudo -u frete /, '')
      .replaceAll('/var/lib/frete-kit', dataDir)
      .replaceAll('/var/backups/frete-kit', backups);
    const run = await sh(command);
    clearInterval(writer);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^backup: \d+ pages$/m);
    await ledger.close();

    const [copy] = readdirSync(backups);
    expect(copy).toMatch(/^labels-\d{4}-\d{2}-\d{2}-\d{4}\.sqlite$/);
    const backupFile = join(backups, copy ?? '');
    const check = new DatabaseSync(backupFile, { readOnly: true });
    expect(check.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    check.close();

    // Restore, as the docs do: a fresh data directory holding the copy as labels.sqlite.
    expect(block('ledger-restore')).toContain('/var/lib/frete-kit/labels.sqlite');
    const restoredDir = join(root, 'restored');
    mkdirSync(restoredDir);
    copyFileSync(backupFile, join(restoredDir, 'labels.sqlite'));
    const restored = sqliteLedger({ dataDir: restoredDir });
    try {
      const orders = (await restored.list()).map(
        (attempt) => OrderSchema.parse(JSON.parse(attempt.request)).orderId,
      );
      for (let i = 0; i < 200; i++) expect(orders).toContain(`pedido-${i}`);
      expect((await restored.byKey('key-199'))?.state).toBe('pending');
      expect(await restored.healthy()).toBe(true);
    } finally {
      await restored.close();
    }
  }, 60_000);

  it.skipIf(!existsSync('/usr/bin/sqlite3'))('the sqlite3 alternative is an online backup too', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-sqlite3-'));
    const ledger = sqliteLedger({ dataDir });
    await ledger.begin({
      fingerprint: 'fp',
      idempotencyKey: 'k',
      request: JSON.stringify({ orderId: 'pedido-1' }),
    });
    const run = await sh(`sqlite3 ${dataDir}/labels.sqlite ".backup ${dataDir}/copy.sqlite"`);
    await ledger.close();
    expect(run.status).toBe(0);
    expect(DEPLOY).toContain('sqlite3 /var/lib/frete-kit/labels.sqlite ".backup /var/backups/frete-kit/');
    const copy = new DatabaseSync(join(dataDir, 'copy.sqlite'), { readOnly: true });
    expect(copy.prepare('SELECT count(*) AS n FROM label_attempts').get()).toEqual({ n: 1 });
    copy.close();
  });
});
