import { makeS10 } from '../shared/s10.ts';
import { type AddressedAnswer, loopbackAddress, requestFrom } from '../testing/from-address.ts';
import { startBffProcess, startSandboxProcess } from './processes.ts';
import type { Figure } from './stats.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Figure 10: the attack round's tracking scenario at full scale (issue 29). The platform allows 60 tracking calls a
 * minute (`SHIPPING_RATE_LIMIT`, the sandbox the same); one visitor (127.0.0.2) stays inside its own limit of 120
 * lookups a minute, each with 50 codes never seen before, alone for `warmup` seconds and then `seconds` more while 19
 * shoppers, each from an address of its own (127.0.1.x), look up one fresh code each, evenly spread. Before the fair
 * share (the previous main) the attack round saw the shoppers get 19 of 19 `502 track_failed`.
 */
export async function measureFairShare(seconds = 40, warmup = 20): Promise<Figure> {
  const sandbox = await startSandboxProcess('60/60');
  const bff = await startBffProcess(sandbox.url, {
    BFF_VISITOR_RATE_LIMIT: '120/60',
    SHIPPING_RATE_LIMIT: '60/60',
  });
  const lookup = (from: string, codes: string[]): Promise<AddressedAnswer> =>
    requestFrom(from, `${bff.url}/api/tracking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ codes }),
    });
  try {
    let serial = 76_000_000;
    const attack: Promise<AddressedAnswer>[] = [];
    const shoppers: Promise<{ answer: AddressedAnswer; ms: number }>[] = [];
    const ticks = (warmup + seconds) * 2;
    const shopperEvery = Math.floor((seconds * 2) / 19);
    for (let tick = 0; tick < ticks; tick++) {
      attack.push(
        lookup(
          '127.0.0.2',
          Array.from({ length: 50 }, () => makeS10('QB', serial++)),
        ),
      );
      const shopping = tick - warmup * 2;
      if (shopping >= 0 && shopping % shopperEvery === shopperEvery - 1 && shoppers.length < 19) {
        const started = performance.now();
        const code = makeS10('SW', serial++);
        shoppers.push(
          lookup(loopbackAddress(shoppers.length), [code]).then((answer) => ({
            answer,
            ms: performance.now() - started,
          })),
        );
      }
      await pause(500);
    }
    const served = await Promise.all(shoppers);
    const attacked = await Promise.all(attack);
    const ok = served.filter(({ answer }) => answer.status === 200).length;
    const slowest = Math.round(Math.max(...served.map(({ ms }) => ms)));
    const attackerServed = attacked.filter((answer) => answer.status === 200).length;
    const attackerRefused = attacked.filter((answer) => answer.status === 429).length;
    const stats = (await (await fetch(`${sandbox.url}/_sandbox/stats`)).json()) as {
      stores: Record<string, Record<string, number>>;
    };
    const upstream = stats.stores['loja-demo']?.['POST /v1/tracking'] ?? 0;
    return {
      id: 10,
      figure: `fair share: one visitor at its limit (120 lookups a minute × 50 fresh codes) alone for ${warmup} s, then ${seconds} s more while 19 shoppers look up a fresh code each (SHIPPING_RATE_LIMIT 60/60)`,
      value: `shoppers served ${ok} of ${served.length} (slowest ${slowest} ms); the attacker: ${attackerServed} lookups served, ${attackerRefused} × 429 rate_limited; ${upstream} upstream calls`,
      comparedWith:
        'the previous main, this step (2026-11-24): shoppers served 4 of 19 (15 × 502 track_failed, slowest 3.7 s), the attacker 57 lookups served; the attack round: 0 of 19',
      goal: 'every shopper served; the attacker at most its share (6 a minute)',
      met: ok === served.length && attackerServed <= 6 * Math.ceil((warmup + seconds) / 60),
      data: {
        seconds,
        warmup,
        shoppers: served.length,
        served: ok,
        slowestMs: slowest,
        attackerServed,
        attackerRefused,
        upstream,
      },
    };
  } finally {
    await bff.stop();
    await sandbox.stop();
  }
}
