import type { NewStoreOrder } from '../sandbox/checkouts/emulated-order.ts';

/**
 * `npm start`'s paid orders (docs/orders.md, "Try it"): a few orders made in the sandbox's emulated Shopify shop and
 * Nuvemshop store, each announced to the BFF by its signed webhook, so a newcomer finds them on the desk's orders page,
 * labels them in one action and sees the tracking codes on the emulated stores' page. One of them has an address line
 * the BFF cannot split, to show what the desk flags instead of guessing; one is picked up at the store and one is
 * cancelled after payment, to show the lists apart (docs/orders.md, "An order's life").
 */
const DEMO_ORDERS: {
  platform: 'shopify' | 'nuvemshop';
  store: string;
  order: NewStoreOrder;
  /** What the store does to it after payment. */
  afterwards?: 'cancel';
}[] = [
  {
    platform: 'shopify',
    store: 'loja-demo.myshopify.com',
    order: {
      customer: { name: 'Rita Retira', email: 'rita@example.com' },
      address: { address1: '', city: 'São Paulo', province: 'SP', zip: '01310-100' },
      items: [{ name: 'Boné', sku: 'BON-01', quantity: 1, grams: 150, price: 59.9 }],
      serviceCode: 'correios-pac',
      pickup: true,
    },
  },
  {
    platform: 'nuvemshop',
    store: '1001',
    order: {
      customer: { name: 'Caio Desistiu', email: 'caio@example.com', cpf: '52998224725' },
      address: {
        street: 'Rua XV de Novembro',
        number: '700',
        locality: 'Centro',
        city: 'Curitiba',
        province: 'Paraná',
        zip: '80010-010',
      },
      items: [{ name: 'Caneca', sku: 'CAN-01', quantity: 1, grams: 400, price: 39.9 }],
      serviceCode: 'correios-pac',
    },
    afterwards: 'cancel',
  },
  {
    platform: 'shopify',
    store: 'loja-demo.myshopify.com',
    order: {
      customer: { name: 'Ana Souza', email: 'ana@example.com', phone: '21987654321' },
      address: {
        address1: 'Rua da Assembleia, 10, sala 5',
        city: 'Rio de Janeiro',
        province: 'RJ',
        zip: '20040-020',
      },
      items: [{ name: 'Tênis de corrida', sku: 'TEN-42', quantity: 1, grams: 900, price: 349.9 }],
      serviceCode: 'correios-sedex',
    },
  },
  {
    platform: 'shopify',
    store: 'loja-demo.myshopify.com',
    order: {
      customer: { name: 'Carlos Mendes', email: 'carlos@example.com' },
      address: {
        address1: 'Praça Sete de Setembro, 100',
        city: 'Belo Horizonte',
        province: 'MG',
        zip: '30130-010',
      },
      items: [
        { name: 'Bota de couro', sku: 'BOT-40', quantity: 2, grams: 1400, price: 289.9 },
        { name: 'Meia esportiva', sku: 'MEI-01', quantity: 3, grams: 60, price: 19.9 },
      ],
      serviceCode: 'correios-pac',
    },
  },
  {
    platform: 'shopify',
    store: 'loja-demo.myshopify.com',
    order: {
      customer: { name: 'Fábio Nunes' },
      address: { address1: 'Rua 25 de Março 1000', city: 'São Paulo', province: 'SP', zip: '01310-100' },
      items: [{ name: 'Chinelo', sku: 'CHI-38', quantity: 1, grams: 300, price: 49.9 }],
      serviceCode: 'correios-pac',
    },
  },
  {
    platform: 'nuvemshop',
    store: '1001',
    order: {
      customer: { name: 'Bruno Lima', email: 'bruno@example.com', cpf: '52998224725' },
      address: {
        street: 'Rua XV de Novembro',
        number: '700',
        floor: 'loja 2',
        locality: 'Centro',
        city: 'Curitiba',
        province: 'Paraná',
        zip: '80010-010',
      },
      items: [
        {
          name: 'Sandália',
          sku: 'SAN-37',
          quantity: 1,
          grams: 450,
          price: 129.9,
          dimensions: { width: 12, height: 10, depth: 28 },
        },
      ],
      serviceCode: 'correios-pac',
    },
  },
  {
    platform: 'nuvemshop',
    store: '1001',
    order: {
      customer: { name: 'Helena Faria', email: 'helena@example.com' },
      address: {
        street: 'Rua dos Andradas',
        number: '1234',
        locality: 'Centro Histórico',
        city: 'Porto Alegre',
        province: 'Rio Grande do Sul',
        zip: '90010-150',
      },
      items: [
        {
          name: 'Mochila',
          sku: 'MOC-01',
          quantity: 1,
          grams: 800,
          price: 219.9,
          dimensions: { width: 30, height: 15, depth: 40 },
        },
      ],
      serviceCode: 'correios-sedex',
    },
  },
];

/** Makes the demo's paid orders in the sandbox; answers how many reached the BFF (its webhook answered 200). */
export async function sendDemoOrders(sandboxUrl: string): Promise<number> {
  let delivered = 0;
  for (const { platform, store, order, afterwards } of DEMO_ORDERS) {
    const res = await fetch(`${sandboxUrl}/_sandbox/stores/${platform}/${store}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(order),
    });
    const made = (await res.json().catch(() => ({}))) as {
      order?: { id: number };
      sent?: { status: number }[];
    };
    if (made.sent?.some((sent) => sent.status === 200)) delivered += 1;
    if (afterwards === 'cancel' && made.order)
      await fetch(`${sandboxUrl}/_sandbox/stores/${platform}/${store}/orders/${made.order.id}/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'customer' }),
      });
  }
  return delivered;
}
