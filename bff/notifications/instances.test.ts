import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { migrate } from '../../shared/sql/migrate.ts';
import { PostgresSql } from '../../shared/sql/postgres.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/receivers.ts';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { LedgerStore } from '../labels/ledger-store.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { NOTIFICATION_MIGRATIONS } from './migrations.ts';
import { Outbox } from './outbox.ts';
import { Clocks, eventsOf, issueLabel, orderLabel, WEBHOOK_SECRET } from './testing/harness.ts';
import { WatchStore } from './watch-store.ts';

/** Two BFF instances on one PostgreSQL: each change becomes one event, and each event is sent once. */
let sandbox: RunningSandbox;
let postgres: PostgresServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  [sandbox, postgres, receiver] = await Promise.all([
    startSandbox({ labelPdfDelayMs: 0, rateLimit: { calls: 1000, seconds: 60 } }),
    startPostgres(),
    startWebhookReceiver(WEBHOOK_SECRET),
  ]);
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await sandbox?.close();
  await postgres?.close();
});

describe('two instances on one PostgreSQL', () => {
  it('send each event once, whichever instance looks and whichever sends, rounds racing', async () => {
    const url = await postgres.createDatabase('notify_two');
    const clocks = new Clocks(sandbox);
    const env = {
      BFF_DATABASE_URL: url,
      BFF_WEBHOOK_URL: receiver.url,
      BFF_WEBHOOK_SECRET: WEBHOOK_SECRET,
      SHIPPING_RATE_LIMIT: '1000/60',
    };
    const deps = { now: clocks.now, notifications: { timers: false } };
    const bffs: RunningBff[] = await Promise.all([
      startBff(sandbox.url, env, deps),
      startBff(sandbox.url, env, deps),
    ]);
    try {
      const [a, b] = bffs as [RunningBff, RunningBff];
      const labels: Awaited<ReturnType<typeof issueLabel>>[] = [];
      // Each instance alone first, so both do some of the work whatever the races below decide: three labels for A,
      // and A looks and sends alone until it has sent something (a label shows "posted" once the sandbox's clock has
      // passed its posting: one look right after issuing may see none, which left B with nothing to send in a busy
      // full run); then three more for B, the same way.
      const sent = (bff: RunningBff) => bff.logs.some((line) => line.includes('notification sent'));
      for (const [from, bff] of [
        [0, a],
        [3, b],
      ] as const) {
        for (let i = from; i < from + 3; i++)
          labels.push(await issueLabel(i % 2 ? b.url : a.url, orderLabel(`PED-PG-${i}`)));
        for (let step = 0; step < 24 && !sent(bff); step++) {
          if (step > 0) await clocks.advance(1);
          await bff.notifications.tick();
          await bff.notifications.dispatcher.drain();
        }
      }
      // Until every label is delivered: the sandbox's transit times (three weeks at most on this lane, a strike or the
      // peak season included), a look every 3 hours.
      const delivered = () =>
        labels.every((label) =>
          eventsOf(receiver.received).some(
            (event) => event.data.trackingCode === label.trackingCode && event.type === 'shipment.delivered',
          ),
        );
      for (let step = 0; step < 24 * 8 && !delivered(); step++) {
        await clocks.advance(3);
        // Both instances' rounds and senders at once, several times per step.
        await Promise.all([
          a.notifications.tick(),
          b.notifications.tick(),
          a.notifications.dispatcher.drain(),
          b.notifications.dispatcher.drain(),
        ]);
      }
      const events = eventsOf(receiver.received);
      const ids = events.map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const label of labels) {
        const mine = events.filter((event) => event.data.trackingCode === label.trackingCode);
        // Every label went from posted to delivered, each status once and in order.
        expect(mine[0]?.data.status).toBe('posted');
        expect(mine.at(-1)?.type).toBe('shipment.delivered');
        const statuses = mine.map((event) => event.data.status);
        expect(new Set(statuses).size).toBe(statuses.length);
      }
      // Both instances did some of the work (each sent alone first, at least).
      expect(sent(a)).toBe(true);
      expect(sent(b)).toBe(true);
      // The link key was generated once, into the database: a link signed by one instance opens on the other.
      const link = a.links.url(labels[0]?.attemptId ?? '');
      expect((await fetch(link.replace(a.url, b.url))).status).toBe(200);
    } finally {
      await Promise.all(bffs.map((bff) => bff.stop()));
    }
  }, 120_000);

  it('records one look once: two instances recording the same claimed look make one event', async () => {
    const url = await postgres.createDatabase('notify_cas');
    const sql = [new PostgresSql(url), new PostgresSql(url)];
    try {
      const ledger = new LedgerStore(sql[0] as PostgresSql);
      await ledger.ready;
      await migrate(sql[0] as PostgresSql, NOTIFICATION_MIGRATIONS);
      const attempt = await ledger.begin({ fingerprint: 'fp-cas', request: '{}' });
      await ledger.settle(attempt.id, {
        state: 'created',
        settledBy: 'answer',
        prepostagemId: 'PP1',
        trackingCode: 'QB123456785BR',
      });
      const stores = sql.map((s) => new WatchStore(s));
      const now = Date.now();
      expect(await stores[0]?.discover(now)).toBe(1);
      expect(await stores[1]?.discover(now)).toBe(0);
      // Both claim at once: SKIP LOCKED gives the label to one of them.
      const claims = await Promise.all(stores.map((store) => store.claimDue(50, now, now + 60_000)));
      expect(claims.flat()).toHaveLength(1);
      const [watch] = claims.flat();
      if (!watch) throw new Error('nothing claimed');
      // Even a look recorded twice (a claim that expired and was taken again) makes one event.
      const look = {
        next: { status: 'posted' as const, eventKey: 'PO', changedAt: now, stalled: false },
        done: false,
      };
      const event = (id: string) => ({
        id,
        type: 'shipment.status_changed' as const,
        body: '{}',
        deliveries: [{ channel: 'webhook' as const, target: 'x' }],
      });
      const recorded = await Promise.all(
        stores.map((store, i) => store.record(watch, look, event(`msg_${String(i).repeat(32)}`), now)),
      );
      expect(recorded.filter(Boolean)).toHaveLength(1);
      const events = await sql[0]?.all('SELECT id FROM shipment_events WHERE attempt_id = ?', [attempt.id]);
      expect(events).toHaveLength(1);
      // Two senders claiming at once never take one delivery twice.
      const sent = await Promise.all(sql.map((s) => new Outbox(s).claim(10, now, now + 60_000)));
      expect(sent.flat()).toHaveLength(1);
    } finally {
      await Promise.all(sql.map((s) => s.close()));
    }
  }, 60_000);
});
