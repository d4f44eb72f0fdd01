import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { presetKey } from './order-store.ts';
import { deskOrder, ledgerLabel, type ScriptedDesk, scriptedDesk } from './testing/desk.ts';

/**
 * The order store's rules one by one on node:sqlite in memory (the ledger's and the watcher's tables beside): where an
 * order stands from its bound labels, each outcome of a delivery, the reviews a labelled order gets. The contract both
 * databases pass (order-store-contract.ts) states the same across two instances.
 */
let s: ScriptedDesk;
beforeEach(async () => {
  s = await scriptedDesk();
});
afterEach(async () => {
  await s.close();
});

const SHOPIFY = { orderId: '#1', source: 'shopify' as const, externalId: '9001' };
const stateOf = async (orderId = 'PED-1') => {
  const stored = await s.orders.get(orderId);
  return (await s.orders.labelsOf(stored ? [stored] : [])).get(orderId);
};

describe('where an order stands', () => {
  it('is new without a created label (pending, unknown and rejected ones do not count)', async () => {
    await s.orders.receive(deskOrder());
    expect((await stateOf())?.state).toBe('new');
    for (const [i, state] of ['pending', 'unknown', 'rejected'].entries())
      await ledgerLabel(s.sql, deskOrder(), { volume: i + 1, state, trackingCode: null });
    const labels = await stateOf();
    expect(labels?.state).toBe('new');
    expect(labels?.labels.map((l) => [l.volume, l.state, l.trackingCode, l.status]).sort()).toEqual([
      [1, 'pending', null, null],
      [2, 'unknown', null, null],
      [3, 'rejected', null, null],
    ]);
  });

  it('is partly labelled until each planned volume has a created label, then labelled, then posted', async () => {
    await s.orders.receive(deskOrder());
    await s.orders.plan('PED-1', 2);
    await ledgerLabel(s.sql, deskOrder(), { volume: 2 });
    expect((await stateOf())?.state).toBe('partly_labelled');
    await ledgerLabel(s.sql, deskOrder(), { volume: 1, status: 'no-events' });
    expect((await stateOf())?.state).toBe('labelled');
    expect((await stateOf())?.labels).toEqual([
      {
        attemptId: 'att-PED-1-1-created',
        volume: 1,
        state: 'created',
        trackingCode: 'TRK1',
        status: 'no-events',
      },
      { attemptId: 'att-PED-1-2-created', volume: 2, state: 'created', trackingCode: 'TRK2', status: null },
    ]);
    await s.sql.run(`UPDATE shipment_watches SET status = 'not-found'`);
    await ledgerLabel(s.sql, deskOrder(), { volume: 3, status: 'posted' });
    expect((await stateOf())?.state).toBe('labelled');
    await s.sql.run(`INSERT INTO shipment_watches (attempt_id, tracking_code, status, changed_at, next_check_at, created_at)
      VALUES ('att-PED-1-2-created', 'TRK2', 'in_transit', 0, 0, 0)`);
    await s.sql.run(
      `UPDATE shipment_watches SET status = 'delivered' WHERE attempt_id = 'att-PED-1-1-created'`,
    );
    expect((await stateOf())?.state).toBe('posted');
  });

  it('counts the highest volume of its labels when more than planned, and one volume when none is planned', async () => {
    await s.orders.receive(deskOrder());
    await ledgerLabel(s.sql, deskOrder(), { volume: 1 });
    expect((await stateOf())?.state).toBe('labelled');
    await ledgerLabel(s.sql, deskOrder(), { volume: 3, state: 'pending', trackingCode: null });
    expect((await stateOf())?.state).toBe('partly_labelled');
  });

  it('counts only the labels bound to it: its number and its CEP', async () => {
    await s.orders.receive(deskOrder());
    await ledgerLabel(s.sql, deskOrder(), { volume: 1, cep: '01310100' });
    const labels = await stateOf();
    expect(labels).toEqual({ state: 'new', labels: [] });
  });

  it('is cancelled, or not shipped when picked up, whatever its labels', async () => {
    await s.orders.receive(deskOrder({ cancelled: { at: 'x', reason: 'fraud' } }));
    await s.orders.receive(deskOrder({ orderId: 'PU', pickup: true }));
    await ledgerLabel(s.sql, deskOrder(), { volume: 1 });
    await ledgerLabel(s.sql, deskOrder({ orderId: 'PU' }), { volume: 1 });
    expect((await stateOf())?.state).toBe('cancelled');
    expect((await stateOf('PU'))?.state).toBe('not_shipped');
  });
});

describe('a delivery of an order', () => {
  it('creates an order that comes cancelled as cancelled, and keeps it so', async () => {
    expect(
      await s.orders.receive(deskOrder({ ...SHOPIFY, cancelled: { at: 'x', reason: 'customer' } })),
    ).toBe('cancelled');
    expect(await s.orders.receive(deskOrder(SHOPIFY), { version: '2026-01-01T00:00:00Z' })).toBe('duplicate');
  });

  it('takes no version as not newer than a kept one, and any version as newer than none kept', async () => {
    await s.orders.receive(deskOrder(SHOPIFY));
    expect(await s.orders.receive(deskOrder({ ...SHOPIFY, serviceId: 'sedex' }))).toBe('duplicate');
    expect(
      await s.orders.receive(deskOrder({ ...SHOPIFY, serviceId: 'sedex' }), {
        version: '2026-01-01T00:00:00Z',
      }),
    ).toBe('updated');
    expect(await s.orders.receive(deskOrder(SHOPIFY), { version: '2026-01-01T00:00:00Z' })).toBe('duplicate');
    expect((await s.orders.get('#1'))?.serviceId).toBe('sedex');
  });

  it('is a conflict under another source’s or another platform order’s orderId', async () => {
    await s.orders.receive(deskOrder(SHOPIFY));
    expect(
      await s.orders.receive(deskOrder({ orderId: '#1', source: 'nuvemshop', externalId: '9001' })),
    ).toBe('conflict');
    expect(await s.orders.receive(deskOrder({ orderId: '#1', source: 'shopify' }))).toBe('conflict');
    expect(await s.orders.receive(deskOrder({ orderId: '#9', source: 'shopify', externalId: '9001' }))).toBe(
      'conflict',
    );
    expect(await s.orders.receive(deskOrder({ orderId: 'PED-1' }))).toBe('created');
    expect(await s.orders.receive(deskOrder({ orderId: 'PED-1' }), { version: '2026-01-01T00:00:00Z' })).toBe(
      'updated',
    );
  });

  it('records a delivery id once, for the order it brought', async () => {
    expect(await s.orders.receive(deskOrder(SHOPIFY), { deliveryId: 'shopify:w1' })).toBe('created');
    expect(
      await s.orders.receive(deskOrder({ ...SHOPIFY, serviceId: 'x' }), {
        deliveryId: 'shopify:w1',
        version: '2027-01-01T00:00:00Z',
      }),
    ).toBe('duplicate');
    expect(await s.sql.all('SELECT id, order_id, received_at FROM store_webhooks')).toEqual([
      { id: 'shopify:w1', order_id: '#1', received_at: s.clock.now },
    ]);
  });

  it('replaces an unlabelled order with its cancellation, and flags a labelled one keeping what was labelled', async () => {
    await s.orders.receive(deskOrder(SHOPIFY), { version: '2026-01-01T00:00:00Z' });
    const cancelled = deskOrder({
      ...SHOPIFY,
      serviceId: 'sedex',
      cancelled: { at: 'x', reason: 'customer' },
    });
    expect(await s.orders.receive(cancelled, { version: '2026-01-02T00:00:00Z' })).toBe('cancelled');
    expect(await s.orders.get('#1')).toMatchObject({
      serviceId: 'sedex',
      cancelled: { reason: 'customer' },
      needsReview: [],
    });
    await s.orders.receive(deskOrder({ ...SHOPIFY, orderId: '#2', externalId: '2' }), {
      version: '2026-01-01T00:00:00Z',
    });
    await ledgerLabel(s.sql, deskOrder({ orderId: '#2' }), {
      volume: 1,
      state: 'unknown',
      trackingCode: null,
    });
    const late = deskOrder({
      ...SHOPIFY,
      orderId: '#2',
      externalId: '2',
      serviceId: 'sedex',
      cancelled: { at: 'y', reason: 'fraud' },
    });
    expect(await s.orders.receive(late, { version: '2026-01-02T00:00:00Z' })).toBe('cancelled');
    expect(await s.orders.get('#2')).toMatchObject({
      serviceId: 'pac',
      cancelled: { at: 'y', reason: 'fraud' },
      needsReview: [{ field: 'order', reason: 'cancelled_after_label' }],
    });
  });

  it('is a conflict, not a cancellation, for a cancelled order another orderId already holds', async () => {
    await s.orders.receive(deskOrder(SHOPIFY));
    const other = deskOrder({ ...SHOPIFY, orderId: '#other', cancelled: { at: 'x', reason: 'customer' } });
    expect(await s.orders.receive(other)).toBe('conflict');
    expect(await s.orders.get('#other')).toBeUndefined();
  });

  it('keeps the reviews an order had beside the one a label’s change or cancellation adds', async () => {
    const weighed = { field: 'items[0].weightGrams', reason: 'no_weight' as const };
    await s.orders.receive(deskOrder({ ...SHOPIFY, needsReview: [weighed] }), {
      version: '2026-01-01T00:00:00Z',
    });
    await ledgerLabel(s.sql, deskOrder(SHOPIFY), { volume: 1 });
    const moved = deskOrder({ ...SHOPIFY, serviceId: 'sedex' });
    moved.recipient.endereco.numero = '51';
    expect(await s.orders.receive(moved, { version: '2026-01-02T00:00:00Z' })).toBe('flagged');
    const flagged = (await s.orders.get('#1'))?.needsReview;
    expect(flagged?.[0]).toEqual(weighed);
    expect(flagged?.[1]?.detail?.split('; ')).toHaveLength(2);
    const cancelled = deskOrder({ ...SHOPIFY, cancelled: { at: 'x', reason: 'customer' } });
    expect(await s.orders.receive(cancelled, { version: '2026-01-03T00:00:00Z' })).toBe('cancelled');
    expect((await s.orders.get('#1'))?.needsReview.map((r) => r.reason)).toEqual([
      'no_weight',
      'changed_after_label',
      'cancelled_after_label',
    ]);
  });

  it('counts a pending label as a label, and a rejected one as none', async () => {
    await s.orders.receive(deskOrder(SHOPIFY), { version: '2026-01-01T00:00:00Z' });
    await ledgerLabel(s.sql, deskOrder(SHOPIFY), { volume: 1, state: 'rejected', trackingCode: null });
    expect(
      await s.orders.receive(deskOrder({ ...SHOPIFY, serviceId: 'sedex' }), {
        version: '2026-01-02T00:00:00Z',
      }),
    ).toBe('updated');
    await ledgerLabel(s.sql, deskOrder(SHOPIFY), { volume: 1, state: 'pending', trackingCode: null });
    expect(
      await s.orders.receive(deskOrder({ ...SHOPIFY, serviceId: 'pac' }), {
        version: '2026-01-03T00:00:00Z',
      }),
    ).toBe('flagged');
  });

  it('joins the changes of a labelled order in one review, newest last, kept to its last 500 characters', async () => {
    await s.orders.receive(deskOrder(SHOPIFY), { version: '2026-01-01T00:00:00Z' });
    await ledgerLabel(s.sql, deskOrder(SHOPIFY), { volume: 1 });
    expect(
      await s.orders.receive(deskOrder({ ...SHOPIFY, serviceId: 'sedex' }), {
        version: '2026-01-02T00:00:00Z',
      }),
    ).toBe('flagged');
    expect(
      await s.orders.receive(deskOrder({ ...SHOPIFY, serviceId: 'mini' }), {
        version: '2026-01-03T00:00:00Z',
      }),
    ).toBe('flagged');
    const reviews = (await s.orders.get('#1'))?.needsReview;
    expect(reviews).toHaveLength(1);
    expect(reviews?.[0]?.field).toBe('order');
    expect(reviews?.[0]?.reason).toBe('changed_after_label');
    const [first, second] = reviews?.[0]?.detail?.split('; ') ?? [];
    expect(first).toContain('sedex');
    expect(second).toContain('mini');
    for (let i = 0; i < 40; i++)
      await s.orders.receive(deskOrder({ ...SHOPIFY, serviceId: `service-${i}-${'x'.repeat(20)}` }), {
        version: `2026-02-${String(i + 1).padStart(2, '0')}T00:00:00Z`.replace(/-(3[2-9]|[4-9]\d)T/, '-28T'),
      });
    const detail = (await s.orders.get('#1'))?.needsReview[0]?.detail ?? '';
    expect(detail.length).toBe(500);
    expect(detail.endsWith('x')).toBe(true);
    expect((await s.orders.get('#1'))?.serviceId).toBe('pac');
  });

  it('compares with what the platform sent before, when the label content was given apart', async () => {
    const sent = { recipient: deskOrder().recipient, items: deskOrder().items, serviceId: 'pac' };
    await s.orders.receive(deskOrder(SHOPIFY), { version: '2026-01-01T00:00:00Z', sent: sent as never });
    await ledgerLabel(s.sql, deskOrder(SHOPIFY), { volume: 1 });
    expect(
      await s.orders.receive(deskOrder({ ...SHOPIFY, serviceId: 'sedex' }), {
        version: '2026-01-02T00:00:00Z',
        sent: sent as never,
      }),
    ).toBe('unchanged');
  });
});

describe('the orders kept', () => {
  it('lists at most the limit, newest first, one received at the same time by orderId', async () => {
    for (const orderId of ['B', 'A', 'C']) await s.orders.receive(deskOrder({ orderId }));
    s.clock.now += 1;
    await s.orders.receive(deskOrder({ orderId: 'D' }));
    expect((await s.orders.list()).map((o) => o.orderId)).toEqual(['D', 'A', 'B', 'C']);
    expect((await s.orders.list(2)).map((o) => o.orderId)).toEqual(['D', 'A']);
    const [d] = await s.orders.list(1);
    expect(d).toMatchObject({ receivedAt: s.clock.now, updatedAt: s.clock.now, plannedVolumes: null });
  });

  it('says which orderIds are taken', async () => {
    await s.orders.receive(deskOrder({ orderId: 'A' }));
    expect([...(await s.orders.taken(['A', 'B', 'a']))]).toEqual(['A']);
  });

  it('replaces an order’s content for the operator, with its time', async () => {
    await s.orders.receive(deskOrder());
    s.clock.now += 5;
    await s.orders.replace(deskOrder({ serviceId: 'sedex' }));
    expect(await s.orders.get('PED-1')).toMatchObject({
      serviceId: 'sedex',
      updatedAt: s.clock.now,
      receivedAt: s.clock.now - 5,
    });
  });

  it('keys a product’s preset by its SKU, else its name, trimmed and in lower case', () => {
    expect(presetKey({ sku: ' CAN-01 ', name: 'Caneca' })).toBe('can-01');
    expect(presetKey({ sku: '  ', name: ' Caneca Azul ' })).toBe('caneca azul');
    expect(presetKey({ name: 'Boné' })).toBe('boné');
  });

  it('saves a preset under its key trimmed, and lists presets by key', async () => {
    await s.orders.savePreset({ key: ' ZZ ', weightGrams: 10 });
    await s.orders.savePreset({ key: 'aa', dimensions: { comprimento: 1, largura: 2, altura: 3 } });
    expect(await s.orders.presets()).toEqual([
      { key: 'aa', dimensions: { comprimento: 1, largura: 2, altura: 3 } },
      { key: 'zz', weightGrams: 10 },
    ]);
  });
});
