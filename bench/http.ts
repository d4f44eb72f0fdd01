import autocannon from 'autocannon';
import { startBffProcess, startProcess, startSandboxProcess } from './processes.ts';
import { type Figure, median, round } from './stats.ts';

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * Autocannon for `seconds` (10 connections), as fast as the server answers or at `rate` requests a second: req/s,
 * p50, p99 and everything that was not a 2xx.
 */
export async function load(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  seconds: number,
  rate?: number,
): Promise<Load> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    connections: 10,
    duration: seconds,
    ...(rate === undefined ? {} : { overallRate: rate }),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

/** Alternates A and B `rounds` times, so both see the same machine noise; medians of each. */
export async function sideBySide(rounds: number, a: () => Promise<Load>, b: () => Promise<Load>) {
  const as: Load[] = [];
  const bs: Load[] = [];
  for (let i = 0; i < rounds; i++) {
    as.push(await a());
    bs.push(await b());
  }
  const summarize = (runs: Load[]) => ({
    rps: round(median(runs.map((r) => r.rps)), 0),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    runs,
  });
  return { a: summarize(as), b: summarize(bs) };
}

const CODES = ['DG049186226BR', 'SW371675211BR', 'QB123456785BR'];

/** Figure 3: the BFF's tracking API on cached codes vs the sandbox's /v1/tracking directly. */
export async function measureTrackingHop(rounds = 3, seconds = 4): Promise<Figure> {
  const sandbox = await startSandboxProcess();
  const bff = await startBffProcess(sandbox.url);
  try {
    await fetch(`${bff.url}/api/tracking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ codes: CODES }),
    }); // warm the cache
    const { a, b } = await sideBySide(
      rounds,
      () => load(`${bff.url}/api/tracking`, { codes: CODES }, {}, seconds),
      () =>
        load(
          `${sandbox.url}/v1/tracking`,
          { codes: CODES },
          { authorization: 'Bearer mk_test_demo' },
          seconds,
        ),
    );
    const added = a.p50 - b.p50;
    return {
      id: 3,
      figure:
        'BFF POST /api/tracking, cached codes (autocannon, 10 connections; each server in its own process)',
      value: `${a.rps} req/s, p50 ${a.p50} ms, p99 ${a.p99} ms`,
      comparedWith: `sandbox /v1/tracking: ${b.rps} req/s, p50 ${b.p50} ms, p99 ${b.p99} ms (hop adds ${added} ms at p50)`,
      goal: 'the BFF hop adds ≤ 2 ms at p50',
      met: added <= 2 && a.errors === 0,
      data: { bff: a, sandbox: b, rounds, seconds },
    };
  } finally {
    await bff.stop();
    await sandbox.stop();
  }
}

/** Figure 6: the sandbox's /v1/rates vs an empty Express 5 route on the same machine (the ceiling). */
export async function measureSandboxRates(rounds = 3, seconds = 4): Promise<Figure> {
  const sandbox = await startSandboxProcess();
  const empty = await startProcess('bench/empty-server.ts', {});
  const emptyUrl = empty.url;
  const body = {
    destinationCep: '20040-020',
    items: [{ name: 'Camiseta', quantity: 2, unitPriceBRL: 79.9, weightKg: 0.3 }],
  };
  try {
    const { a, b } = await sideBySide(
      rounds,
      () => load(`${sandbox.url}/v1/rates`, body, { authorization: 'Bearer pk_test_demo' }, seconds),
      () => load(emptyUrl, body, {}, seconds),
    );
    const ratio = a.rps / b.rps;
    return {
      id: 6,
      figure: 'sandbox POST /v1/rates (autocannon, 10 connections)',
      value: `${a.rps} req/s, p50 ${a.p50} ms`,
      comparedWith: `empty Express 5 route: ${b.rps} req/s (${ratio.toFixed(2)}× the ceiling)`,
      goal: '≥ 0.5× the ceiling',
      met: ratio >= 0.5 && a.errors === 0,
      data: { sandbox: a, empty: b, ratio: round(ratio, 3), rounds, seconds },
    };
  } finally {
    await empty.stop();
    await sandbox.stop();
  }
}
