import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
} from '../../sandbox/checkouts/accounts.ts';
import { SAMPLE_LABEL, samplePartyAt } from '../../sandbox/testing.ts';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { shopifyHmac } from '../../shared/checkouts/shopify.ts';
import {
  NUVEMSHOP_STORE,
  nuvemshopOrder,
  type OrderStack,
  SHOPIFY_SHOP,
  shopifyOrder,
  startOrderStack,
} from '../orders/testing.ts';

let stack: OrderStack;
beforeAll(async () => {
  stack = await startOrderStack();
}, 30_000);
afterAll(async () => {
  await stack?.close();
});

interface Listed {
  orderId: string;
  source: string;
  serviceId?: string;
  recipient: { nome: string; endereco: Record<string, string> };
  needsReview: { field: string; reason: string; detail?: string }[];
  items: { name: string; quantity: number; weightGrams?: number; dimensions?: object }[];
  state: string;
}

async function orders(): Promise<Listed[]> {
  const res = await stack.desk.get('/admin/api/orders');
  expect(res.status).toBe(200);
  return ((await res.json()) as { orders: Listed[] }).orders;
}
const find = async (orderId: string) => (await orders()).filter((o) => o.orderId === orderId);

/** A webhook to the BFF as a platform (or an attacker) would send it. */
function shopifyPost(body: string, headers: Record<string, string>) {
  return fetch(`${stack.bff.url}/stores/shopify/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': 'orders/paid',
      'x-shopify-shop-domain': SHOPIFY_SHOP,
      'x-shopify-webhook-id': crypto.randomUUID(),
      ...headers,
    },
    body,
  });
}

describe('Shopify orders/paid', () => {
  it('puts a paid order on the desk with its items, the address split as Correios needs it, and the chosen service', async () => {
    const { order, sent } = await stack.paid('shopify', shopifyOrder());
    expect(sent).toEqual([expect.objectContaining({ status: 200 })]);
    const [listed] = await find(order.orderId);
    expect(listed).toMatchObject({
      orderId: order.orderId,
      source: 'shopify',
      serviceId: 'correios-pac',
      state: 'new',
      recipient: {
        nome: 'Ana Souza',
        endereco: {
          cep: '20040020',
          logradouro: 'Rua da Assembleia',
          numero: '10',
          complemento: 'sala 5',
          // Shopify has no neighbourhood: the CEP service's.
          bairro: 'Centro',
          cidade: 'Rio de Janeiro',
          uf: 'RJ',
        },
      },
      items: [{ name: 'Camiseta', quantity: 2, weightGrams: 300 }],
      needsReview: [],
    });
  });

  it('refuses a forged webhook (no signature, another secret, a body changed after signing) and creates nothing', async () => {
    const before = (await orders()).length;
    const body = JSON.stringify({ id: 1, name: '#FORGED', financial_status: 'paid', line_items: [] });
    const missing = await shopifyPost(body, {});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: { code: 'missing_api_key' } });
    const wrong = await shopifyPost(body, {
      'x-shopify-hmac-sha256': shopifyHmac('another-app-secret-000', body),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    const signed = shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body);
    const tampered = await shopifyPost(body.replace('FORGED', 'FORGEE'), { 'x-shopify-hmac-sha256': signed });
    expect(tampered.status).toBe(401);
    expect(await orders()).toHaveLength(before);
  });

  it('takes the same webhook twice (a platform retry, or a replay) as one order', async () => {
    const { order, sent } = await stack.paid('shopify', shopifyOrder({ customer: { name: 'Carla Dias' } }));
    const again = await stack.sandbox.control(`stores/webhooks/${sent[0]?.id}/resend`);
    expect(((await again.json()) as { sent: { status: number } }).sent.status).toBe(200);
    expect(await find(order.orderId)).toHaveLength(1);
  });

  it('keeps an order changed after payment up to date until its first label, then flags it instead', async () => {
    const { order } = await stack.paid('shopify', shopifyOrder({ customer: { name: 'Davi Reis' } }));
    const moved = await stack.sandbox.control(`stores/shopify/${SHOPIFY_SHOP}/orders/${order.id}/update`, {
      address1: 'Avenida Atlântica, 1702',
      zip: '22041-001',
    });
    expect(moved.status).toBe(200);
    const [updated] = await find(order.orderId);
    expect(updated?.recipient.endereco).toMatchObject({
      logradouro: 'Avenida Atlântica',
      numero: '1702',
      bairro: 'Copacabana',
    });
    // A label for it, then another change: the order is kept as labelled and flagged.
    // To the order's CEP now: a label under a store order's number to another CEP is refused (issue 48).
    const label = await stack.desk.post('/admin/api/labels', {
      ...SAMPLE_LABEL,
      recipient: samplePartyAt('22041-001', 'RJ', 'Rio de Janeiro'),
      orderId: order.orderId,
      volume: 1,
    });
    expect(label.status).toBe(201);
    await stack.sandbox.control(`stores/shopify/${SHOPIFY_SHOP}/orders/${order.id}/update`, {
      address1: 'Rua da Assembleia, 99',
      zip: '20040-020',
    });
    const [flagged] = await find(order.orderId);
    expect(flagged?.recipient.endereco.numero).toBe('1702');
    // What changed, field by field, against the version the label was made of.
    expect(flagged?.needsReview).toEqual([
      {
        field: 'order',
        reason: 'changed_after_label',
        detail: 'CEP 22041001 → 20040020; street Avenida Atlântica → Rua da Assembleia; number 1702 → 99',
      },
    ]);
  });

  it('ignores an older version arriving after a newer one (webhooks are not ordered)', async () => {
    const { order, sent } = await stack.paid('shopify', shopifyOrder({ customer: { name: 'Elisa Prado' } }));
    await stack.sandbox.control(`stores/shopify/${SHOPIFY_SHOP}/orders/${order.id}/update`, {
      address1: 'Rua da Assembleia, 77',
    });
    // The first delivery's payload again, under a new delivery id: an older version of the order.
    const first = stack.sandbox.state.checkouts.orders.sent.find((webhook) => webhook.id === sent[0]?.id);
    const late = await shopifyPost(first?.body ?? '', {
      'x-shopify-hmac-sha256': first?.headers['x-shopify-hmac-sha256'] ?? '',
    });
    expect(await late.json()).toEqual({ received: 'duplicate' });
    expect((await find(order.orderId))[0]?.recipient.endereco.numero).toBe('77');
  });

  it('flags an address line it cannot split, leaves the number empty and shows the line as written', async () => {
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({
        customer: { name: 'Fábio Nunes' },
        address: { address1: 'Rua 25 de Março 1000', city: 'São Paulo', province: 'SP', zip: '01310-100' },
      }),
    );
    const [listed] = await find(order.orderId);
    expect(listed?.recipient.endereco).toMatchObject({ logradouro: 'Rua 25 de Março 1000', numero: '' });
    expect(listed?.needsReview).toContainEqual({
      field: 'recipient.endereco.numero',
      reason: 'number_not_found',
      detail: 'Rua 25 de Março 1000',
    });
    // Its labels wait for the operator: nothing is sent with a guessed number.
    const batch = await stack.desk.post('/admin/api/orders/labels', {
      orderIds: [order.orderId],
      sender: SAMPLE_LABEL.sender,
    });
    expect(await batch.json()).toMatchObject({
      results: [{ orderId: order.orderId, volumes: [], refused: { reason: 'needs_review' } }],
    });
    // The operator splits it on the review page: then its label goes out.
    const reviewed = await stack.desk.post(`/admin/api/orders/${encodeURIComponent(order.orderId)}/review`, {
      recipient: {
        ...listed?.recipient,
        endereco: { ...listed?.recipient.endereco, logradouro: 'Rua 25 de Março', numero: '1000' },
      },
    });
    expect(reviewed.status).toBe(200);
    expect(((await reviewed.json()) as { order: Listed }).order.needsReview).toEqual([]);
    const again = await stack.desk.post('/admin/api/orders/labels', {
      orderIds: [order.orderId],
      sender: SAMPLE_LABEL.sender,
    });
    expect(await again.json()).toMatchObject({
      results: [{ orderId: order.orderId, volumes: [{ volume: 1, status: 201 }] }],
    });
  });

  it('flags a city and a state the CEP disagrees with', async () => {
    const { order } = await stack.paid(
      'shopify',
      shopifyOrder({
        customer: { name: 'Gil Castro' },
        address: { address1: 'Rua Um, 5', city: 'Niterói', province: 'SP', zip: '20040-020' },
      }),
    );
    const [listed] = await find(order.orderId);
    expect(listed?.needsReview).toEqual(
      expect.arrayContaining([
        { field: 'recipient.endereco.cidade', reason: 'city_mismatch', detail: 'Rio de Janeiro' },
        { field: 'recipient.endereco.uf', reason: 'uf_mismatch', detail: 'RJ' },
      ]),
    );
  });
});

describe('Nuvemshop order/paid', () => {
  it('reads the paid order through the API and puts it on the desk, sizes and CPF included', async () => {
    const { order } = await stack.paid('nuvemshop', nuvemshopOrder());
    const [listed] = await find(order.orderId);
    expect(listed).toMatchObject({
      source: 'nuvemshop',
      serviceId: 'correios-sedex',
      recipient: {
        nome: 'Bruno Lima',
        cpfCnpj: '52998224725',
        endereco: {
          cep: '80010010',
          logradouro: 'Rua XV de Novembro',
          numero: '700',
          complemento: 'loja 2',
          bairro: 'Centro',
          cidade: 'Curitiba',
          uf: 'PR',
        },
      },
      items: [{ name: 'Caneca', weightGrams: 400, dimensions: { comprimento: 10, largura: 10, altura: 12 } }],
      needsReview: [],
    });
  });

  it('refuses a forged webhook before reading anything, and takes a replayed one as the same order', async () => {
    const before = (await orders()).length;
    const body = JSON.stringify({ store_id: Number(NUVEMSHOP_STORE), event: 'order/paid', id: 8_000_001 });
    const forged = await fetch(`${stack.bff.url}/stores/nuvemshop/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-linkedstore-hmac-sha256': nuvemshopHmac('not-the-app-secret', body),
      },
      body,
    });
    expect(forged.status).toBe(401);
    expect(await orders()).toHaveLength(before);
    const { order, sent } = await stack.paid(
      'nuvemshop',
      nuvemshopOrder({ customer: { name: 'Caio Melo' } }),
    );
    await stack.sandbox.control(`stores/webhooks/${sent[0]?.id}/resend`);
    await stack.sandbox.control(`stores/webhooks/${sent[0]?.id}/resend`);
    expect(await find(order.orderId)).toHaveLength(1);
  });

  it('keeps out an event of another store, or an order not paid, answering 200 so Nuvemshop stops sending it', async () => {
    const other = JSON.stringify({ store_id: 999, event: 'order/paid', id: 1 });
    const res = await fetch(`${stack.bff.url}/stores/nuvemshop/webhooks`, {
      method: 'POST',
      headers: { 'x-linkedstore-hmac-sha256': nuvemshopHmac(SANDBOX_NUVEMSHOP_APP_SECRET, other) },
      body: other,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: 'ignored' });
  });
});
