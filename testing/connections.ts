import { connect, type Socket } from 'node:net';

/** What a flood of held connections met (`holdConnections`). */
export interface HeldConnections {
  /** The most connections the server said it held at once (sampled every 20 ms while they were opened). */
  maxHeld: number;
  /** How many the server closed on arrival, and let in (its own counts: no clock decides them). */
  refused: number;
  accepted: number;
  /** How long opening them all took (ms): a busy machine takes longer, and held ones time out meanwhile. */
  floodMs: number;
  /**
   * Resolves, once the server has closed every connection, with the longest a connection lived (from its connect to
   * the server closing it); rejects after `timeoutMs` naming how many are still open.
   */
  allClosed(timeoutMs: number): Promise<number>;
  /** Closes what is left (the test's cleanup). */
  destroy(): void;
}

interface Held {
  socket: Socket;
  connectedAt?: number;
  closedAt?: number;
}

/**
 * Opens `count` connections to `url`'s host and port from 127.0.0.1, in batches (so the kernel's accept queue never
 * drops them): every even one sends nothing at all (idle), every odd one a request line and then one header line a
 * second, never finishing its headers (dribbling). A connection counts as closed when the server ends it; the test
 * closes none until `destroy`.
 */
export async function holdConnections(
  url: string,
  count: number,
  /** How many connections from 127.0.0.1 the server holds now, and has refused and let in, in all (its own counts). */
  server: { held: () => number; refused: () => number; accepted: () => number },
  batch = 250,
): Promise<HeldConnections> {
  const { hostname, port } = new URL(url);
  const all: Held[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  let maxHeld = 0;
  const refusedBefore = server.refused();
  const acceptedBefore = server.accepted();
  const floodStart = Date.now();
  const sampler = setInterval(() => {
    maxHeld = Math.max(maxHeld, server.held());
  }, 20);
  const open = (i: number) =>
    new Promise<void>((resolve) => {
      const held: Held = { socket: connect({ host: hostname, port: Number(port) }) };
      all.push(held);
      const { socket } = held;
      socket.on('error', () => undefined);
      // Read what arrives, as a real client does: a paused socket never sees the server's FIN (no `close`).
      socket.resume();
      socket.once('close', () => {
        held.closedAt = Date.now();
        resolve();
      });
      socket.once('connect', () => {
        held.connectedAt = Date.now();
        resolve();
        if (i % 2 === 0) return;
        socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`);
        const timer = setInterval(() => {
          if (!socket.destroyed) socket.write(`X-Slow-${i}: a\r\n`);
        }, 1_000);
        timers.push(timer);
        socket.once('close', () => clearInterval(timer));
      });
    });
  for (let from = 0; from < count; from += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, count - from) }, (_, k) => open(from + k)));
    // Give the server a moment to accept (and refuse) what just connected.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  clearInterval(sampler);
  const floodMs = Date.now() - floodStart;
  const stillOpen = () => all.filter((held) => held.closedAt === undefined).length;
  return {
    maxHeld,
    refused: server.refused() - refusedBefore,
    accepted: server.accepted() - acceptedBefore,
    floodMs,
    allClosed: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (stillOpen() > 0) {
        if (Date.now() > deadline) throw new Error(`${stillOpen()} of ${count} connections still open`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return Math.max(...all.map((held) => (held.closedAt ?? 0) - (held.connectedAt ?? held.closedAt ?? 0)));
    },
    destroy: () => {
      for (const timer of timers) clearInterval(timer);
      for (const held of all) held.socket.destroy();
    },
  };
}

/**
 * The most a server with this cap and headers timeout may have let in while connections kept coming for `floodMs`:
 * each slot holds a connection until the timeout closes it, so `cap` at first and at most `cap` more per timeout
 * period the flood spans. A fast flood (under one period) lets in at most 2 × cap; one slowed by a busy machine spans
 * more periods, and the bound follows it instead of a clock deciding. (Counted as let in by the server itself: a
 * starved server's full accept queue drops some attempts it never sees, so "refused" is no complement of it.)
 */
export function mostAccepted(
  floodMs: number,
  limits: { connectionsPerAddress: number; headersTimeoutMs: number },
): number {
  return limits.connectionsPerAddress * (1 + Math.max(1, Math.ceil(floodMs / limits.headersTimeoutMs)));
}
