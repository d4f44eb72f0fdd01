import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreOrder } from '../../shared/orders/order.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { LedgerStore } from '../labels/ledger-store.ts';
import { OrderStore, type StoredOrder } from '../orders/order-store.ts';
import { FulfillmentStore, WAITING_POLL_MS, WAITING_WINDOW_MS } from './tracking-back.ts';

/** The tracking outbox's states as the desk shows them: sent, waiting (why), failed (why), and "send again". */
let sql: SqliteSql;
let store: FulfillmentStore;
beforeEach(async () => {
  sql = new SqliteSql({ dataDir: mkdtempSync(join(tmpdir(), 'bff-fulfil-')), file: 'labels.sqlite' });
  await new LedgerStore(sql).ready;
  await new OrderStore(sql).ready;
  store = new FulfillmentStore(sql);
});
afterEach(() => sql.close());

const T0 = Date.parse('2026-12-01T12:00:00Z');
const order = (orderId: string, source: StoreOrder['source'] = 'shopify'): StoredOrder => ({
  orderId,
  source,
  externalId: `gid://shopify/Order/${orderId.replace(/\D/g, '')}`,
  recipient: {
    nome: 'Ana',
    endereco: {
      cep: '01310100',
      logradouro: 'Av. Paulista',
      numero: '1',
      bairro: 'B',
      cidade: 'SP',
      uf: 'SP',
    },
  },
  items: [{ name: 'Camiseta', quantity: 1, valor: 10 }],
  needsReview: [],
  receivedAt: T0,
  updatedAt: T0,
  plannedVolumes: 1,
});
const CODES = [{ code: 'AA123456785BR', url: 'https://loja.example/track?codes=AA123456785BR' }];

describe('the tracking going back, as the desk sees it', () => {
  it('queues an order of a store once, and never one of the CSV or the desk', async () => {
    expect(await store.enqueue(order('#1'), CODES, T0)).toBe(true);
    expect(await store.enqueue(order('#1'), CODES, T0 + 1)).toBe(false);
    expect(await store.enqueue(order('#2', 'csv'), CODES, T0)).toBe(false);
    expect(await store.get('#1')).toMatchObject({ state: 'pending', tries: 0, tracking: CODES, nextAt: T0 });
  });

  it('waits with why, is looked at again after the poll, and fails after the waiting window, saying why', async () => {
    await store.enqueue(order('#3'), CODES, T0);
    const [claimed] = await store.claim(8, T0, T0 + 60_000);
    expect(claimed?.orderId).toBe('#3');
    expect(await store.waiting('#3', 'on hold in Shopify', T0, T0 + WAITING_POLL_MS)).toBe('waiting');
    expect(await store.get('#3')).toMatchObject({
      state: 'waiting',
      lastError: 'on hold in Shopify',
      nextAt: T0 + WAITING_POLL_MS,
    });
    expect(await store.claim(8, T0 + WAITING_POLL_MS - 1, T0 + WAITING_POLL_MS)).toEqual([]);
    expect(
      (await store.claim(8, T0 + WAITING_POLL_MS, T0 + WAITING_POLL_MS + 60_000)).map((f) => f.orderId),
    ).toEqual(['#3']);
    expect(
      await store.waiting('#3', 'still on hold', T0 + WAITING_WINDOW_MS, T0 + WAITING_WINDOW_MS + 1),
    ).toBe('waiting');
    expect(
      await store.waiting('#3', 'still on hold', T0 + WAITING_WINDOW_MS + 1, T0 + WAITING_WINDOW_MS + 2),
    ).toBe('failed');
    expect(await store.get('#3')).toMatchObject({ state: 'failed', lastError: 'still on hold' });
  });

  it("wakes the waiting ones of the platform that released a hold, not the others'", async () => {
    await store.enqueue(order('#4'), CODES, T0);
    await store.enqueue(order('#5', 'nuvemshop'), CODES, T0);
    await store.enqueue(order('#6'), CODES, T0);
    await store.waiting('#4', 'held', T0, T0 + WAITING_POLL_MS);
    await store.waiting('#5', 'held', T0, T0 + WAITING_POLL_MS);
    expect(await store.wake('shopify', T0 + 5)).toBe(1);
    expect((await store.get('#4'))?.nextAt).toBe(T0 + 5);
    expect((await store.get('#5'))?.nextAt).toBe(T0 + WAITING_POLL_MS);
    expect((await store.get('#6'))?.nextAt).toBe(T0);
  });

  it('withdraws what was not sent when the store cancels the order, and leaves what was sent', async () => {
    await store.enqueue(order('#7'), CODES, T0);
    await store.enqueue(order('#8'), CODES, T0);
    await store.sent('#8', T0 + 1);
    await store.withdraw('#7', 'the store cancelled the order', T0 + 2);
    await store.withdraw('#8', 'the store cancelled the order', T0 + 2);
    expect(await store.get('#7')).toMatchObject({
      state: 'failed',
      lastError: 'the store cancelled the order',
    });
    expect(await store.get('#8')).toMatchObject({ state: 'sent', lastError: null, sentAt: T0 + 1 });
    expect(await store.claim(8, T0 + 10, T0 + 100)).toEqual([]);
  });

  it('sends again at once from the desk, a failed one or a waiting one, never a sent one', async () => {
    await store.enqueue(order('#9'), CODES, T0);
    await store.waiting('#9', 'held', T0, T0 + WAITING_POLL_MS);
    expect((await store.resend('#9', T0 + 7))?.state).toBe('pending');
    expect((await store.get('#9'))?.nextAt).toBe(T0 + 7);
    // A new waiting window from the resend.
    expect(await store.waiting('#9', 'held', T0 + 7 + WAITING_WINDOW_MS, T0 + 8 + WAITING_WINDOW_MS)).toBe(
      'waiting',
    );
    await store.sent('#9', T0 + 9);
    expect((await store.resend('#9', T0 + 10))?.state).toBe('sent');
    expect(await store.resend('#nope', T0)).toBeUndefined();
  });
});
