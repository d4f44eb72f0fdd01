import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';
import { ForksPoolWorker, type PoolOptions, type PoolWorker, type WorkerRequest } from 'vitest/node';

/**
 * A vitest pool whose one child process outlives a test run: Stryker starts a vitest run per mutant, and vitest's
 * own pools fork a new process for each run, which then imports every module again (about 0.3–0.4 s a mutant here,
 * more than most mutants' tests). Here the process is parked when a run ends and the next run goes to it, so the
 * modules it imported stay loaded. That is only faithful when mutants are switched on at run time (Stryker's
 * runtime activation: the instrumented code asks which mutant is active on every call), so run.ts uses it only for
 * the first pass, which ignores static mutants; the static pass reloads the modules for each mutant, as it must.
 *
 * What a run sees from the process is what vitest's `isolate: false` already gives between test files: the test
 * file itself is imported again each run, the modules it imports are not. The process is replaced after
 * `RECYCLE_AFTER` runs (200), so what runs leave behind (timers, sockets) cannot pile up.
 *
 * The worker protocol: vitest sends "start" to a new process and "stop" before it ends it. For a parked process,
 * both are answered here, and the test name filter, which vitest sends only with "start", goes with each run.
 *
 * A process is not reused when it could make the next run differ from a fresh one: it died; it ran a static mutant
 * (switched on when modules load); or it spoke after its run ended (a late console line or unhandled error from
 * work a test left running: nobody answers it between runs, and the next run would wait for that answer forever).
 *
 * It reads no private field; it does rely on what no semver promise covers: vitest's pool-worker protocol (marked
 * experimental: the messages, answering "start"/"stop" for a parked process, `testNamePattern` going with "start")
 * and Stryker's vitest runner (the `mutantActivation` it provides; `__stryker__` in reused-fork-setup.ts). Hence
 * `PINNED`: package.json pins these exact versions, and the pool refuses to start on any other.
 */
export const REUSED_FORK_POOL = 'mutation-reused-fork';

/** The versions this pool was checked against; package.json pins the same (reused-fork.test.ts checks both). */
export const PINNED: Readonly<Record<string, string>> = {
  vitest: '5.1.1',
  '@stryker-mutator/core': '10.1.1',
  '@stryker-mutator/vitest-runner': '10.1.1',
};

/** The installed versions of the pinned packages. */
export function installedVersions(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const versionOf = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  return Object.fromEntries(Object.keys(PINNED).map((name) => [name, versionOf(name)]));
}

/** Throws, naming each difference and what to do, unless the installed versions are the pinned ones. */
export function checkPinned(installed: Record<string, string> = installedVersions()): void {
  const wrong = Object.entries(PINNED).filter(([name, version]) => installed[name] !== version);
  if (wrong.length === 0) return;
  const found = wrong.map(([name, version]) => `${name} ${installed[name]} (pinned: ${version})`).join(', ');
  throw new Error(
    `scripts/mutation/reused-fork.ts relies on vitest's experimental pool protocol and Stryker's vitest runner as of the pinned versions; installed: ${found}. ` +
      'Check the pool against the new versions (reused-fork.test.ts), then update PINNED and package.json; or run `npm run mutation -- --fresh-forks`.',
  );
}

/** Runs a process serves before it is replaced (see above). */
const RECYCLE_AFTER = 200;

interface Parked {
  worker: ForksPoolWorker;
  runs: number;
  /** its run sent "testfileFinished": anything it sends from then on is left over from that run */
  finished: boolean;
  /** not to be reused (see above) */
  spoiled: boolean;
  /** its child process has not exited or closed its channel */
  alive: boolean;
}

/** Where one vitest instance's processes wait between runs, one per project (a process has its project's config). */
interface Parking {
  parked: Map<unknown, Parked>;
  recycleAfter: number;
}

const isWorkerResponse = (message: unknown): message is { type: string } =>
  typeof message === 'object' && message !== null && '__vitest_worker_response__' in message;

/**
 * A started process, watched for as long as it lives: whatever it sends after its run's "testfileFinished", while
 * vitest stops the runner or while it is parked, nobody answers, so it spoils the process. Its end is seen through the
 * worker's public events (its child process's `exit` and `disconnect`; vitest's own pool runner listens to `exit`).
 */
function hold(worker: ForksPoolWorker): Parked {
  const held: Parked = { worker, runs: 0, finished: false, spoiled: false, alive: true };
  worker.on('message', (message: unknown) => {
    if (isWorkerResponse(message) && message.type === 'testfileFinished') held.finished = true;
    else if (held.finished && !isWorkerResponse(message)) held.spoiled = true;
  });
  const ended = () => {
    held.alive = false;
  };
  worker.on('exit', ended);
  worker.on('disconnect', ended);
  return held;
}

/** Ends a process: awaited only while it runs (vitest's stop waits for an exit event a dead process already sent). */
async function end(held: Parked): Promise<void> {
  const stopping = held.worker.stop().catch(() => undefined);
  if (held.alive) await stopping;
}

/** Matches every test name: a run with no filter must not keep the previous run's one (see `send`). */
const EVERY_TEST = /(?:)/;

class ReusedForkWorker implements PoolWorker {
  readonly name = REUSED_FORK_POOL;
  readonly cacheFs = true;
  readonly #options: PoolOptions;
  readonly #parking: Parking;
  readonly #messages = new EventEmitter();
  #held: Parked | undefined;
  #reused = false;
  #stopAsked = false;
  #testNamePattern: RegExp | undefined;
  readonly #forward = (message: unknown) => this.#messages.emit('message', message);

  constructor(options: PoolOptions, parking: Parking) {
    this.#options = options;
    this.#parking = parking;
  }

  get #worker(): ForksPoolWorker {
    if (!this.#held) throw new Error('the reused fork was not started');
    return this.#held.worker;
  }

  on(event: string, callback: (...args: unknown[]) => void): void {
    if (event === 'message') this.#messages.on(event, callback);
    else this.#worker.on(event, callback);
  }

  off(event: string, callback: (...args: unknown[]) => void): void {
    if (event === 'message') this.#messages.off(event, callback);
    else this.#worker.off(event, callback);
  }

  #answer(type: 'started' | 'stopped'): void {
    queueMicrotask(() => this.#forward({ type, __vitest_worker_response__: true }));
  }

  send(message: WorkerRequest): void {
    if (message.type === 'start') {
      this.#testNamePattern = message.context.config.testNamePattern ?? undefined;
      if (this.#reused) {
        this.#answer('started');
        return;
      }
    } else if (message.type === 'stop') {
      this.#stopAsked = true;
      this.#answer('stopped');
      return;
    } else if (message.type === 'run' || message.type === 'collect') {
      // the process keeps the config of the run that started it; a file's own pattern takes precedence over it
      for (const file of message.context.files) file.testNamePattern ??= this.#testNamePattern ?? EVERY_TEST;
      if (this.#held) {
        this.#held.runs += 1;
        this.#held.finished = false;
        if (message.context.providedContext.mutantActivation === 'static') this.#held.spoiled = true;
      }
    }
    this.#worker.send(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  async start(): Promise<void> {
    const key = this.#options.project;
    const parked = this.#parking.parked.get(key);
    this.#parking.parked.delete(key);
    if (parked && !parked.spoiled && parked.alive) {
      this.#held = parked;
      this.#reused = true;
    } else {
      if (parked) void end(parked);
      const worker = new ForksPoolWorker(this.#options);
      await worker.start();
      this.#held = hold(worker);
    }
    this.#worker.on('message', this.#forward);
  }

  async stop(): Promise<void> {
    const held = this.#held;
    if (!held) return;
    this.#held = undefined;
    held.worker.off('message', this.#forward);
    const key = this.#options.project;
    // a forced stop (a run that failed to start or crashed) sends no "stop" first: that process is not kept
    if (
      this.#stopAsked &&
      !held.spoiled &&
      held.alive &&
      held.runs < this.#parking.recycleAfter &&
      !this.#parking.parked.has(key)
    ) {
      this.#parking.parked.set(key, held);
      return;
    }
    await end(held);
  }
}

/** The vitest plugin that makes the project run its files in the reused fork. */
export function reusedForkPool({ recycleAfter = RECYCLE_AFTER } = {}): Plugin {
  checkPinned();
  const parking: Parking = { parked: new Map(), recycleAfter };
  return {
    name: 'mutation-reused-fork',
    configureVitest({ vitest, project }) {
      // vitest ends the processes of its own pools when it closes; the parked one is ours to end
      vitest.onClose(async () => {
        const last = [...parking.parked.values()];
        parking.parked.clear();
        await Promise.all(last.map(end));
      });
      project.config.pool = REUSED_FORK_POOL;
      project.config.poolRunner = {
        name: REUSED_FORK_POOL,
        createPoolWorker: (options) => new ReusedForkWorker(options, parking),
      };
    },
  };
}
