import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_BOXES } from '../../bench/packing.ts';
import { McpClients } from '../../sandbox/mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import {
  type PackingItem,
  PlanShipmentOutputSchema,
  PlanShipmentRefusalSchema,
} from '../../shared/packing/plan.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { ShipmentPlans } from './packing.ts';

/**
 * Plans that can be labelled and never block visitors (issue 38, finding 4): an order a label could never number is
 * refused before any packing, every plan packs in a worker within a time budget, and a cached tracking lookup stays
 * fast while plans are packed. One sandbox and one BFF (the benchmark's eight boxes) for the file.
 */
const ALL = 'agent-all-scopes-0001';
let sandbox: RunningSandbox;
let bff: RunningBff;
const clients = new McpClients();

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  bff = await startBff(sandbox.url, { BFF_BOXES: JSON.stringify(BENCH_BOXES) });
}, 30_000);
afterEach(() => clients.closeAll());
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

/** The attack: 50 lines of 999 units, no two of which share a box: 49,950 volumes, some 6 MB of plan. */
const ATTACK: PackingItem[] = Array.from({ length: 50 }, (_, i) => ({
  id: `sku-${i}`,
  comprimento: 45,
  largura: 35,
  altura: 31,
  weightGrams: 2000 + i,
  quantity: 999,
}));

/** A large order that can be labelled: 50 lines of 999 small units, packed into some 800 volumes (~0.3 s of packing). */
const LARGE: PackingItem[] = Array.from({ length: 50 }, (_, i) => ({
  id: `small-${i}`,
  comprimento: 10 + (i % 7),
  largura: 8 + (i % 5),
  altura: 5 + (i % 3),
  weightGrams: 300 + i * 7,
  quantity: 999,
}));

describe('plan_shipment and the label’s volume limit (999)', () => {
  it('refuses 50 lines × 999 units before packing, saying why, and generate_label refuses volume 1000', async () => {
    const client = await clients.connect(`${bff.url}/mcp`, ALL);
    const result = await clients.call(client, 'plan_shipment', { items: ATTACK });
    expect(result.isError).toBe(true);
    const refusal = PlanShipmentRefusalSchema.parse(result.structuredContent);
    expect(refusal.reason).toBe('too_many_volumes');
    expect(refusal.message).toMatch(/needs at least \d{4,} volumes; a label names volumes 1 to 999/);
    expect(JSON.stringify(result).length).toBeLessThan(2_000);
    const label = await clients.call(client, 'generate_label', {
      ...SAMPLE_LABEL,
      orderId: 'PED-V',
      volume: 1000,
    });
    expect(label.isError).toBe(true);
  });

  it('answers a large plan that can be labelled, every volume numbered within 999', async () => {
    const client = await clients.connect(`${bff.url}/mcp`, ALL);
    const result = await clients.call(client, 'plan_shipment', { items: LARGE }, 30_000);
    const plan = PlanShipmentOutputSchema.parse(result.structuredContent);
    expect(plan.volumes.length).toBeGreaterThan(100);
    expect(plan.volumes.length).toBeLessThanOrEqual(999);
    const units = plan.volumes.flatMap((v) => v.items).reduce((n, item) => n + item.quantity, 0);
    expect(units).toBe(50 * 999);
  });
});

describe('packing off the event loop', () => {
  it('keeps a cached tracking lookup fast while 8 plans are asked for at once (4 of the attack’s, 4 large ones)', async () => {
    const code = 'DG049186226BR';
    expect((await bff.track([code])).status).toBe(200);
    const client = await clients.connect(`${bff.url}/mcp`, ALL);
    // Warm: the packer's worker started and the tool's path compiled, as on a BFF that has planned before.
    await clients.call(client, 'plan_shipment', { items: LARGE }, 60_000);
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    // The event loop's own CPU time: what it spent computing, whatever else the machine runs (a wall-clock delay
    // also counts the time this process waits for a core on a loaded machine).
    const cpuBefore = process.threadCpuUsage();
    const plans = Array.from({ length: 8 }, (_, i) =>
      clients.call(client, 'plan_shipment', { items: i % 2 === 0 ? ATTACK : LARGE }, 60_000),
    );
    const lookups: number[] = [];
    let packing = true;
    const finished = Promise.allSettled(plans).then(() => {
      packing = false;
    });
    while (packing) {
      const started = performance.now();
      const response = await bff.track([code]);
      expect(response.status).toBe(200);
      lookups.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await finished;
    histogram.disable();
    const cpu = process.threadCpuUsage(cpuBefore);
    const loopCpuMs = (cpu.user + cpu.system) / 1000;
    const answered = await Promise.all(plans);
    // Each plan was packed (or refused as busy, saying when to ask again): none blocked the loop.
    for (const result of answered) {
      const structured = result.structuredContent as { reason?: string; volumes?: unknown[] };
      expect(structured.volumes?.length ?? structured.reason).toBeTruthy();
    }
    // Packed on the event loop (before issue 38), these 8 plans cost it 1.5–2.5 s of CPU and stalled it 0.6 s at a
    // time (1.2 s in the attack round; a lookup waited 8.8 s). Refused before packing, or packed in a worker, the loop
    // is left with reading and answering: ~0.1 s of CPU in all. The wall-clock bounds are generous for a loaded
    // 2-core machine (up to 0.44 s seen at load 16); the CPU bound is the one that tells the two apart.
    expect(loopCpuMs, "the event loop's CPU time during the plans, ms").toBeLessThan(500);
    expect(histogram.max / 1e6, 'the longest event-loop delay, ms').toBeLessThan(1_000);
    expect(lookups.length).toBeGreaterThan(0);
    expect(Math.max(...lookups), 'the slowest cached lookup, ms').toBeLessThan(1_000);
  }, 90_000);
});

describe('the time budget and the queue', () => {
  it('stops a plan over its budget and refuses it, then packs the next one with a fresh worker', async () => {
    const plans = new ShipmentPlans({ boxes: BENCH_BOXES, budgetMs: 1 });
    try {
      const slow = await plans.plan({ items: LARGE });
      expect(PlanShipmentRefusalSchema.parse(slow)).toMatchObject({ reason: 'plan_too_slow' });
    } finally {
      await plans.close();
    }
    const roomy = new ShipmentPlans({ boxes: BENCH_BOXES, budgetMs: 30_000 });
    try {
      const small = await roomy.plan({ items: [{ ...(LARGE[0] as PackingItem), quantity: 3 }] });
      expect(PlanShipmentOutputSchema.parse(small).volumes).toHaveLength(1);
    } finally {
      await roomy.close();
    }
  });

  it('refuses a plan beyond the queue with when to ask again', async () => {
    const plans = new ShipmentPlans({ boxes: BENCH_BOXES, maxWaiting: 1, budgetMs: 30_000 });
    try {
      const order = { items: [{ ...(LARGE[0] as PackingItem), quantity: 2 }] };
      const [first, second, third] = await Promise.all([
        plans.plan(order),
        plans.plan(order),
        plans.plan(order),
      ]);
      expect(PlanShipmentOutputSchema.safeParse(first).success).toBe(true);
      expect(PlanShipmentOutputSchema.safeParse(second).success).toBe(true);
      expect(PlanShipmentRefusalSchema.parse(third)).toMatchObject({
        reason: 'planner_busy',
        retryAfterSeconds: expect.any(Number),
      });
    } finally {
      await plans.close();
    }
  });
});
