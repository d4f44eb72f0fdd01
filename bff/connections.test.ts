import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { SERVER_LIMITS } from '../shared/http-server.ts';
import { holdConnections, mostAccepted } from '../testing/connections.ts';
import { type RunningBff, startBff } from './testing.ts';

let sandbox: RunningSandbox;
let bff: RunningBff;
beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url);
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

describe('the BFF server under idle and dribbling connections', () => {
  it('closes 3,000 idle or dribbling connections from one address: at most the cap held at once, each within the headers timeout', async () => {
    const held = await holdConnections(bff.url, 3_000, {
      held: () => bff.connectionsFrom('127.0.0.1'),
      refused: () => bff.refusedFrom('127.0.0.1'),
      accepted: () => bff.acceptedFrom('127.0.0.1'),
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
      expect((await fetch(`${bff.url}/healthz`)).status).toBe(200);
    } finally {
      held.destroy();
    }
  }, 60_000);

  it('does not cap the proxies BFF_TRUST_PROXY names (every visitor arrives through them), and caps anyone else', async () => {
    const limits = { connectionsPerAddress: 3 };
    const behindProxy = await startBff(sandbox.url, { BFF_TRUST_PROXY: 'loopback' }, {}, limits);
    const direct = await startBff(sandbox.url, { BFF_TRUST_PROXY: '10.0.0.0/8' }, {}, limits);
    const sockets: Socket[] = [];
    try {
      for (const target of [behindProxy, direct]) {
        const { port } = new URL(target.url);
        for (let i = 0; i < 6; i++) {
          const socket = connect({ host: '127.0.0.1', port: Number(port) });
          socket.on('error', () => undefined);
          socket.resume();
          sockets.push(socket);
          // Connected, or closed at once by the cap (possibly before this side has seen its connect).
          await new Promise((resolve) => {
            socket.once('connect', resolve);
            socket.once('close', resolve);
          });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(behindProxy.connectionsFrom('127.0.0.1')).toBe(6);
      expect(direct.connectionsFrom('127.0.0.1')).toBe(3);
    } finally {
      for (const socket of sockets) socket.destroy();
      await Promise.all([behindProxy.stop(), direct.stop()]);
    }
  });
});
