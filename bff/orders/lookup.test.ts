import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteLedger, type TestLedger } from '../labels/testing/ledgers.ts';
import { OrderLookup } from './lookup.ts';

/**
 * Orders found by their number and CEP, or by a signed link's label, over a real ledger (node:sqlite in memory) whose
 * attempts the test settles as the issuer would. orders.test.ts states the same through a started BFF.
 */
let clock = 1_763_800_000_000;
let ledger: TestLedger;
let orders: OrderLookup;

beforeEach(() => {
  clock = 1_763_800_000_000;
  ledger = sqliteLedger({ dataDir: ':memory:', now: () => clock });
  orders = new OrderLookup(ledger);
});
afterEach(() => ledger.close());

let n = 0;
/** A label of an order's volume to a CEP, settled as `state` (a tracking code when created, unless `null`). */
async function label(
  orderId: string | undefined,
  volume: number,
  cep: string,
  state: 'created' | 'rejected' | 'not_sent' = 'created',
  trackingCode: string | null = state === 'created' ? `QB${String(++n).padStart(8, '0')}5BR` : null,
) {
  clock += 1_000;
  const attempt = await ledger.begin({
    fingerprint: `fp-${++n}`,
    orderId,
    volume,
    request: JSON.stringify({ recipient: { nome: 'Maria', endereco: { cep } } }),
  });
  return ledger.settle(attempt.id, {
    state,
    settledBy: 'answer',
    ...(state === 'created'
      ? { prepostagemId: `PP${n}`, trackingCode: trackingCode ?? undefined }
      : { reason: 'refused' }),
  });
}

describe('OrderLookup.byOrderAndCep', () => {
  it("answers the order's labels with a tracking code, one per volume in volume order, for the CEP they went to", async () => {
    const second = await label('PED-1', 2, '20040-020');
    const first = await label('PED-1', 1, '20040020');
    await label('PED-2', 1, '20040-020');
    const found = await orders.byOrderAndCep('PED-1', '20040020');
    expect(found?.map((a) => a.id)).toEqual([first.id, second.id]);
  });

  it('answers nothing for an unknown order, a wrong CEP, or an order with no tracking code yet, alike', async () => {
    await label('PED-1', 1, '20040-020');
    await label('PED-3', 1, '20040-020', 'rejected');
    await label('PED-4', 1, '20040-020', 'created', null);
    expect(await orders.byOrderAndCep('PED-9', '20040020')).toBeUndefined();
    expect(await orders.byOrderAndCep('PED-1', '20040021')).toBeUndefined();
    expect(await orders.byOrderAndCep('PED-3', '20040020')).toBeUndefined();
    expect(await orders.byOrderAndCep('PED-4', '20040020')).toBeUndefined();
  });

  it('finds only the volumes addressed to the CEP given, and leaves out the volumes not created (issue 48)', async () => {
    const home = await label('PED-5', 1, '20040-020');
    const office = await label('PED-5', 2, '01310-100');
    await label('PED-5', 3, '20040-020', 'rejected');
    // Another recipient's parcel under the same number is never told to this CEP.
    expect((await orders.byOrderAndCep('PED-5', '01310100'))?.map((a) => a.id)).toEqual([office.id]);
    expect((await orders.byOrderAndCep('PED-5', '20040020'))?.map((a) => a.id)).toEqual([home.id]);
    // A signed link of one parcel opens that recipient's parcels only.
    expect((await orders.byLabel(office.id))?.parcels.map((a) => a.id)).toEqual([office.id]);
  });

  it('keeps the created label of a volume whose earlier attempt was refused', async () => {
    await label('PED-6', 1, '20040-020', 'rejected');
    const again = await label('PED-6', 1, '20040-020');
    expect((await orders.byOrderAndCep('PED-6', '20040020'))?.map((a) => a.id)).toEqual([again.id]);
  });

  it('leaves out a label whose outcome is unknown, though the platform named a code for it', async () => {
    const created = await label('PED-10', 1, '20040-020');
    clock += 1_000;
    const open = await ledger.begin({
      fingerprint: `fp-${++n}`,
      orderId: 'PED-10',
      volume: 2,
      request: JSON.stringify({ recipient: { endereco: { cep: '20040-020' } } }),
    });
    const unknown = await ledger.settle(open.id, {
      state: 'unknown',
      settledBy: 'diagnosis',
      trackingCode: 'QB999999995BR',
      unknownWhy: 'binding_conflict',
    });
    expect(unknown.trackingCode).toBe('QB999999995BR');
    expect((await orders.byOrderAndCep('PED-10', '20040020'))?.map((a) => a.id)).toEqual([created.id]);
  });

  it('never matches a label whose request names no CEP it can read', async () => {
    clock += 1_000;
    for (const request of [
      '{"recipient":{"endereco":{}}}',
      'not json',
      '{"recipient":{"endereco":{"cep":"x"}}}',
    ]) {
      const attempt = await ledger.begin({
        fingerprint: `fp-${++n}`,
        orderId: `PED-${n}`,
        volume: 1,
        request,
      });
      await ledger.settle(attempt.id, {
        state: 'created',
        settledBy: 'answer',
        prepostagemId: `PP${n}`,
        trackingCode: `QB${n}5BR`,
      });
      expect(await orders.byOrderAndCep(`PED-${n}`, '20040020')).toBeUndefined();
    }
  });
});

describe('OrderLookup.byLabel', () => {
  it("answers the order of a signed link's label, all its volumes", async () => {
    const first = await label('PED-7', 1, '20040-020');
    const second = await label('PED-7', 2, '20040-020');
    expect(await orders.byLabel(second.id)).toEqual({ orderId: 'PED-7', parcels: [first, second] });
  });

  it('answers a label of no order on its own', async () => {
    const alone = await label(undefined, 1, '20040-020');
    expect(await orders.byLabel(alone.id)).toEqual({ parcels: [alone] });
  });

  it('answers nothing for an unknown label, one not created, or one without a tracking code', async () => {
    const refused = await label('PED-8', 1, '20040-020', 'rejected');
    const codeless = await label('PED-8', 2, '20040-020', 'created', null);
    expect(await orders.byLabel('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(await orders.byLabel(refused.id)).toBeUndefined();
    expect(await orders.byLabel(codeless.id)).toBeUndefined();
  });
});
