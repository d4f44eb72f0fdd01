import { describe, expect, it } from 'vitest';
import { laneOf } from '../../../shared/lanes.ts';
import { migrate } from '../../../shared/sql/migrate.ts';
import type { Sql } from '../../../shared/sql/sql.ts';
import { LEDGER_MIGRATIONS } from '../../labels/migrations.ts';
import { TransitHistory } from '../history-store.ts';
import { PROMISE_MIGRATIONS } from '../migrations.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T12:00:00-03:00');
const TODAY = Math.floor((NOW - 3 * 3_600_000) / DAY);

/** A created label in the ledger, as the issuer leaves it. */
export async function createdLabel(sql: Sql, id: string, code: string, createdAt = NOW, cep = '20040-020') {
  const request = JSON.stringify({
    serviceCode: '03298',
    sender: { endereco: { cep: '01310-100' } },
    recipient: { endereco: { cep } },
  });
  await sql.run(
    `INSERT INTO label_attempts (id, fingerprint, state, tracking_code, created_at, request, service_code)
     VALUES (?, ?, 'created', ?, ?, ?, '03298')`,
    [id, `fp-${id}`, code, createdAt, request],
  );
}

const RIO = laneOf('20040-020');

/**
 * The transit history's contract, on node:sqlite and PostgreSQL alike: `open()` answers two connections to one fresh
 * database (as two instances would hold).
 */
export function describeTransitHistory(name: string, open: () => Promise<[Sql, Sql]>) {
  describe(`the transit history on ${name}`, () => {
    const setUp = async () => {
      const [a, b] = await open();
      await migrate(a, LEDGER_MIGRATIONS);
      await migrate(a, PROMISE_MIGRATIONS);
      return { a, b, history: new TransitHistory(a), other: new TransitHistory(b) };
    };
    const parcel = (attemptId: string, trackingCode: string, createdAt = NOW) => {
      if (!RIO) throw new Error('no lane');
      return {
        attemptId,
        trackingCode,
        origin: '01310',
        serviceId: 'correios-pac',
        lane: RIO,
        createdAt,
        createdDay: Math.floor((createdAt - 3 * 3_600_000) / DAY),
        promise: { from: '2026-12-01', to: '2026-12-03', basis: 'platform' as const, parcels: 0 },
        platformDays: 6,
      };
    };

    it('starts one row per created label, once, whichever instance starts it', async () => {
      const { a, b, history, other } = await setUp();
      try {
        await createdLabel(a, 'att-1', 'QB000000015BR');
        await createdLabel(a, 'att-2', 'QB000000025BR', NOW - 90 * DAY);
        const due = await history.unrecorded(NOW - 60 * DAY);
        expect(due.map((label) => label.attemptId)).toEqual(['att-1']);
        expect(due[0]).toMatchObject({ trackingCode: 'QB000000015BR', serviceCode: '03298', createdAt: NOW });
        const started = await Promise.all([
          history.start([parcel('att-1', 'QB000000015BR')], NOW),
          other.start([parcel('att-1', 'QB000000015BR')], NOW),
        ]);
        expect(started.reduce((x, y) => x + y, 0)).toBe(1);
        expect(await history.unrecorded(NOW - 60 * DAY)).toEqual([]);
        const row = (await history.of(['att-1', 'nobody'])).get('att-1');
        expect(row).toMatchObject({
          origin: '01310',
          destUf: 'RJ',
          destArea: 'capital',
          destPrefix: '200',
          outcome: 'open',
          promisedTo: '2026-12-03',
          promisedBasis: 'platform',
          postedDay: null,
        });
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('answers delivered parcels whose transit is believed, parcels on the way, and the promises of codes', async () => {
      const { a, b, history } = await setUp();
      try {
        await history.start(
          [parcel('d1', 'QB000000035BR'), parcel('d2', 'QB000000045BR'), parcel('o1', 'QB000000055BR')],
          NOW,
        );
        await a.transaction((tx) =>
          history.change(
            tx,
            'd1',
            { outcome: 'delivered', postedDay: TODAY - 5, endedDay: TODAY - 1, transitDays: 4, lateDays: -1 },
            NOW,
          ),
        );
        // delivered, but its dates could not be believed: no transit
        await history.change(a, 'd2', { outcome: 'delivered', endedDay: TODAY - 1 }, NOW);
        await history.change(a, 'o1', { postedDay: TODAY - 2 }, NOW);
        const delivered = await history.delivered('correios-pac', TODAY - 30);
        expect(delivered).toEqual([
          {
            prefix: '200',
            uf: 'RJ',
            area: 'capital',
            region: 'SE',
            origin: '01310',
            days: 4,
            platformDays: 6,
            endedDay: TODAY - 1,
            labelledAt: NOW,
          },
        ]);
        expect(await history.delivered('correios-pac', TODAY)).toEqual([]);
        expect(await history.delivered('correios-sedex', TODAY - 30)).toEqual([]);
        expect((await history.open('correios-pac')).map((p) => [p.postedDay, p.labelledAt])).toEqual([
          [TODAY - 2, NOW],
        ]);
        expect((await history.scored(TODAY - 30)).map((row) => [row.attemptId, row.lateDays])).toEqual([
          ['d1', -1],
        ]);
        const promised = await history.promisedFor(['QB000000035BR', 'QB000000055BR', 'XX']);
        expect([...promised.keys()]).toEqual(['QB000000055BR']);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('forgets parcels of labels older than a year', async () => {
      const { a, b, history } = await setUp();
      try {
        await history.start(
          [parcel('old', 'QB000000065BR', NOW - 366 * DAY), parcel('new', 'QB000000075BR')],
          NOW,
        );
        expect(await history.prune(NOW)).toBe(1);
        expect([...(await history.of(['old', 'new'])).keys()]).toEqual(['new']);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}
