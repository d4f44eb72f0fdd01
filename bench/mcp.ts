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

/** Median latency of sequential calls; `distinct` makes every quote new (nothing can answer from a cache). */
async function timeCalls(c: Client, calls: number, distinct: boolean): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    serial += 1;
    const quantity = distinct ? 1 + (serial % 10_000) : 1;
    const args = {
      destinationCep: '20040-020',
      items: [{ name: 'Camiseta', quantity, unitPriceBRL: 79.9, weightKg: 0.001 }],
    };
    const started = performance.now();
    await c.callTool({ name: 'get_shipping_rates', arguments: args });
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Figure 5: tools/call get_shipping_rates through the BFF vs the same call on the sandbox's MCP. */
export async function measureMcp(rounds = 3, calls = 100): Promise<Figure> {
  const sandbox = await startSandboxProcess();
  // The platform's limit as the sandbox's (none to speak of): this figure times the hop, not the quote shares.
  const bff = await startBffProcess(sandbox.url, { SHIPPING_RATE_LIMIT: '10000000/60' });
  const viaBff = await client(`${bff.url}/mcp`, BENCH_AGENT_TOKEN);
  const direct = await client(`${sandbox.url}/mcp`, 'mk_test_demo');
  try {
    await timeCalls(viaBff, 10, true);
    await timeCalls(direct, 10, true);
    const bffNew: number[] = [];
    const bffRepeat: number[] = [];
    const directNew: number[] = [];
    for (let i = 0; i < rounds; i++) {
      bffNew.push(await timeCalls(viaBff, calls, true));
      directNew.push(await timeCalls(direct, calls, true));
      bffRepeat.push(await timeCalls(viaBff, calls, false));
    }
    const fresh = median(bffNew);
    const repeat = median(bffRepeat);
    const directMs = median(directNew);
    const ratio = fresh / directMs;
    return {
      id: 5,
      figure: 'MCP tools/call get_shipping_rates through the BFF (sequential calls)',
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
