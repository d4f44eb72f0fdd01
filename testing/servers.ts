import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { recordProcess } from './processes.ts';

const run = promisify(execFile);

/** Where Debian puts PostgreSQL 15's binaries (`apt-get install postgresql`); `PG_BIN` overrides it. */
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not start within ${timeoutMs} ms`);
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM); `start()` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing answers — a hung Redis. `resume()` thaws it. */
  pause(): void;
  resume(): void;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

async function redisPing(port: number): Promise<boolean> {
  const { stdout } = await run('redis-cli', ['-p', String(port), 'ping']);
  return stdout.trim() === 'PONG';
}

/** A real `redis-server` on a free port with no persistence, in a temp directory, for one test file. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bff-redis-'));
  let child: ChildProcess | undefined;
  let forget: (() => void) | undefined;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGCONT');
      running.kill('SIGTERM');
    });
  };
  const close = async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    forget?.();
  };
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    child = started;
    forget?.();
    if (started.pid) forget = recordProcess({ pid: started.pid, what: 'redis-server', dir }, close);
    await waitFor(() => redisPing(port), 'redis-server');
  };
  try {
    await start();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    close,
  };
}

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** A new, empty database on this server; its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown); `start()` brings it back on the same port with the same data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
  /** Ends it at once (SIGQUIT, immediate shutdown), synchronously: for a process's `exit` handler. */
  kill(): void;
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user (Debian's package makes it). */
function asPostgres(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['runuser', ['-u', 'postgres', '--', command, ...args]];
}

async function pg(command: string, args: string[]): Promise<void> {
  const [file, argv] = asPostgres(join(PG_BIN, command), args);
  await run(file, argv);
}

/** A real PostgreSQL 15 (`initdb -A trust`, `pg_ctl start`) on a free port in a temp directory, for one test file. */
export async function startPostgres(): Promise<PostgresServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bff-pg-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(dir, 'data');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  let forget: (() => void) | undefined;
  const stop = async () => {
    await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
  };
  const close = async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
    forget?.();
  };
  const start = async () => {
    await pg('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
    // pg_ctl detaches the postmaster: its pid is the first line of postmaster.pid.
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    forget?.();
    forget = recordProcess({ pid, what: 'PostgreSQL', dir, stopSignal: 'SIGQUIT' }, close);
  };
  try {
    await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    await start();
  } catch (error) {
    await close();
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    start,
    stop,
    close,
    kill: () => {
      try {
        process.kill(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGQUIT');
      } catch {
        // not running
      }
    },
    createDatabase: async (name) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error('database names here are lower-case identifiers');
      const [file, argv] = asPostgres(join(PG_BIN, 'createdb'), [
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        name,
      ]);
      await run(file, argv);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
  };
}

/** A database a test file has to itself, on PostgreSQL; `close()` lets it go (see `postgresDatabase`). */
export interface PostgresDatabase {
  url: string;
  close(): Promise<void>;
}

/** A mutation run's reused test process (scripts/mutation/reused-fork.ts): one PostgreSQL for all its runs. */
let processPostgres: Promise<PostgresServer> | undefined;
let processDatabases = 0;

/**
 * A new database named after `name` for one test file: on a server of the file's own (`startPostgres`), closed with
 * it. In a mutation run's reused test process (`MUTATION_REUSE_FORK=1`) one server serves every run of the process,
 * each run a database of its own: a mutant would otherwise wait for initdb and a start (seconds) before its first
 * test. That server is stopped when the process exits, else by the run's sweep (it is recorded as any other).
 */
export async function postgresDatabase(name: string): Promise<PostgresDatabase> {
  if (process.env.MUTATION_REUSE_FORK !== '1') {
    const own = await startPostgres();
    try {
      return { url: await own.createDatabase(name), close: () => own.close() };
    } catch (error) {
      await own.close();
      throw error;
    }
  }
  processPostgres ??= startPostgres().then((server) => {
    process.once('exit', () => server.kill());
    return server;
  });
  const server = await processPostgres;
  return { url: await server.createDatabase(`${name}_${++processDatabases}`), close: async () => {} };
}

/** One message an `SmtpServer` received, as a mail client would read it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The raw message as sent over the wire (headers and MIME parts). */
  raw: string;
}

export interface SmtpServer {
  /** `smtp://127.0.0.1:<port>`, for `BFF_SMTP_URL`. */
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` messages have arrived (in all), with them. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Addresses answered `550` at RCPT TO (a mailbox that does not exist). */
  refuse: Set<string>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on a free port of 127.0.0.1, in this process: the BFF holds a whole
 * SMTP conversation with it (EHLO, MAIL FROM, RCPT TO, DATA) and each message is parsed with `mailparser`, as a mail
 * client would. Plain text only (no STARTTLS offered), any sender, no authentication required.
 */
export async function startSmtp(): Promise<SmtpServer> {
  const { SMTPServer } = await import('smtp-server');
  const { simpleParser } = await import('mailparser');
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address)) {
        const error = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((mail) => {
            received.push({
              from: mail.from?.text ?? '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              raw,
            });
            for (const wake of waiters.splice(0)) wake();
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    waitFor: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${received.length} of ${count} e-mails within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One request a `WebhookReceiver` got, with what the reference library said of its signature. */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  body: string;
  /** The payload as `standardwebhooks`' `Webhook.verify` returned it; undefined when it refused the request. */
  verified: unknown;
  /** Why the reference library refused it. */
  refusal?: string;
  /** What the receiver answered (`hang`: nothing, the connection left open). */
  answered: number | 'hang';
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Decides the answer to the n-th request (0-based): a status, or `hang`. Default 200. */
  answer: (n: number, webhook: ReceivedWebhook) => number | 'hang';
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * The merchant's endpoint: an HTTP server on a free port of 127.0.0.1 that checks every request with the Standard
 * Webhooks reference library (`standardwebhooks`, `Webhook.verify`: signature and timestamp tolerance) and records it.
 */
export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const { Webhook } = await import('standardwebhooks');
  const { createServer: createHttpServer } = await import('node:http');
  const verifier = new Webhook(secret);
  const received: ReceivedWebhook[] = [];
  const hanging: import('node:http').ServerResponse[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    received,
    answer: () => 200,
    waitFor: async (count, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${received.length} of ${count} webhooks within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received.slice(0, count);
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      const webhook: ReceivedWebhook = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        body,
        verified: undefined,
        answered: 200,
      };
      try {
        webhook.verified = verifier.verify(body, headers);
      } catch (error) {
        webhook.refusal = error instanceof Error ? error.message : String(error);
      }
      const answer = webhook.verified === undefined ? 400 : receiver.answer(received.length, webhook);
      webhook.answered = answer;
      received.push(webhook);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiver.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
  return receiver;
}
