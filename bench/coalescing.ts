import { makeS10 } from '../shared/s10.ts';
import { startPostgres, startRedis } from '../testing/servers.ts';
import { type Process, startBffProcess, startSandboxProcess } from './processes.ts';
import type { Figure } from './stats.ts';

/** The `i`th visitor's address (10.x.y.z). */
const visitorAddress = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

interface Run {
  upstream: number;
  perCall: number;
  statuses: Record<number, number>;
  elapsedMs: number;
}

/**
 * `codes` visitors, one distinct code each, `concurrency` at a time, sent round-robin to the BFF instances; each
 * visitor with an address of its own, as a proxy on this host forwards it (one visitor's fair share of the store's
 * calls is 6 a minute).
 */
async function burst(
  sandbox: Process,
  bffs: Process[],
  codes: number,
  concurrency: number,
  serial: number,
): Promise<Run> {
  await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
  const statuses = new Map<number, number>();
  const all = Array.from({ length: codes }, (_, i) => makeS10('QB', serial + i));
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < all.length) {
        const i = next++;
        const bff = bffs[i % bffs.length] as Process;
        const res = await fetch(`${bff.url}/api/tracking`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': visitorAddress(i) },
          body: JSON.stringify({ codes: [all[i]] }),
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const elapsedMs = Math.round(performance.now() - started);
  const stats = (await (await fetch(`${sandbox.url}/_sandbox/stats`)).json()) as {
    stores: Record<string, Record<string, number>>;
  };
  const upstream = stats.stores['loja-demo']?.['POST /v1/tracking'] ?? 0;
  return {
    upstream,
    perCall: codes / Math.max(upstream, 1),
    statuses: Object.fromEntries(statuses),
    elapsedMs,
  };
}

/**
 * Figure 4: a burst of visitors looking up distinct codes against a sandbox with the spec's limit (60 calls per
 * 60 s), through one BFF and through three BFF processes sharing one Redis and one PostgreSQL (docs/architecture.md,
 * "Several instances"), side by side; upstream calls counted at the sandbox.
 */
export async function measureCoalescing(codes = 1500, concurrency = 100): Promise<Figure> {
  const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  const sandbox = await startSandboxProcess('60/60');
  const proxied = { BFF_TRUST_PROXY: 'loopback' };
  const one = await startBffProcess(sandbox.url, proxied);
  const databaseUrl = await postgres.createDatabase('bench_coalescing');
  const shared = { ...proxied, BFF_REDIS_URL: redis.url, BFF_DATABASE_URL: databaseUrl };
  const three = await Promise.all([0, 1, 2].map(() => startBffProcess(sandbox.url, shared)));
  try {
    const single = await burst(sandbox, [one], codes, concurrency, 70_000_000);
    const cluster = await burst(sandbox, three, codes, concurrency, 71_000_000);
    const failed = (run: Run) =>
      Object.entries(run.statuses).reduce((sum, [status, n]) => sum + (status === '200' ? 0 : n), 0);
    return {
      id: 4,
      figure: `coalescing: ${codes} visitors, one distinct code each, ${concurrency} at a time (1 BFF; 3 BFFs on one Redis + PostgreSQL, round-robin)`,
      value: `1 BFF: ${single.upstream} upstream calls (${single.perCall.toFixed(1)} lookups per call); 3 BFFs: ${cluster.upstream} calls (${cluster.perCall.toFixed(1)} per call); ${failed(single) + failed(cluster)} errors to visitors`,
      comparedWith: 'upstream calls counted at the sandbox (limit 60/60)',
      // Issue 38: back where it was before the fair shares and the watcher's lane (48.4 and 50.0).
      goal: '≥ 48 lookups per call with 1 BFF and with 3; 0 errors to visitors',
      met: single.perCall >= 48 && cluster.perCall >= 48 && failed(single) === 0 && failed(cluster) === 0,
      data: { codes, concurrency, single, cluster },
    };
  } finally {
    await Promise.all([one, ...three].map((bff) => bff.stop()));
    await sandbox.stop();
    await Promise.all([redis.close(), postgres.close()]);
  }
}
