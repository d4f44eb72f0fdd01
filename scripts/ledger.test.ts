import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresLedger, sqliteLedger, type TestLedger } from '../bff/labels/testing/ledgers.ts';
import { connectAgent } from '../bff/labels/testing/soak.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../sandbox/testing.ts';
import { type PostgresServer, startPostgres } from '../testing/servers.ts';
import { type LedgerRun, ledgerCommand } from './ledger.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'ledger-cli-'));
// Held open for the whole file, as a running BFF holds it.
let bffStore: TestLedger;
const ids: Record<string, string> = {};

/** The platform `resolve --created` checks with (a sandbox), once started. */
let platformEnv: Record<string, string> = {};

/**
 * `npm run ledger -- <args>` run in this process (`ledgerCommand`, what the script's process prints): its own
 * connection to the ledger, the environment it would read. The first test runs it as its own process, as the
 * operator does beside a running BFF.
 */
function ledger(...args: string[]): Promise<LedgerRun> {
  return ledgerCommand(args, { PATH: process.env.PATH ?? '', BFF_DATA_DIR: dataDir, ...platformEnv });
}

/** `npm run ledger -- <args>` as its own process (`node scripts/ledger.ts`). */
async function ledgerProcess(...args: string[]): Promise<LedgerRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/ledger.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BFF_DATA_DIR: dataDir, ...platformEnv },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const request = (nome: string, numero: string) =>
  JSON.stringify({ recipient: { nome, endereco: { cep: '20040020', numero } }, weightGrams: 800 });

beforeAll(async () => {
  bffStore = sqliteLedger({ dataDir });
  const created = await bffStore.begin({ fingerprint: 'f1', request: request('Ana Souza', '10') });
  await bffStore.settle(created.id, { state: 'created', settledBy: 'answer', prepostagemId: 'PP1000000001' });
  const unknown = await bffStore.begin({ fingerprint: 'f2', request: request('Ana Sousa', '11') });
  await bffStore.settle(unknown.id, { state: 'unknown', settledBy: 'answer', note: 'no_match: …' });
  const other = await bffStore.begin({ fingerprint: 'f3', request: request('Bia Lima', '12') });
  await bffStore.settle(other.id, { state: 'unknown', settledBy: 'restart' });
  Object.assign(ids, { created: created.id, unknown: unknown.id, other: other.id });
});
afterAll(async () => {
  await bffStore.close();
});

describe('npm run ledger', () => {
  // One `npm run ledger` process a test: each starts Node and opens the file; two in one test reached its 20 s beside
  // two busy loops (a stressed soak of b9e2e02).
  it('lists attempts with their recipient while the BFF holds the file open', async () => {
    // Two processes on one node:sqlite file (WAL, busy timeout), as the operator beside a running BFF.
    const all = await ledgerProcess('list');
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('3 attempt(s)');
    expect(all.stdout).toContain('Ana Sousa, nº 11');
    expect(await ledger('list')).toEqual(all);
  });

  it('filters by state while the BFF holds the file open', async () => {
    const unknown = await ledgerProcess('list', '--state', 'unknown');
    expect(unknown.stdout).toContain(ids.unknown);
    expect(unknown.stdout).not.toContain(ids.created);
  });

  it('refuses a bad state, a bad id and a bad command with a plain message and a non-zero exit', async () => {
    const badState = await ledger('list', '--state', 'lost');
    expect(badState).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown state "lost"') });
    const badId = await ledger('show', 'no-such-id');
    expect(badId).toMatchObject({ code: 1, stderr: expect.stringContaining('no attempt no-such-id') });
    expect((await ledger('explode')).code).toBe(2);
    expect((await ledger('resolve', ids.unknown as string)).code).toBe(2);
  });

  it('shows one attempt with the request as sent and, when unknown, what to do', async () => {
    const shown = await ledger('show', ids.unknown as string);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('"nome": "Ana Sousa"');
    expect(shown.stdout).toContain(`npm run ledger -- resolve ${ids.unknown} --created <prepostagemId>`);
  });

  it('resolves an unknown attempt as not created, which lets the same request go again', async () => {
    // Unforced, "not created" is checked with the platform's history: without the BFF's configuration it is refused.
    const unchecked = await ledger('resolve', ids.other as string, '--not-created');
    expect(unchecked).toMatchObject({ code: 1, stderr: expect.stringContaining("the BFF's configuration") });
    expect(await bffStore.get(ids.other as string)).toMatchObject({ state: 'unknown' });
    const done = await ledger(
      'resolve',
      ids.other as string,
      '--not-created',
      '--force',
      'not in the carrier panel',
    );
    expect(done.code).toBe(0);
    expect(await bffStore.get(ids.other as string)).toMatchObject({
      state: 'not_sent',
      settledBy: 'operator',
      note: 'resolved by the operator (npm run ledger) (forced: not in the carrier panel)',
    });
    expect(await bffStore.openAttempt('f3')).toBeUndefined();
  });

  it('says plainly when there is no ledger at the data directory', async () => {
    const { stderr, code } = await run(process.execPath, ['scripts/ledger.ts', 'list'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BFF_DATA_DIR: join(dataDir, 'nowhere') },
    }).then(
      (ok) => ({ ...ok, code: 0 }),
      (e: { stderr: string; code: number }) => e,
    );
    expect(code).toBe(1);
    expect(stderr).toContain('no label ledger at');
  });
});

describe('npm run ledger -- resolve --created: checked with the platform (issue 29)', () => {
  let sandbox: RunningSandbox;
  let bff: RunningBff;
  /** The sample label to another street number: another order. */
  const order = (numero: string) => ({
    ...SAMPLE_LABEL,
    objectFormat: '2' as const,
    recipient: { ...SAMPLE_LABEL.recipient, endereco: { ...SAMPLE_LABEL.recipient.endereco, numero } },
  });
  const prepostings = async () =>
    (
      (await (await sandbox.control('prepostings', undefined, 'GET')).json()) as {
        prepostings: { prepostagemId: string; request: { recipient: { endereco: { numero: string } } } }[];
      }
    ).prepostings;
  /** An attempt whose outcome nobody knows: another client sent the identical request first, then the BFF's answer was lost. */
  async function ambiguous(numero: string): Promise<{ attemptId: string; theirs: string; ours: string }> {
    const other = await connectAgent(sandbox.url, 'mk_test_demo');
    await other.callTool({ name: 'generate_label', arguments: order(numero) });
    await other.close();
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'drop_after_commit', times: 1 });
    const answer = await bff.labels.generate(order(numero), { issuedBy: 'test' });
    if (answer.kind !== 'issued' || answer.outcome.kind !== 'unknown')
      throw new Error('expected an unknown outcome');
    const made = (await prepostings()).filter((p) => p.request.recipient.endereco.numero === numero);
    return {
      attemptId: answer.outcome.attemptId,
      theirs: made[0]?.prepostagemId ?? '',
      ours: made[1]?.prepostagemId ?? '',
    };
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ labelPdfDelayMs: 0 });
    const cliDir = mkdtempSync(join(tmpdir(), 'ledger-cli-platform-'));
    bff = await startBff(sandbox.url, { BFF_DATA_DIR: cliDir });
    platformEnv = {
      SHIPPING_SECRET_KEY: 'mk_test_demo',
      SHIPPING_API_URL: sandbox.url,
      BFF_DATA_DIR: cliDir,
    };
  });
  afterAll(async () => {
    platformEnv = {};
    await bff?.stop();
    await sandbox?.close();
  });

  it('binds a pre-posting the platform lists for this very request, seen at once by the running BFF', async () => {
    const { attemptId, ours } = await ambiguous('901');
    const done = await ledger('resolve', attemptId, '--created', ours);
    expect(done).toMatchObject({ code: 0, stdout: expect.stringContaining(`created with ${ours}`) });
    expect(await bff.ledger.get(attemptId)).toMatchObject({
      state: 'created',
      prepostagemId: ours,
      settledBy: 'operator',
      trackingCode: expect.stringMatching(/BR$/),
    });
    // The same decision again, or the other one: the attempt is settled.
    expect(await ledger('resolve', attemptId, '--not-created')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('refused (not_unknown)'),
    });
  });

  it('refuses "not created" while the history lists an unbound pre-posting of the same request, unless forced', async () => {
    const { attemptId } = await ambiguous('903');
    const refused = await ledger('resolve', attemptId, '--not-created');
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('refused (created_in_history)'),
    });
    expect(await bff.ledger.get(attemptId)).toMatchObject({ state: 'unknown' });
    const forced = await ledger(
      'resolve',
      attemptId,
      '--not-created',
      '--force',
      'carrier panel: cancelled both',
    );
    expect(forced.code).toBe(0);
    expect(await bff.ledger.get(attemptId)).toMatchObject({ state: 'not_sent', settledBy: 'operator' });
  });

  it("refuses another order's pre-posting, a malformed id and one already bound, changing nothing", async () => {
    const { attemptId } = await ambiguous('902');
    // 901's second pre-posting is the BFF's own, bound to its attempt by the decision above.
    const [, another] = (await prepostings()).filter((p) => p.request.recipient.endereco.numero === '901');
    const refusals = [
      [another?.prepostagemId ?? '', 'bound_elsewhere'],
      ['PP<script>', 'malformed_prepostagem_id'],
      ['PP1', 'malformed_prepostagem_id'],
      ['PP9999999999', 'not_confirmed'],
    ] as const;
    for (const [id, code] of refusals) {
      expect(await ledger('resolve', attemptId, '--created', id)).toMatchObject({
        code: 1,
        stderr: expect.stringContaining(`refused (${code})`),
      });
    }
    // The other client's pre-posting of 901 (unbound, and for another request than 902's).
    const { theirs: unbound } = {
      theirs:
        (await prepostings()).filter((p) => p.request.recipient.endereco.numero === '901')[0]
          ?.prepostagemId ?? '',
    };
    expect(await ledger('resolve', attemptId, '--created', unbound)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('refused (other_request)'),
    });
    expect((await bff.ledger.get(attemptId))?.state).toBe('unknown');
  });

  it('takes an unconfirmed decision only with a written reason, kept in the ledger and shown', async () => {
    await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset', times: 1 });
    const answer = await bff.labels.generate(order('903'), { issuedBy: 'test' });
    const attemptId =
      answer.kind === 'issued' && answer.outcome.kind === 'unknown' ? answer.outcome.attemptId : '';
    expect(await ledger('resolve', attemptId, '--created', 'PP7777777777')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('refused (not_confirmed)'),
    });
    expect(await ledger('resolve', attemptId, '--created', 'PP7777777777', '--force', 'ok')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('refused (reason_required)'),
    });
    const reason = 'found it in the carrier panel, order 903, 24/11';
    const forced = await ledger('resolve', attemptId, '--created', 'PP7777777777', '--force', reason);
    expect(forced.code).toBe(0);
    const shown = await ledger('show', attemptId);
    expect(shown.stdout).toContain(`forced: ${reason}`);
  });
});

describe('npm run ledger with BFF_DATABASE_URL (several instances)', () => {
  let postgres: PostgresServer;
  let url: string;
  beforeAll(async () => {
    postgres = await startPostgres();
    url = await postgres.createDatabase('ledger_cli');
  });
  afterAll(async () => {
    await postgres?.close();
  });

  const cli = (...args: string[]) =>
    run(process.execPath, ['scripts/ledger.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BFF_DATABASE_URL: url, BFF_DATA_DIR: join(dataDir, 'nowhere') },
    }).then(
      (ok) => ({ ...ok, code: 0 }),
      (e: { stdout: string; stderr: string; code: number }) => e,
    );

  it('reads and settles the PostgreSQL ledger the instances share, not the embedded one', async () => {
    const store = postgresLedger({ url });
    try {
      const attempt = await store.begin({ fingerprint: 'pg-1', request: request('Caio Prado', '7') });
      await store.settle(attempt.id, { state: 'unknown', settledBy: 'answer' });
      const listed = await cli('list', '--state', 'unknown');
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(attempt.id);
      expect(listed.stdout).toContain('Caio Prado');
      expect(listed.stdout).not.toContain(ids.unknown);
      const resolved = await cli(
        'resolve',
        attempt.id,
        '--not-created',
        '--force',
        'checked the carrier panel',
      );
      expect(resolved.code).toBe(0);
      expect(await store.get(attempt.id)).toMatchObject({ state: 'not_sent', settledBy: 'operator' });
    } finally {
      await store.close();
    }
  });

  it('says plainly when PostgreSQL cannot be reached', async () => {
    const down = await run(process.execPath, ['scripts/ledger.ts', 'list'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', BFF_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    }).then(
      (ok) => ({ ...ok, code: 0 }),
      (e: { stderr: string; code: number }) => e,
    );
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^BFF_DATABASE_URL: PostgreSQL cannot be reached/);
  });
});
