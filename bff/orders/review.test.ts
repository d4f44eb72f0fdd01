import { describe, expect, it } from 'vitest';
import type { Review } from '../../shared/orders/order.ts';
import type { CepAnswer } from './cep-directory.ts';
import { type DraftOrder, type ReviewDeps, reviewed } from './review.ts';
import { PAULISTA } from './testing/desk.ts';

/**
 * What the operator must look at before an order's labels (docs/orders.md, "What the desk shows"), every rule of
 * review.ts against a scripted CEP lookup and service map: csv-import.test.ts and the stores' tests state it end to end.
 */

function deps(answer: CepAnswer = PAULISTA): ReviewDeps & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    cep: {
      lookup: async (cep) => {
        asked.push(cep);
        return answer;
      },
    },
    serviceCodes: { codeOf: (serviceId) => (serviceId === 'pac' ? '03298' : undefined) },
  };
}

function draft(address: Partial<DraftOrder['recipient']['endereco']> = {}, change: Partial<DraftOrder> = {}) {
  return {
    orderId: 'PED-1',
    source: 'csv',
    serviceId: 'pac',
    recipient: {
      nome: 'Ana',
      endereco: {
        cep: '01310-100',
        logradouro: 'Av. Paulista',
        numero: '1000',
        bairro: 'Centro',
        cidade: 'São Paulo',
        uf: 'SP',
        ...address,
      },
    },
    items: [{ name: 'Caneca', quantity: 1, weightGrams: 400, valor: 30 }],
    ...change,
  } satisfies DraftOrder;
}

const reviews = async (order: DraftOrder, answer?: CepAnswer): Promise<Review[]> =>
  (await reviewed(order, deps(answer))).needsReview;

describe('an order reviewed', () => {
  it('finds nothing in a whole order, keeps its fields (the CEP as 8 digits) and asks the CEP once', async () => {
    const d = deps();
    const order = await reviewed(draft({ uf: 'sp', cidade: 'sao  paulo' }), d);
    expect(order.needsReview).toEqual([]);
    expect(order.recipient.endereco).toEqual({
      cep: '01310100',
      logradouro: 'Av. Paulista',
      numero: '1000',
      bairro: 'Centro',
      cidade: 'sao  paulo',
      uf: 'SP',
    });
    expect(order.serviceId).toBe('pac');
    expect(d.asked).toEqual(['01310100']);
  });

  it('keeps what the source found, once per field, before its own findings', async () => {
    const found = await reviews(
      draft(
        { numero: '' },
        {
          needsReview: [{ field: 'recipient.endereco.numero', reason: 'number_not_found', detail: 'Rua X' }],
        },
      ),
    );
    expect(found).toEqual([
      { field: 'recipient.endereco.numero', reason: 'number_not_found', detail: 'Rua X' },
    ]);
  });

  it('does not change the draft it was given', async () => {
    const given = draft({ bairro: '', uf: 'sp' });
    await reviewed(given, deps());
    expect(given.recipient.endereco.bairro).toBe('');
    expect(given.recipient.endereco.uf).toBe('sp');
  });

  it('says an empty CEP is missing and a CEP of other than 8 digits is malformed, and asks no service', async () => {
    const d = deps();
    expect((await reviewed(draft({ cep: '  ' }), d)).needsReview).toEqual([
      { field: 'recipient.endereco.cep', reason: 'missing' },
    ]);
    expect((await reviewed(draft({ cep: ' 0131-01 ' }), d)).needsReview).toEqual([
      { field: 'recipient.endereco.cep', reason: 'malformed', detail: '0131-01' },
    ]);
    expect(d.asked).toEqual([]);
  });

  it('fills an empty street, neighbourhood, city and UF from the CEP’s address, and flags nothing for them', async () => {
    const order = await reviewed(draft({ logradouro: ' ', bairro: ' ', cidade: '  ', uf: ' ' }), deps());
    expect(order.needsReview).toEqual([]);
    expect(order.recipient.endereco).toMatchObject({
      logradouro: 'Avenida Paulista',
      bairro: 'Bela Vista',
      cidade: 'São Paulo',
      uf: 'SP',
    });
  });

  it('keeps an empty street or neighbourhood missing when the CEP’s address has none (a city-wide CEP)', async () => {
    const cityWide: CepAnswer = {
      kind: 'address',
      service: 'viacep',
      address: { cep: '13560970', logradouro: '', bairro: '', cidade: 'São Carlos', uf: 'SP' },
    };
    expect(
      await reviews(draft({ cep: '13560970', logradouro: '', bairro: '', cidade: 'São Carlos' }), cityWide),
    ).toEqual([
      { field: 'recipient.endereco.logradouro', reason: 'missing' },
      { field: 'recipient.endereco.bairro', reason: 'missing' },
    ]);
  });

  it('flags a city and a UF the CEP disagrees with, naming the CEP’s, and never corrects them', async () => {
    const order = await reviewed(draft({ cidade: 'Campinas', uf: 'rj' }), deps());
    expect(order.needsReview).toEqual([
      { field: 'recipient.endereco.cidade', reason: 'city_mismatch', detail: 'São Paulo' },
      { field: 'recipient.endereco.uf', reason: 'uf_mismatch', detail: 'SP' },
    ]);
    expect(order.recipient.endereco).toMatchObject({ cidade: 'Campinas', uf: 'RJ' });
  });

  it('flags a CEP no service knows, and a UF outside the CEP’s range from the table', async () => {
    expect(await reviews(draft({ uf: 'RJ' }), { kind: 'not_found', uf: 'SP' })).toEqual([
      { field: 'recipient.endereco.cep', reason: 'cep_not_found', detail: '01310100' },
      { field: 'recipient.endereco.uf', reason: 'uf_mismatch', detail: 'SP' },
    ]);
    expect(await reviews(draft({ uf: 'sp' }), { kind: 'not_found', uf: 'SP' })).toEqual([
      { field: 'recipient.endereco.cep', reason: 'cep_not_found', detail: '01310100' },
    ]);
  });

  it('when no service answers, checks the UF against the table alone, and an empty UF is missing', async () => {
    expect(await reviews(draft({ uf: 'RJ' }), { kind: 'uf_only', uf: 'SP' })).toEqual([
      { field: 'recipient.endereco.uf', reason: 'uf_mismatch', detail: 'SP' },
    ]);
    expect(await reviews(draft({ uf: 'sp' }), { kind: 'uf_only', uf: 'SP' })).toEqual([]);
    expect(await reviews(draft({ uf: 'RJ' }), { kind: 'uf_only', uf: undefined })).toEqual([]);
    expect(await reviews(draft({ uf: ' ' }), { kind: 'uf_only', uf: 'SP' })).toEqual([
      { field: 'recipient.endereco.uf', reason: 'missing' },
    ]);
  });

  it('says each empty required field is missing: the name and every part of the address but the complement', async () => {
    const empty = draft({ cep: '', logradouro: '', numero: ' ', bairro: '', cidade: '', uf: '' });
    empty.recipient.nome = ' ';
    expect((await reviews(empty)).map((r) => `${r.field} ${r.reason}`)).toEqual([
      'recipient.endereco.cep missing',
      'recipient.nome missing',
      'recipient.endereco.logradouro missing',
      'recipient.endereco.numero missing',
      'recipient.endereco.bairro missing',
      'recipient.endereco.cidade missing',
      'recipient.endereco.uf missing',
    ]);
  });

  it('says a service the store does not map is unknown_service, and no service is missing', async () => {
    expect(await reviews(draft({}, { serviceId: 'sedex-hoje' }))).toEqual([
      { field: 'serviceId', reason: 'unknown_service', detail: 'sedex-hoje' },
    ]);
    const none: DraftOrder = draft();
    delete none.serviceId;
    expect(await reviews(none)).toEqual([{ field: 'serviceId', reason: 'missing' }]);
  });

  it('names each item without a weight by its index', async () => {
    expect(
      await reviews(
        draft(
          {},
          {
            items: [
              { name: 'Caneca', quantity: 1, weightGrams: 400, valor: 30 },
              { name: 'Camiseta', quantity: 2, valor: 50 },
              { name: 'Boné', quantity: 1, valor: 40 },
            ],
          },
        ),
      ),
    ).toEqual([
      { field: 'items[1].weightGrams', reason: 'no_weight' },
      { field: 'items[2].weightGrams', reason: 'no_weight' },
    ]);
  });
});
