import { rmSync } from 'node:fs';
import { makeRunDir, RUN_DIR_REMOVAL, RUN_DIR_VARIABLE, sweep, sweepNow } from './processes.ts';

/**
 * The run's directory of started processes and temporary files (testing/processes.ts). `npm test` (scripts/test.ts)
 * makes it and sweeps it itself; a bare `vitest run` gets one here, swept when the run ends — and on the way out of an interrupted run,
 * where vitest exits without calling this teardown (the `exit` handler, which cannot wait, only signals).
 */
export default function setup(): () => Promise<void> {
  if (process.env[RUN_DIR_VARIABLE]) return async () => undefined;
  const { runDir, tmp } = makeRunDir();
  process.env[RUN_DIR_VARIABLE] = runDir;
  process.env.TMPDIR = tmp;
  const onExit = () => {
    sweepNow(runDir);
    rmSync(runDir, RUN_DIR_REMOVAL);
  };
  process.once('exit', onExit);
  return async () => {
    process.off('exit', onExit);
    const stopped = await sweep(runDir);
    if (stopped.length > 0)
      process.stderr.write(`stopped what the tests left running: ${stopped.join(', ')}\n`);
    rmSync(runDir, RUN_DIR_REMOVAL);
  };
}
