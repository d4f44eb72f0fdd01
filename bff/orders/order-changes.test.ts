import { describe, expect, it } from 'vitest';
import type { StoreOrder } from '../../shared/orders/order.ts';
import { changesBetween, labelledContent } from './order-changes.ts';

const order: Pick<StoreOrder, 'recipient' | 'items' | 'serviceId'> = {
  serviceId: 'correios-pac',
  recipient: {
    nome: 'Ana Souza',
    telefone: '11987654321',
    endereco: {
      cep: '20040-020',
      logradouro: 'Rua da Assembleia',
      numero: '10',
      complemento: 'sala 5',
      bairro: 'Centro',
      cidade: 'Rio de Janeiro',
      uf: 'rj',
    },
  },
  items: [
    { name: 'Camiseta', sku: 'CAM', quantity: 2, weightGrams: 300, valor: 59.9 },
    { name: 'Caneca', quantity: 1, valor: 39.9 },
  ],
};

const before = labelledContent(order);
const changed = (change: Partial<typeof order>) =>
  changesBetween(before, labelledContent({ ...order, ...change }));
const at = (endereco: Partial<StoreOrder['recipient']['endereco']>) => ({
  recipient: { ...order.recipient, endereco: { ...order.recipient.endereco, ...endereco } },
});

describe('what of an order its labels are made of', () => {
  it('reads the recipient, the items and the service, normalized (CEP digits, UF in capitals)', () => {
    expect(before).toEqual({
      recipient: {
        nome: 'Ana Souza',
        cep: '20040020',
        logradouro: 'Rua da Assembleia',
        numero: '10',
        complemento: 'sala 5',
        cidade: 'Rio de Janeiro',
        uf: 'RJ',
      },
      items: [
        { name: 'Camiseta', sku: 'CAM', quantity: 2 },
        { name: 'Caneca', sku: '', quantity: 1 },
      ],
      serviceId: 'correios-pac',
    });
  });

  it('finds nothing when only what a label does not print changed (phone, neighbourhood, weights, values)', () => {
    expect(
      changed({
        recipient: {
          ...order.recipient,
          telefone: '2199',
          endereco: { ...order.recipient.endereco, bairro: 'Saúde' },
        },
        items: [
          { name: 'Camiseta', sku: 'CAM', quantity: 2, weightGrams: 999, valor: 1 },
          { name: 'Caneca', quantity: 1, valor: 2 },
        ],
      }),
    ).toEqual([]);
    expect(changed({ ...at({ cep: '20040020', uf: 'RJ' }) })).toEqual([]);
  });

  it('names each address field that changed, old → new', () => {
    expect(changed(at({ cep: '22041-001', numero: '1702', complemento: '' }))).toEqual([
      'CEP 20040020 → 22041001',
      'number 10 → 1702',
      'complement sala 5 → —',
    ]);
    expect(changed(at({ logradouro: 'Av. Rio Branco', cidade: 'Niterói', uf: 'RJ' }))).toEqual([
      'street Rua da Assembleia → Av. Rio Branco',
      'city Rio de Janeiro → Niterói',
    ]);
    expect(changed({ recipient: { ...order.recipient, nome: 'Ana S.' } })).toEqual([
      'name Ana Souza → Ana S.',
    ]);
  });

  it('names items whose quantity changed, removed or added, and a new service', () => {
    expect(
      changed({
        serviceId: 'correios-sedex',
        items: [
          { name: 'Camiseta', sku: 'CAM', quantity: 1, valor: 1 },
          { name: 'Boné', sku: 'BON', quantity: 3, valor: 1 },
        ],
      }),
    ).toEqual([
      'Camiseta 2 → 1',
      'Caneca removed (was 1)',
      'Boné added (3)',
      'service correios-pac → correios-sedex',
    ]);
    expect(changed({ serviceId: undefined })).toEqual(['service correios-pac → —']);
  });

  it('counts two lines of one product as one (a line split in two is no change)', () => {
    expect(
      changed({
        items: [
          { name: 'Camiseta', sku: 'CAM', quantity: 1, valor: 1 },
          { name: 'Camiseta', sku: 'CAM', quantity: 1, valor: 1 },
          { name: 'Caneca', quantity: 1, valor: 1 },
        ],
      }),
    ).toEqual([]);
  });
});
