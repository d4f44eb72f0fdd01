import { EventEmitter } from 'node:events';
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
 */
export const REUSED_FORK_POOL = 'mutation-reused-fork';

/** Runs a process serves before it is replaced (see above). */
const RECYCLE_AFTER = 200;

interface Parked {
  worker: ForksPoolWorker;
  runs: number;
}

/** Where one vitest instance's process waits between runs. */
interface Parking {
  parked: Parked | undefined;
  recycleAfter: number;
}

/** Whether the worker's child process still runs and listens (vitest keeps it in a private field). */
function isAlive(worker: ForksPoolWorker): boolean {
  const fork = (
    worker as unknown as {
      _fork?: { exitCode: number | null; signalCode: string | null; connected: boolean };
    }
  )._fork;
  return fork !== undefined && fork.exitCode === null && fork.signalCode === null && fork.connected;
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
      if (this.#held) this.#held.runs += 1;
    }
    this.#worker.send(message);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  async start(): Promise<void> {
    const parked = this.#parking.parked;
    this.#parking.parked = undefined;
    if (parked && isAlive(parked.worker)) {
      this.#held = parked;
      this.#reused = true;
    } else {
      // a parked process that died meanwhile is replaced (not awaited: vitest's stop waits for output streams
      // that a dead process already closed)
      if (parked) void parked.worker.stop().catch(() => undefined);
      this.#held = { worker: new ForksPoolWorker(this.#options), runs: 0 };
      await this.#held.worker.start();
    }
    this.#worker.on('message', this.#forward);
  }

  async stop(): Promise<void> {
    const held = this.#held;
    if (!held) return;
    this.#held = undefined;
    held.worker.off('message', this.#forward);
    // a forced stop (a run that failed to start or crashed) sends no "stop" first: that process is not kept
    if (
      this.#stopAsked &&
      isAlive(held.worker) &&
      held.runs < this.#parking.recycleAfter &&
      !this.#parking.parked
    ) {
      this.#parking.parked = held;
      return;
    }
    await held.worker.stop();
  }
}

/** The vitest plugin that makes the project run its files in the reused fork. */
export function reusedForkPool({ recycleAfter = RECYCLE_AFTER } = {}): Plugin {
  const parking: Parking = { parked: undefined, recycleAfter };
  return {
    name: 'mutation-reused-fork',
    configureVitest({ vitest, project }) {
      // vitest ends the processes of its own pools when it closes; the parked one is ours to end
      vitest.onClose(async () => {
        const last = parking.parked;
        parking.parked = undefined;
        await last?.worker.stop();
      });
      project.config.pool = REUSED_FORK_POOL;
      project.config.poolRunner = {
        name: REUSED_FORK_POOL,
        createPoolWorker: (options) => new ReusedForkWorker(options, parking),
      };
    },
  };
}
