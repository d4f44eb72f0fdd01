import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { OUTBOX_COLUMNS, OutboxDrain, OutboxTable, retryDelayMs } from './outbox.ts';
import { PostgresSql } from './postgres.ts';
import { placeholders, type Sql, type SqlTransaction } from './sql.ts';
import { SqliteSql } from './sqlite.ts';

/** An outbox in memory: `due` is what a claim takes (all of it), `sent` what was delivered, in order. */
function outbox() {
  const due: string[] = [];
  const sent: string[] = [];
  let gate: (() => void) | undefined;
  const drain = new OutboxDrain(
    async () => due.splice(0),
    async (item: string) => {
      if (item === 'slow') await new Promise<void>((resolve) => (gate = resolve));
      sent.push(item);
    },
  );
  return { due, sent, drain, open: () => gate?.() };
}

describe('OutboxDrain', () => {
  it('delivers what is due until nothing is, and answers the tries', async () => {
    const box = outbox();
    box.due.push('a', 'b');
    expect(await box.drain.drain()).toBe(2);
    expect(box.sent).toEqual(['a', 'b']);
    expect(await box.drain.drain()).toBe(0);
  });

  it('joins a drain that runs, and makes it look once more: what was written meanwhile is sent by it', async () => {
    const box = outbox();
    box.due.push('slow');
    const first = box.drain.drain();
    await Promise.resolve();
    // Written while the first drain delivers; the second call joins the first instead of starting another.
    box.due.push('late');
    const second = box.drain.drain();
    expect(second).toBe(first);
    box.open();
    expect(await first).toBe(2);
    expect(box.sent).toEqual(['slow', 'late']);
  });

  it('looks once more when called while its last claim came back empty', async () => {
    let claims = 0;
    let drain: OutboxDrain<string> | undefined;
    const sent: string[] = [];
    drain = new OutboxDrain(
      async () => {
        claims += 1;
        // The first (empty) claim: another caller arrives before the drain decides it is done.
        if (claims === 1) {
          queueMicrotask(() => void drain?.drain());
          return [];
        }
        return claims === 2 ? ['x'] : [];
      },
      async (item) => {
        sent.push(item);
      },
    );
    expect(await drain.drain()).toBe(1);
    expect(sent).toEqual(['x']);
    expect(claims).toBe(3);
  });
});

let postgres: PostgresServer;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.close();
});

/** Two connections to one new database: two instances of the BFF. */
type Connect = (name: string) => Promise<[Sql, Sql]>;
const DATABASES: [string, Connect][] = [
  [
    'node:sqlite',
    async (name) => {
      const dataDir = mkdtempSync(join(tmpdir(), `outbox-${name}-`));
      return [new SqliteSql({ dataDir, file: 'o.sqlite' }), new SqliteSql({ dataDir, file: 'o.sqlite' })];
    },
  ],
  [
    'PostgreSQL',
    async (name) => {
      const url = await postgres.createDatabase(`outbox_${name}`);
      return [new PostgresSql(url), new PostgresSql(url)];
    },
  ],
];

const T0 = Date.parse('2026-12-01T12:00:00Z');
const LEASE_MS = 60_000;

interface Item {
  id: string;
  tries: number;
}

/** An outbox table of the shape every user has, and a sender over it on a test clock (`clock.now`). */
function sender(
  sql: Sql,
  clock: { now: number },
  deliver: (table: OutboxTable, item: Item) => Promise<void>,
  hold: () => Promise<unknown> = async () => {},
) {
  const table = new OutboxTable(sql, { table: 'box', key: 'id' });
  const drain = new OutboxDrain<Item>(
    () =>
      table.claim(4, clock.now, clock.now + LEASE_MS, async (tx, ids) => {
        await hold();
        const rows = await tx.all(`SELECT id, tries FROM box WHERE id IN (${placeholders(ids.length)})`, ids);
        return rows.map((row) => ({ id: String(row.id), tries: Number(row.tries) }));
      }),
    (item) => deliver(table, item),
  );
  return { table, drain };
}

/** `sql`, with `selected` called each time a statement of one of its transactions has returned its rows. */
function tapped(sql: Sql, selected: () => void): Sql {
  const tap = (tx: SqlTransaction): SqlTransaction => ({
    dialect: tx.dialect,
    all: async (text, params) => {
      const rows = await tx.all(text, params);
      selected();
      return rows;
    },
    one: (text, params) => tx.one(text, params),
    run: (text, params) => tx.run(text, params),
    lock: (key) => tx.lock(key),
  });
  return new Proxy(sql, {
    get(target, property) {
      if (property === 'transaction')
        return <T>(work: (tx: SqlTransaction) => Promise<T>) => target.transaction((tx) => work(tap(tx)));
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function fill(sql: Sql, n: number, now: number): Promise<void> {
  await sql.run(`CREATE TABLE box (id TEXT PRIMARY KEY, ${OUTBOX_COLUMNS})`);
  for (let i = 0; i < n; i++)
    await sql.run(
      `INSERT INTO box (id, state, next_at, give_up_at, created_at) VALUES (?, 'pending', ?, ?, ?)`,
      [`r${String(i).padStart(2, '0')}`, now, now + 24 * 3_600_000, now],
    );
}

async function row(sql: Sql, id: string) {
  return sql.one('SELECT state, tries, next_at, last_error FROM box WHERE id = ?', [id]);
}

describe.each(DATABASES)('the outbox on %s', (name, connect) => {
  let open: Sql[] = [];
  afterEach(async () => {
    await Promise.all(open.map((sql) => sql.close()));
    open = [];
  });
  const two = async (test: string) => {
    open = await connect(`${name === 'PostgreSQL' ? 'pg' : 'lite'}_${test}`);
    return open as [Sql, Sql];
  };

  it('never delivers one row to two drains at once: each of 24 rows goes once', async () => {
    const [a, b] = await two('concurrent');
    await fill(a, 24, T0);
    const clock = { now: T0 };
    const inFlight = new Set<string>();
    const delivered: string[] = [];
    const twice: string[] = [];
    const deliver = async (table: OutboxTable, item: Item) => {
      if (inFlight.has(item.id)) twice.push(item.id);
      inFlight.add(item.id);
      // Held over a few turns of the event loop, so the other drain claims while this one delivers.
      await new Promise((resolve) => setTimeout(resolve, 5));
      delivered.push(item.id);
      inFlight.delete(item.id);
      await table.sent(item.id, clock.now);
    };
    // On PostgreSQL, `a`'s claims hold their transaction open until `b`'s claim has selected its rows: the two claims
    // overlap for sure (on node:sqlite, one writer, they take turns).
    let selected = () => {};
    const bSelected = new Promise<void>((resolve) => {
      selected = resolve;
    });
    const hold = () => (a.dialect === 'postgres' ? bSelected : Promise.resolve());
    const tries = await Promise.all([
      sender(a, clock, deliver, hold).drain.drain(),
      sender(tapped(b, selected), clock, deliver).drain.drain(),
    ]);
    expect(twice).toEqual([]);
    expect(delivered.toSorted()).toEqual(
      Array.from({ length: 24 }, (_, i) => `r${String(i).padStart(2, '0')}`),
    );
    expect(tries[0] + tries[1]).toBe(24);
    // Both took part: the lease, not the luck of who came first, shared the rows.
    expect(tries[0]).toBeGreaterThan(0);
    expect(tries[1]).toBeGreaterThan(0);
  }, 30_000);

  it('delivers again a row whose sender died mid-delivery, once its lease has run out', async () => {
    const [a, b] = await two('lease');
    await fill(a, 1, T0);
    const clock = { now: T0 };
    // The first sender claims and never finishes (it crashed): the row stays leased, not sent.
    const crashed = sender(a, clock, () => new Promise<void>(() => {}));
    void crashed.drain.drain();
    await expect.poll(async () => (await row(a, 'r00'))?.tries).toBe(1);
    const delivered: Item[] = [];
    const other = sender(b, clock, async (table, item) => {
      delivered.push(item);
      await table.sent(item.id, clock.now);
    });
    clock.now = T0 + LEASE_MS;
    expect(await other.drain.drain()).toBe(0);
    clock.now = T0 + LEASE_MS + 1;
    expect(await other.drain.drain()).toBe(1);
    expect(delivered).toEqual([{ id: 'r00', tries: 2 }]);
    expect(await row(a, 'r00')).toMatchObject({ state: 'sent', tries: 2 });
  });

  it("backs off after each failure (30 s, then 60 s, …) and gives up past the row's window or when refused", async () => {
    const [a] = await two('backoff');
    await fill(a, 2, T0);
    const clock = { now: T0 };
    const none = () => 0;
    const failing = sender(a, clock, async (table, item) => {
      const failure = {
        tries: item.tries,
        error: `refused (try ${item.tries})`,
        permanent: item.id === 'r01',
      };
      await table.retry(item.id, failure, clock.now, none);
    });
    expect(await failing.drain.drain()).toBe(2);
    expect(await row(a, 'r01')).toMatchObject({ state: 'failed', tries: 1, last_error: 'refused (try 1)' });
    // Equal jitter with no random part: half of 30 s, then half of 60 s.
    expect(await row(a, 'r00')).toMatchObject({ state: 'retrying', tries: 1, next_at: T0 + 15_000 });
    clock.now = T0 + 14_999;
    expect(await failing.drain.drain()).toBe(0);
    clock.now = T0 + 15_000;
    expect(await failing.drain.drain()).toBe(1);
    expect(await row(a, 'r00')).toMatchObject({ state: 'retrying', tries: 2, next_at: T0 + 45_000 });
    // The next try would fall after the row's 24 h: it is given up.
    clock.now = T0 + 24 * 3_600_000;
    expect(await failing.drain.drain()).toBe(1);
    expect(await row(a, 'r00')).toMatchObject({ state: 'failed', tries: 3 });
    clock.now += 3_600_000;
    expect(await failing.drain.drain()).toBe(0);
  });
});

describe('retryDelayMs', () => {
  it('doubles from 30 s to at most 2 h, half of it fixed and half random', () => {
    expect([1, 2, 3, 9, 20].map((tries) => retryDelayMs(tries, () => 0))).toEqual([
      15_000, 30_000, 60_000, 3_600_000, 3_600_000,
    ]);
    expect(retryDelayMs(1, () => 1)).toBe(30_000);
  });
});
