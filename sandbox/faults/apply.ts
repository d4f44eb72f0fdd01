import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, Response } from 'express';
import { ApiError } from '../../shared/errors.ts';
import { jsonRpcError } from '../http/errors.ts';
import type { SandboxState } from '../state.ts';
import type { Fault } from './faults.ts';

/**
 * Applies the faults due on this call to `target`, latency first (faults on one target combine). Returns false when
 * the call was ended on purpose; under `drop_after_commit` it marks the response so the work is done and the answer
 * never sent.
 */
export async function applyFault(
  state: SandboxState,
  target: string,
  req: Request,
  res: Response,
): Promise<boolean> {
  for (const fault of state.faults.takeAll(target)) {
    if (!(await applyOne(fault, target, req, res))) return false;
  }
  return true;
}

async function applyOne(fault: Fault, target: string, req: Request, res: Response): Promise<boolean> {
  switch (fault.mode) {
    case 'latency':
      await sleep(fault.latencyMs ?? 1000);
      return true;
    case 'error502':
      if (target.startsWith('mcp:')) {
        jsonRpcError(res, 502, -32000, 'Bad gateway: the carrier is unavailable.');
        return false;
      }
      throw new ApiError(target === 'rates' ? 'quote_failed' : 'track_failed');
    case 'reset':
      req.socket.destroy();
      return false;
    case 'drop_after_commit':
      res.locals.dropAfterCommit = true;
      return true;
  }
}
