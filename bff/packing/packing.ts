import { Worker } from 'node:worker_threads';
import type { Box } from '../../shared/packing/box.ts';
import type { PlanShipmentInput, PlanShipmentResult } from '../../shared/packing/plan.ts';
import type { PlanJob } from './plan-worker.ts';

export interface ShipmentPlansOptions {
  boxes: readonly Box[];
  /** How long one plan may pack before it is stopped and refused (`plan_too_slow`). Default 3 s. */
  budgetMs?: number;
  /** Plans that may wait for the packer beyond the one packing (more are refused: `planner_busy`). Default 4. */
  maxWaiting?: number;
}

interface Waiting {
  job: PlanJob;
  resolve: (result: PlanShipmentResult) => void;
  reject: (error: Error) => void;
}

/**
 * `plan_shipment` and the desk's plans, packed in a worker thread (plan-worker.ts), one plan at a time, each within a
 * time budget: the packer is CPU-bound (an order of 50 lines × 999 units took 1.2 s on the event loop, and every
 * visitor's tracking lookup waited behind it), so it never runs on the BFF's event loop. A plan over its budget is
 * stopped (the worker is ended and a new one started for the next) and refused; plans beyond the queue are refused
 * with when to ask again. The planner refuses a plan that could never be labelled before any packing.
 */
export class ShipmentPlans {
  private readonly boxes: readonly Box[];
  private readonly budgetMs: number;
  private readonly maxWaiting: number;
  private readonly queue: Waiting[] = [];
  private worker: Worker | undefined;
  private running: (Waiting & { timer: NodeJS.Timeout }) | undefined;
  private nextId = 1;
  private closed = false;

  constructor(options: ShipmentPlansOptions) {
    this.boxes = options.boxes;
    this.budgetMs = options.budgetMs ?? 3_000;
    this.maxWaiting = options.maxWaiting ?? 4;
  }

  /** The plan of an order (or why there is none), packed off the event loop within the budget. */
  plan(input: PlanShipmentInput): Promise<PlanShipmentResult> {
    if (this.queue.length >= this.maxWaiting) {
      const seconds = Math.ceil((this.budgetMs * (this.queue.length + 1)) / 1000);
      return Promise.resolve({
        reason: 'planner_busy',
        retryAfterSeconds: seconds,
        message: `Other plans are being packed; nothing was planned. Ask again in ${seconds} seconds.`,
      });
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, input, boxes: this.boxes }, resolve, reject });
      this.pump();
    });
  }

  /** Ends the worker; plans still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(new Error('the planner was closed'));
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.reject(new Error('the planner was closed'));
      this.running = undefined;
    }
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private pump(): void {
    if (this.running || this.closed) return;
    const next = this.queue.shift();
    if (!next) return;
    const timer = setTimeout(() => this.overBudget(), this.budgetMs);
    this.running = { ...next, timer };
    this.workerFor().postMessage(next.job);
  }

  private workerFor(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./plan-worker.ts', import.meta.url));
    // An idle packer does not keep the process alive.
    worker.unref();
    worker.on('message', (message: { id: number; result: PlanShipmentResult }) => this.done(message));
    worker.on('error', (error) => this.failed(worker, error));
    worker.on('exit', () => {
      if (this.worker === worker) this.failed(worker, new Error('the packer stopped'));
    });
    this.worker = worker;
    return worker;
  }

  private done(message: { id: number; result: PlanShipmentResult }): void {
    const running = this.running;
    if (!running || running.job.id !== message.id) return;
    clearTimeout(running.timer);
    this.running = undefined;
    running.resolve(message.result);
    this.pump();
  }

  private overBudget(): void {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    running.resolve({
      reason: 'plan_too_slow',
      message: `This order could not be packed within ${this.budgetMs / 1000} s; nothing was planned. Split it into shipments of fewer lines or units and plan each.`,
    });
    this.pump();
  }

  private failed(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.timer);
      running.reject(error);
    }
    this.pump();
  }
}
