import { makeS10 } from '../shared/s10.ts';
import { startBffProcess, startSandboxProcess } from './processes.ts';
import type { Figure } from './stats.ts';

/**
 * Figure 4: a burst of visitors looking up 1,000 distinct codes (one code each, 100 at a time) against a sandbox
 * with the spec's limit (60 calls per 60 s): upstream calls counted at the sandbox.
 */
export async function measureCoalescing(codes = 1000, concurrency = 100): Promise<Figure> {
  const sandbox = await startSandboxProcess('60/60');
  const bff = await startBffProcess(sandbox.url);
  const statuses = new Map<number, number>();
  try {
    const all = Array.from({ length: codes }, (_, i) => makeS10('QB', 70_000_000 + i));
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < all.length) {
          const code = all[next++] as string;
          const res = await fetch(`${bff.url}/api/tracking`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ codes: [code] }),
          });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    const elapsed = performance.now() - started;
    const stats = (await (await fetch(`${sandbox.url}/_sandbox/stats`)).json()) as {
      stores: Record<string, Record<string, number>>;
    };
    const upstream = stats.stores['loja-demo']?.['POST /v1/tracking'] ?? 0;
    const perCall = codes / Math.max(upstream, 1);
    const limited = statuses.get(429) ?? 0;
    const failed = [...statuses].filter(([status]) => status !== 200).reduce((sum, [, n]) => sum + n, 0);
    return {
      id: 4,
      figure: `coalescing: ${codes} visitors, one distinct code each, ${concurrency} at a time`,
      value: `${upstream} upstream calls (${perCall.toFixed(1)} lookups per call), ${limited} rate-limit errors to visitors`,
      comparedWith: 'upstream calls counted at the sandbox (limit 60/60)',
      goal: '≥ 20 lookups per upstream call, 0 rate-limit errors to visitors',
      met: perCall >= 20 && failed === 0,
      data: {
        codes,
        concurrency,
        upstream,
        perCall,
        statuses: Object.fromEntries(statuses),
        elapsedMs: Math.round(elapsed),
      },
    };
  } finally {
    await bff.stop();
    await sandbox.stop();
  }
}
