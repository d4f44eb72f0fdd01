import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../shared/http-server.ts';
import { holdConnections, mostAccepted } from '../testing/connections.ts';
import { type RunningSandbox, startSandbox } from './testing.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

describe('the sandbox server under idle and dribbling connections', () => {
  it('closes 3,000 idle or dribbling connections from one address: at most the cap held at once, each within the headers timeout', async () => {
    const held = await holdConnections(sandbox.url, 3_000, {
      held: () => sandbox.connectionsFrom('127.0.0.1'),
      refused: () => sandbox.refusedFrom('127.0.0.1'),
      accepted: () => sandbox.acceptedFrom('127.0.0.1'),
    });
    try {
      // Beyond the per-address cap, connections are closed on arrival.
      expect(held.maxHeld).toBeLessThanOrEqual(SERVER_LIMITS.connectionsPerAddress);
      // Beyond it, refused: what was let in is bounded by the timeout periods the flood spanned.
      expect(held.accepted).toBeLessThanOrEqual(mostAccepted(held.floodMs, SERVER_LIMITS));
      expect(held.refused).toBeGreaterThan(0);
      expect(held.accepted + held.refused).toBeLessThanOrEqual(3_000);
      // Each of the others within the headers timeout (checked every second, then closed), never the 70 s of Node's defaults.
      expect(await held.allClosed(30_000)).toBeLessThanOrEqual(SERVER_LIMITS.headersTimeoutMs + 5_000);
      // The server answers once the flood is gone.
      expect((await fetch(`${sandbox.url}/openapi.json`)).status).toBe(200);
    } finally {
      held.destroy();
    }
  }, 60_000);
});
