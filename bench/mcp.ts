import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BENCH_AGENT_TOKEN, startBffProcess, startSandboxProcess } from './processes.ts';
import { type Figure, median, round } from './stats.ts';

async function client(url: string, token: string): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return c;
}

let serial = 0;

/** One call's latency; `distinct` makes the quote new (nothing can answer from a cache). */
async function timeCall(c: Client, distinct: boolean): Promise<number> {
  serial += 1;
  const quantity = distinct ? 1 + (serial % 10_000) : 1;
  const args = {
    destinationCep: '20040-020',
    items: [{ name: 'Camiseta', quantity, unitPriceBRL: 79.9, weightKg: 0.001 }],
  };
  const started = performance.now();
  await c.callTool({ name: 'get_shipping_rates', arguments: args });
  return performance.now() - started;
}

/**
 * Medians of `calls` sequential calls of each kind, the kinds alternating call by call (a new quote through the BFF,
 * one directly, a repeated one through the BFF): a burst of the machine's load falls on all three alike, where
 * rounds of 100 calls of one kind moved 2–5× apart on the shared machine.
 */
async function timeRound(viaBff: Client, direct: Client, calls: number) {
  const bffNew: number[] = [];
  const directNew: number[] = [];
  const bffRepeat: number[] = [];
  for (let i = 0; i < calls; i++) {
    bffNew.push(await timeCall(viaBff, true));
    directNew.push(await timeCall(direct, true));
    bffRepeat.push(await timeCall(viaBff, false));
  }
  return { bffNew: median(bffNew), directNew: median(directNew), bffRepeat: median(bffRepeat) };
}

/** Figure 5: tools/call get_shipping_rates through the BFF vs the same call on the sandbox's MCP. */
export async function measureMcp(rounds = 3, calls = 100): Promise<Figure> {
  const sandbox = await startSandboxProcess();
  // The platform's limit as the sandbox's (none to speak of): this figure times the hop, not the quote shares.
  const bff = await startBffProcess(sandbox.url, { SHIPPING_RATE_LIMIT: '10000000/60' });
  const viaBff = await client(`${bff.url}/mcp`, BENCH_AGENT_TOKEN);
  const direct = await client(`${sandbox.url}/mcp`, 'mk_test_demo');
  try {
    await timeRound(viaBff, direct, 20);
    const bffNew: number[] = [];
    const bffRepeat: number[] = [];
    const directNew: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const round = await timeRound(viaBff, direct, calls);
      bffNew.push(round.bffNew);
      directNew.push(round.directNew);
      bffRepeat.push(round.bffRepeat);
    }
    const fresh = median(bffNew);
    const repeat = median(bffRepeat);
    const directMs = median(directNew);
    const ratio = fresh / directMs;
    return {
      id: 5,
      figure:
        'MCP tools/call get_shipping_rates through the BFF (sequential calls, alternating call by call)',
      value: `p50 ${round(fresh)} ms per new quote; ${round(repeat)} ms for a repeated quote (BFF cache)`,
      comparedWith: `sandbox MCP directly: p50 ${round(directMs)} ms (new quotes ${ratio.toFixed(2)}×, repeated ${(repeat / directMs).toFixed(2)}×)`,
      goal: '≤ 1.5× (judged on new quotes)',
      met: ratio <= 1.5,
      data: {
        bffNewMs: bffNew.map((v) => round(v)),
        bffRepeatMs: bffRepeat.map((v) => round(v)),
        directNewMs: directNew.map((v) => round(v)),
        ratio: round(ratio, 3),
        rounds,
        calls,
      },
    };
  } finally {
    await viaBff.close();
    await direct.close();
    await bff.stop();
    await sandbox.stop();
  }
}
