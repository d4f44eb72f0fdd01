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
