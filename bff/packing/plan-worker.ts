import { parentPort } from 'node:worker_threads';
import type { Box } from '../../shared/packing/box.ts';
import type { PlanShipmentInput } from '../../shared/packing/plan.ts';
import { planShipment } from '../../shared/packing/planner.ts';

/** One plan asked of the worker, and its answer. */
export interface PlanJob {
  id: number;
  input: PlanShipmentInput;
  boxes: readonly Box[];
}

// The packer is pure and CPU-bound: here it runs off the BFF's event loop (bff/packing/packing.ts).
parentPort?.on('message', (job: PlanJob) => {
  parentPort?.postMessage({ id: job.id, result: planShipment(job.input, job.boxes) });
});
