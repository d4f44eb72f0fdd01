/**
 * The operator's view of the label ledger, on the same storage as a running BFF (node:sqlite in WAL mode with a busy
 * timeout, so both can use the file at once):
 *
 *   npm run ledger -- list [--state pending|created|rejected|unknown|not_sent]
 *   npm run ledger -- show <attemptId>
 *   npm run ledger -- resolve <attemptId> (--created <prepostagemId> | --not-created) [--force "<reason>"]
 *
 * `resolve` is checked with the platform's history (bff/labels/decisions.ts): `--created` must be listed there, and
 * `--not-created` is refused while a pre-posting of the same request is listed unbound. It needs the BFF's
 * configuration (SHIPPING_SECRET_KEY, SHIPPING_API_URL / SHIPPING_MCP_URL), read from the environment and `.env`
 * like the BFF; a decision with `--force "<reason>"` does not.
 *
 * Exit 0 when done; 1 with a plain message when the id, state or decision is refused; 2 for a bad command line.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { ledgerDatabase } from '../bff/backends/backends.ts';
import { type BffConfig, ConfigError, parseConfig, parseDataDir } from '../bff/config.ts';
import { DecisionRefused, OperatorDecisions } from '../bff/labels/decisions.ts';
import { ATTEMPT_STATES, type AttemptState, type LedgerAttempt } from '../bff/labels/ledger.ts';
import { LedgerStore } from '../bff/labels/ledger-store.ts';
import { createLogger } from '../bff/logger.ts';
import { PlatformMcp, type PlatformPort } from '../bff/upstream/platform-mcp.ts';

/** Enough of a stored request to name its recipient (older ledgers kept only a summary: then '-'). */
const RecipientSchema = z.object({
  recipient: z.object({ nome: z.string(), endereco: z.object({ numero: z.string(), cep: z.string() }) }),
});

const USAGE = `usage:
  npm run ledger -- list [--state ${ATTEMPT_STATES.join('|')}]
  npm run ledger -- show <attemptId>
  npm run ledger -- resolve <attemptId> (--created <prepostagemId> | --not-created) [--force "<reason>"]`;

/** A refusal the operator reads: a plain message and an exit code. */
class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index === -1) return undefined;
  const value = args[index + 1];
  if (!value || value.startsWith('--')) throw new CliError(`${name} needs a value\n${USAGE}`, 2);
  return value;
}

function iso(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString();
}

/** Who the label is for, from the request as sent (the operator's way to find the order). */
function recipientOf(attempt: LedgerAttempt): string {
  let raw: unknown;
  try {
    raw = JSON.parse(attempt.request);
  } catch {
    return '-';
  }
  const parsed = RecipientSchema.safeParse(raw);
  if (!parsed.success) return '-';
  const { nome, endereco } = parsed.data.recipient;
  return `${nome}, nº ${endereco.numero}, CEP ${endereco.cep}`;
}

function listLine(a: LedgerAttempt): string {
  return [a.id, a.state.padEnd(8), iso(a.createdAt), a.prepostagemId ?? '-', recipientOf(a)].join('  ');
}

async function list(store: LedgerStore, args: string[]): Promise<string> {
  const state = option(args, '--state');
  if (state !== undefined && !ATTEMPT_STATES.includes(state as AttemptState)) {
    throw new CliError(`unknown state "${state}": one of ${ATTEMPT_STATES.join(', ')}`);
  }
  const attempts = await store.list(state ? { state: state as AttemptState } : {});
  if (attempts.length === 0) return state ? `no attempt is ${state}` : 'the ledger is empty';
  const head = [
    'attempt id'.padEnd(36),
    'state   ',
    'written at'.padEnd(24),
    'prepostagemId',
    'recipient',
  ].join('  ');
  return [head, ...attempts.map(listLine), `${attempts.length} attempt(s)`].join('\n');
}

async function mustGet(store: LedgerStore, id: string | undefined): Promise<LedgerAttempt> {
  if (!id || id.startsWith('--')) throw new CliError(`an attempt id is needed\n${USAGE}`, 2);
  const attempt = await store.get(id);
  if (!attempt) throw new CliError(`no attempt ${id} in the ledger (see: npm run ledger -- list)`);
  return attempt;
}

function describe(a: LedgerAttempt): string {
  const rows: [string, string | null][] = [
    ['attempt', a.id],
    ['state', a.state],
    ['written at', iso(a.createdAt)],
    ['settled at', iso(a.settledAt)],
    ['settled by', a.settledBy],
    ['idempotencyKey', a.idempotencyKey],
    ['prepostagemId', a.prepostagemId],
    ['trackingCode', a.trackingCode],
    ['supportCode', a.supportCode],
    ['status', a.status],
    ['reason', a.reason],
    ['why unknown', a.unknownWhy],
    ['order', a.orderId === null ? null : `${a.orderId}, volume ${a.volume ?? 1}`],
    ['issued by', a.issuedBy],
    ['note', a.note],
    ['recipient', recipientOf(a)],
  ];
  const lines = rows.map(([k, v]) => `${k.padEnd(15)} ${v ?? '-'}`);
  let request = a.request;
  try {
    request = JSON.stringify(JSON.parse(a.request), null, 2);
  } catch {}
  const next =
    a.state === 'unknown'
      ? `\nThe outcome is unknown. Compare it with the platform's history in the desk (/admin/labels), or look for this request in the carrier's panel, then:\n  npm run ledger -- resolve ${a.id} --created <prepostagemId>   (it exists: checked with the platform)\n  npm run ledger -- resolve ${a.id} --not-created              (it does not: the request may be sent again)\n  add --force "<what you checked>" when the platform's history no longer lists it, or cannot be read`
      : '';
  return `${lines.join('\n')}\nrequest as sent:\n${request}${next}`;
}

async function resolve(decisions: (checked: boolean) => OperatorDecisions, args: string[]): Promise<string> {
  const id = args[0];
  if (!id || id.startsWith('--')) throw new CliError(`an attempt id is needed\n${USAGE}`, 2);
  const created = option(args, '--created');
  const notCreated = args.includes('--not-created');
  if (Boolean(created) === notCreated) {
    throw new CliError(`say either --created <prepostagemId> or --not-created\n${USAGE}`, 2);
  }
  const reason = args.includes('--force') ? (option(args, '--force') ?? '') : undefined;
  try {
    // Every decision is checked with the platform's history, unless a person forces it with a written reason; a forced
    // "created" still reads the history when the BFF's configuration is at hand (it must not list the pre-posting
    // for another request), and goes on without it when it is not.
    const settled = await checkedUnlessForced(decisions, reason === undefined, Boolean(created)).resolve(
      id,
      created ? { created } : { notCreated: true },
      {
        by: 'the operator (npm run ledger)',
        force: reason === undefined ? undefined : { reason },
      },
    );
    return created
      ? `attempt ${settled.id} is created with ${settled.prepostagemId}; the same request now returns this label`
      : `attempt ${settled.id} is settled as not created; the same request may be sent again`;
  } catch (error) {
    if (error instanceof DecisionRefused) throw new CliError(`refused (${error.code}): ${error.message}`);
    throw error;
  }
}

/** The operator's decisions, checked with the platform when the decision is unforced or binds a pre-posting. */
function checkedUnlessForced(
  decisions: (checked: boolean) => OperatorDecisions,
  unforced: boolean,
  binds: boolean,
): OperatorDecisions {
  if (unforced) return decisions(true);
  if (!binds) return decisions(false);
  try {
    return decisions(true);
  } catch (error) {
    if (error instanceof CliError) return decisions(false);
    throw error;
  }
}

/** What a decision that asks nothing of the platform is made with: asking it would be a bug, said plainly. */
const NO_PLATFORM: PlatformPort = {
  call: () => Promise.reject(new Error('this decision does not ask the platform')),
  read: () => Promise.reject(new Error('this decision does not ask the platform')),
};

/**
 * Runs one command on the ledger. `decisions` is made only for `resolve`, which asks the platform (so `list` and
 * `show` need nothing but the ledger).
 */
export async function runLedgerCli(
  args: string[],
  store: LedgerStore,
  decisions: (checked: boolean) => OperatorDecisions,
): Promise<string> {
  const [command, ...rest] = args;
  switch (command) {
    case 'list':
      return list(store, rest);
    case 'show':
      return describe(await mustGet(store, rest[0]));
    case 'resolve':
      return resolve(decisions, rest);
    default:
      throw new CliError(command ? `unknown command "${command}"\n${USAGE}` : USAGE, 2);
  }
}

/** The BFF's ledger: PostgreSQL when `BFF_DATABASE_URL` is set (several instances), else node:sqlite in `BFF_DATA_DIR`. */
async function openLedger(env: Env): Promise<{ store: LedgerStore; close(): Promise<void> }> {
  const databaseUrl = env.BFF_DATABASE_URL?.trim() || undefined;
  const dataDir = parseDataDir(env);
  if (!databaseUrl && !existsSync(join(dataDir, 'labels.sqlite'))) {
    throw new CliError(
      `no label ledger at ${join(dataDir, 'labels.sqlite')} (set BFF_DATA_DIR to the BFF's)`,
    );
  }
  const sql = ledgerDatabase({ databaseUrl, dataDir });
  const store = new LedgerStore(sql);
  try {
    await store.ready;
  } catch (error) {
    await sql.close().catch(() => undefined);
    const why = error instanceof Error ? error.message : String(error);
    throw new CliError(
      databaseUrl
        ? `BFF_DATABASE_URL: PostgreSQL cannot be reached (${why})`
        : `the label ledger cannot be opened (${why})`,
    );
  }
  return { store, close: () => sql.close() };
}

type Env = Record<string, string | undefined>;

/** What one run of the command came to: its exit code and what it wrote. */
export interface LedgerRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run ledger -- <args>` as a function of its arguments and environment (the process below only prints what it
 * answers), so its tests run it without starting a process each time.
 */
export async function ledgerCommand(args: string[], env: Env): Promise<LedgerRun> {
  const failed = (error: unknown, code = 1): LedgerRun => ({
    code: error instanceof CliError ? error.exitCode : code,
    stdout: '',
    stderr: `${error instanceof CliError ? error.message : String(error)}\n`,
  });
  let ledger: { store: LedgerStore; close(): Promise<void> };
  try {
    ledger = await openLedger(env);
  } catch (error) {
    return failed(error instanceof CliError ? new CliError(error.message) : error);
  }
  const { store } = ledger;
  let platform: PlatformMcp | undefined;
  const decisions = (checked: boolean) => {
    if (!checked) return new OperatorDecisions({ ledger: store, platform: NO_PLATFORM });
    let config: BffConfig;
    try {
      config = parseConfig(env);
    } catch (error) {
      throw new CliError(
        `resolve checks the decision with the platform, with the BFF's configuration: ${error instanceof ConfigError ? error.message : 'it is invalid'}`,
      );
    }
    platform = new PlatformMcp({
      url: config.mcpUrl,
      secretKey: config.secretKey,
      logger: createLogger({ level: 'silent' }),
    });
    return new OperatorDecisions({ ledger: store, platform });
  };
  try {
    return { code: 0, stdout: `${await runLedgerCli(args, store, decisions)}\n`, stderr: '' };
  } catch (error) {
    return failed(error);
  } finally {
    await platform?.close();
    await ledger.close();
  }
}

if (import.meta.main) {
  const run = await ledgerCommand(process.argv.slice(2), process.env);
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  process.exitCode = run.code;
}
