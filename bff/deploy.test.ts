import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { startBff } from './testing.ts';

/**
 * docs/deploy.md puts the BFF behind one reverse proxy (Caddy or nginx) on the same host that appends the client's
 * address to X-Forwarded-For, and says BFF_TRUST_PROXY=loopback (the proxy by its address; a hop count such as 1
 * works too while the BFF is reachable only through it; true is refused at start). This is the attack that choice
 * stops: a visitor who sends their own X-Forwarded-For to get a fresh per-visitor limit on every request.
 */
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

/** What the proxy forwards: whatever the visitor sent, then the address the proxy saw (nginx's $proxy_add_x_forwarded_for). */
const viaProxy = (spoofed: string | undefined, visitor: string) => ({
  'x-forwarded-for': spoofed ? `${spoofed}, ${visitor}` : visitor,
});

async function statuses(trustProxy: string): Promise<number[]> {
  const bff = await startBff(sandbox.url, { BFF_VISITOR_RATE_LIMIT: '2/60', BFF_TRUST_PROXY: trustProxy });
  try {
    const out: number[] = [];
    for (const spoofed of [undefined, '198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      out.push((await bff.track(['DG049186226BR'], viaProxy(spoofed, '203.0.113.7'))).status);
    }
    // Another real visitor behind the same proxy keeps their own budget.
    out.push((await bff.track(['DG049186226BR'], viaProxy(undefined, '203.0.113.8'))).status);
    return out;
  } finally {
    await bff.stop();
  }
}

describe('BFF_TRUST_PROXY behind one proxy', () => {
  it('with loopback (the documented value) or 1, a visitor cannot dodge the limit with a forged X-Forwarded-For', async () => {
    expect(await statuses('loopback')).toEqual([200, 200, 429, 429, 200]);
    expect(await statuses('1')).toEqual([200, 200, 429, 429, 200]);
  });

  it('refuses true at start: it would let a forged header buy a fresh limit each time', async () => {
    await expect(statuses('true')).rejects.toThrow(
      /BFF_TRUST_PROXY=true would let any visitor choose their IP/,
    );
  });
});
