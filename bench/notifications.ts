import { issueLabel, orderLabel, WEBHOOK_SECRET } from '../bff/notifications/testing/harness.ts';
import { makeS10 } from '../shared/s10.ts';
import { ShipmentEventSchema } from '../shared/shipment-events.ts';
import { loopbackAddress, requestFrom } from '../testing/from-address.ts';
import { startWebhookReceiver } from '../testing/receivers.ts';
import { BENCH_AGENT_TOKEN, startBffProcess, startSandboxProcess } from './processes.ts';
import { type Figure, median, round } from './stats.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Figure 11: the watcher beside visitors, against a sandbox that enforces the spec's limit (60 tracking calls a minute).
 * One BFF process with its watcher every `cadenceS` seconds and `BFF_WATCH_SHARE=0.2` follows `labels` labels while
 * visitors look up uncached codes at `uncachedPerMinute` (near their 48 calls) and cached codes at 10 a second. The
 * sandbox's clock is moved twice; each move changes every label, and the time from the move to each webhook is
 * measured at the receiver. Platform calls are sampled from the sandbox every second.
 */
export async function measureNotifications(
  labels = 150,
  cadenceS = 20,
  uncachedPerMinute = 44,
): Promise<Figure> {
  const receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  const arrivals: { at: number; body: string }[] = [];
  receiver.answer = (_n, webhook) => {
    arrivals.push({ at: Date.now(), body: webhook.body });
    return 200;
  };
  const sandbox = await startSandboxProcess('60/60');
  const bff = await startBffProcess(sandbox.url, {
    SHIPPING_RATE_LIMIT: '60/60',
    BFF_WATCH_SHARE: '0.2',
    BFF_WATCH_INTERVAL_S: String(cadenceS),
    BFF_WEBHOOK_URL: receiver.url,
    BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
    BFF_VISITOR_RATE_LIMIT: '100000/60',
  });
  const calls: { at: number; n: number }[] = [];
  const statuses = new Map<string, number>();
  let stop = false;
  try {
    for (let i = 0; i < labels; i += 4) {
      await Promise.all(
        [0, 1, 2, 3]
          .filter((k) => i + k < labels)
          .map((k) => issueLabel(bff.url, orderLabel(`BENCH-${i + k}`), BENCH_AGENT_TOKEN)),
      );
    }
    // Every label watched (its first status, "no events", recorded) before anything moves.
    await sleep((cadenceS + 5) * 1000);

    const sample = async () => {
      while (!stop) {
        const stats = (await (await fetch(`${sandbox.url}/_sandbox/stats`)).json()) as {
          stores: Record<string, Record<string, number>>;
        };
        calls.push({ at: Date.now(), n: stats.stores['loja-demo']?.['POST /v1/tracking'] ?? 0 });
        await sleep(1000);
      }
    };
    // Each lookup from its own address: a shopper each, within its fair share of the store's calls.
    let visitor = 0;
    const visit = async (codes: () => string[], everyMs: number) => {
      while (!stop) {
        const res = await requestFrom(loopbackAddress(visitor++ % 60_000), `${bff.url}/api/tracking`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ codes: codes() }),
        });
        const body = JSON.parse(res.text) as { results?: { stale?: boolean }[] };
        const key = res.status === 200 && body.results?.some((r) => r.stale) ? 'stale' : String(res.status);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        await sleep(everyMs);
      }
    };
    let serial = 60_000_000;
    const running = [
      sample(),
      visit(() => [makeS10('QB', serial++)], 60_000 / uncachedPerMinute),
      visit(() => ['DG049186226BR', 'SW371675211BR'], 100),
    ];
    // Visitors for 150 s (every 60 s window full); the clock moves at 20 s and at 85 s.
    const started = Date.now();
    const moves: { at: number; count: number }[] = [];
    for (const [hours, at] of [
      [30, 20_000],
      [200, 85_000],
    ] as const) {
      await sleep(Math.max(0, started + at - Date.now()));
      const before = arrivals.length;
      await fetch(`${sandbox.url}/_sandbox/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hours }),
      });
      moves.push({ at: Date.now(), count: before });
      const deadline = Date.now() + 3 * cadenceS * 1000;
      while (Date.now() < deadline && arrivals.length < before + labels) await sleep(500);
    }
    await sleep(Math.max(5_000, started + 150_000 - Date.now()));
    stop = true;
    await Promise.all(running);

    const latencies = moves.flatMap((move, i) => {
      const next = moves[i + 1]?.count ?? arrivals.length;
      return arrivals.slice(move.count, next).map((arrival) => arrival.at - move.at);
    });
    const delivered = moves.map((move, i) => (moves[i + 1]?.count ?? arrivals.length) - move.count);
    let maxWindow = 0;
    for (const end of calls) {
      const start = [...calls].reverse().find((c) => c.at <= end.at - 60_000) ?? calls[0];
      if (start) maxWindow = Math.max(maxWindow, end.n - start.n);
    }
    const errors = [...statuses].reduce((sum, [key, n]) => sum + (key === '200' ? 0 : n), 0);
    const lookups = [...statuses.values()].reduce((a, b) => a + b, 0);
    const worst = Math.max(...latencies);
    const types = new Set(arrivals.map((a) => ShipmentEventSchema.parse(JSON.parse(a.body)).type));
    return {
      id: 11,
      figure: `watcher beside visitors: ${labels} labels followed every ${cadenceS} s with BFF_WATCH_SHARE 0.2, visitors at ${uncachedPerMinute} uncached lookups/min + 10 cached/s; visitors for 150 s; the sandbox clock moved twice (every label changes each time); sandbox limit 60/60`,
      value: `visitors: ${errors} errors of ${lookups} lookups; platform: at most ${maxWindow} tracking calls in any 60 s (sampled each second); events: ${delivered.join(' + ')} webhooks for ${2 * labels} changes, the last ${round(worst / 1000, 1)} s after its change (median ${round(median(latencies) / 1000, 1)} s)`,
      comparedWith: `the visitors' lane (48 of 60 calls) and two cadences (${2 * cadenceS} s)`,
      goal: `visitors' errors 0; ≤ 60 calls in any 60 s; every event within ${2 * cadenceS} s of its change`,
      met:
        errors === 0 &&
        maxWindow <= 60 &&
        worst <= 2 * cadenceS * 1000 &&
        delivered.every((n) => n === labels),
      data: {
        labels,
        cadenceS,
        uncachedPerMinute,
        statuses: Object.fromEntries(statuses),
        maxWindow,
        delivered,
        worstMs: worst,
        types: [...types],
      },
    };
  } finally {
    stop = true;
    await bff.stop();
    await sandbox.stop();
    await receiver.close();
  }
}
