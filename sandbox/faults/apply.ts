import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, Response } from 'express';
import { ApiError } from '../../shared/errors.ts';
import type { SandboxState } from '../state.ts';

/**
 * Applies the fault due on this call to `target`. Returns false when the connection was reset on purpose;
 * under `drop_after_commit` it marks the response so the work is done and the answer never sent.
 */
export async function applyFault(
  state: SandboxState,
  target: string,
  req: Request,
  res: Response,
): Promise<boolean> {
  const fault = state.faults.take(target);
  if (!fault) return true;
  switch (fault.mode) {
    case 'latency':
      await sleep(fault.latencyMs ?? 1000);
      return true;
    case 'error502':
      if (target.startsWith('mcp:')) {
        res.status(502).json({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Bad gateway: the carrier is unavailable.' },
          id: null,
        });
        return false;
      }
      throw new ApiError(
        target === 'rates' ? 'quote_failed' : 'track_failed',
        'The carrier could not be queried; try again.',
      );
    case 'reset':
      req.socket.destroy();
      return false;
    case 'drop_after_commit':
      res.locals.dropAfterCommit = true;
      return true;
  }
}
