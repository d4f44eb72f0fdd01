import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoreOrder } from '../../../shared/orders/order.ts';
import { migrate } from '../../../shared/sql/migrate.ts';
import { PostgresSql } from '../../../shared/sql/postgres.ts';
import type { Sql } from '../../../shared/sql/sql.ts';
import { SqliteSql } from '../../../shared/sql/sqlite.ts';
import { LedgerStore } from '../../labels/ledger-store.ts';
import { NOTIFICATION_MIGRATIONS } from '../../notifications/migrations.ts';
import { OrderStore } from '../order-store.ts';

/** Two stores on one database, as two BFF instances see it (the ledger's and the watcher's tables beside). */
export interface TwoInstances {
  a: OrderStore;
  b: OrderStore;
  /** `a`'s database, to put a label in the ledger's table as the ledger writes it. */
  sql: Sql;
  close(): Promise<void>;
}

/** A created label of `orderId` in the ledger's table (its columns as bff/labels/ledger-store.ts writes them). */
async function labelled(sql: Sql, orderId: string): Promise<void> {
  await sql.run(
    `INSERT INTO label_attempts (id, fingerprint, state, tracking_code, created_at, request, order_id, volume)
     VALUES (?, ?, 'created', 'AA123456785BR', ?, '{}', ?, 1)`,
    [`att-${orderId}`, `fp-${orderId}`, Date.now(), orderId],
  );
}

async function opened(sql: Sql): Promise<OrderStore> {
  await new LedgerStore(sql).ready;
  await migrate(sql, NOTIFICATION_MIGRATIONS);
  const store = new OrderStore(sql);
  await store.ready;
  return store;
}

export async function sqliteInstances(): Promise<TwoInstances> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bff-orders-'));
  const one = new SqliteSql({ dataDir, file: 'labels.sqlite' });
  const two = new SqliteSql({ dataDir, file: 'labels.sqlite' });
  return {
    a: await opened(one),
    b: await opened(two),
    sql: one,
    close: async () => void (await Promise.all([one.close(), two.close()])),
  };
}

export async function postgresInstances(url: string): Promise<TwoInstances> {
  const one = new PostgresSql(url);
  const two = new PostgresSql(url);
  const a = await opened(one);
  return {
    a,
    b: await opened(two),
    sql: one,
    close: async () => void (await Promise.all([one.close(), two.close()])),
  };
}

const order = (orderId: string, change: Partial<StoreOrder> = {}): StoreOrder => ({
  orderId,
  source: 'shopify',
  externalId: `gid://shopify/Order/${orderId.replace(/\D/g, '')}`,
  serviceId: 'correios-pac',
  recipient: {
    nome: 'Ana',
    endereco: {
      cep: '01310100',
      logradouro: 'Av. Paulista',
      numero: '1',
      bairro: 'Bela Vista',
      cidade: 'São Paulo',
      uf: 'SP',
    },
  },
  items: [{ name: 'Camiseta', quantity: 1, weightGrams: 300, valor: 10 }],
  needsReview: [],
  ...change,
});

/** What the order store guarantees from its storage, on either database. */
export function describeOrderStore(name: string, open: () => Promise<TwoInstances>): void {
  describe(`the order store on ${name}`, () => {
    it('takes one delivery once, even when two instances receive it at the same moment', async () => {
      const { a, b, close } = await open();
      try {
        const outcomes = await Promise.all([
          a.receive(order('#2001'), { deliveryId: 'shopify:w-1', version: '2026-01-01T10:00:00Z' }),
          b.receive(order('#2001'), { deliveryId: 'shopify:w-1', version: '2026-01-01T10:00:00Z' }),
        ]);
        expect(outcomes.sort()).toEqual(['created', 'duplicate']);
        expect(await a.list()).toHaveLength(1);
      } finally {
        await close();
      }
    });

    it('keeps one order per platform order across deliveries, and only a newer version replaces it', async () => {
      const { a, b, close } = await open();
      try {
        const [first, second] = await Promise.all([
          a.receive(order('#2002'), { deliveryId: 'shopify:w-2', version: '2026-01-01T10:00:00Z' }),
          b.receive(order('#2002'), { deliveryId: 'shopify:w-3', version: '2026-01-01T10:00:00Z' }),
        ]);
        expect([first, second].sort()).toEqual(['created', 'duplicate']);
        const moved = order('#2002', { recipient: { ...order('#2002').recipient, nome: 'Ana Paula' } });
        expect(await a.receive(moved, { deliveryId: 'shopify:w-4', version: '2026-01-01T11:00:00Z' })).toBe(
          'updated',
        );
        expect(
          await b.receive(order('#2002'), { deliveryId: 'shopify:w-5', version: '2026-01-01T10:30:00Z' }),
        ).toBe('duplicate');
        expect((await b.get('#2002'))?.recipient.nome).toBe('Ana Paula');
        // Another platform order under the same orderId: kept out.
        expect(
          await a.receive(order('#2002', { externalId: 'gid://shopify/Order/9' }), {
            version: '2026-01-02T00:00:00Z',
          }),
        ).toBe('conflict');
      } finally {
        await close();
      }
    });

    it('keeps a cancellation whichever instance takes it and whatever arrives after it: cancelled is final', async () => {
      const { a, b, close } = await open();
      try {
        const cancelled = order('#2003', { cancelled: { at: '2026-01-01T12:00:00Z', reason: 'customer' } });
        // The cancel and a change (one version older) at the same moment, on two instances.
        const outcomes = await Promise.all([
          a.receive(order('#2003'), { deliveryId: 'shopify:c-1', version: '2026-01-01T10:00:00Z' }),
          b.receive(cancelled, { deliveryId: 'shopify:c-2', version: '2026-01-01T12:00:00Z' }),
        ]);
        expect(outcomes).toContain('cancelled');
        expect((await a.get('#2003'))?.cancelled).toEqual({ at: '2026-01-01T12:00:00Z', reason: 'customer' });
        // A newer version that is not cancelled (a platform cannot reopen one): still cancelled.
        const newer = order('#2003', { recipient: { ...order('#2003').recipient, nome: 'Outra' } });
        expect(await a.receive(newer, { deliveryId: 'shopify:c-3', version: '2026-01-02T00:00:00Z' })).toBe(
          'duplicate',
        );
        const kept = await b.get('#2003');
        expect(kept?.cancelled?.reason).toBe('customer');
        expect(kept?.recipient.nome).toBe('Ana');
        const [state] = [...(await b.labelsOf(kept ? [kept] : [])).values()];
        expect(state?.state).toBe('cancelled');
      } finally {
        await close();
      }
    });

    it('says what changed of a labelled order, and nothing for a version whose label content is the same', async () => {
      const { a, sql, close } = await open();
      try {
        expect(await a.receive(order('#2004'), { version: '2026-01-01T10:00:00Z' })).toBe('created');
        await labelled(sql, '#2004');
        expect(await a.receive(order('#2004'), { version: '2026-01-01T11:00:00Z' })).toBe('unchanged');
        const moved = order('#2004', {
          recipient: {
            ...order('#2004').recipient,
            endereco: { ...order('#2004').recipient.endereco, numero: '2' },
          },
        });
        expect(await a.receive(moved, { version: '2026-01-01T12:00:00Z' })).toBe('flagged');
        expect(await a.receive(moved, { version: '2026-01-01T13:00:00Z' })).toBe('unchanged');
        expect((await a.get('#2004'))?.needsReview).toEqual([
          { field: 'order', reason: 'changed_after_label', detail: 'number 1 → 2' },
        ]);
        expect((await a.get('#2004'))?.recipient.endereco.numero).toBe('1');
      } finally {
        await close();
      }
    });

    it('saves a product preset under its SKU, replacing the one before', async () => {
      const { a, b, close } = await open();
      try {
        await a.savePreset({ key: 'CAM-01', weightGrams: 300 });
        await b.savePreset({
          key: 'cam-01',
          weightGrams: 320,
          dimensions: { comprimento: 30, largura: 20, altura: 3 },
        });
        expect(await a.presets()).toEqual([
          { key: 'cam-01', weightGrams: 320, dimensions: { comprimento: 30, largura: 20, altura: 3 } },
        ]);
      } finally {
        await close();
      }
    });
  });
}
