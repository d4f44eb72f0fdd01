import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
} from '../../sandbox/checkouts/accounts.ts';
import { SAMPLE_LABEL } from '../../sandbox/testing.ts';
import { nuvemshopHmac } from '../../shared/checkouts/nuvemshop.ts';
import { shopifyHmac } from '../../shared/checkouts/shopify.ts';
import type { Sql } from '../../shared/sql/sql.ts';
import { SqliteSql } from '../../shared/sql/sqlite.ts';
import { type SmtpServer, startSmtp } from '../../testing/receivers.ts';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import {
  type DeskClient,
  deskClient,
  NUVEMSHOP_STORE,
  nuvemshopOrder,
  type OrderStack,
  SHOPIFY_SHOP,
  shopifyOrder,
  startOrderStack,
} from '../orders/testing.ts';
import { erasedParty, isCustomersRecipient } from './erasure.ts';
import { PERSONAL_DATA } from './testing/personal-data.ts';

/**
 * A customer's erasure, end to end, on both databases: a real BFF takes the customer's paid orders from both emulated
 * stores, issues their labels, e-mails the shopper as the parcels move, records a data request; then Shopify's
 * `customers/redact` and Nuvemshop's arrive, signed. Afterwards every text value of every table of every database the
 * BFF writes is searched for the customer's name, e-mail, phone, CPF and address; the tables searched are listed, and
 * must be exactly those `personal-data.ts` accounts for.
 */

/** The customer: values no fixture shares, so a hit is theirs. */
const CUSTOMER = {
  name: 'Zuleica Quaresma Tavares',
  email: 'zuleica.tavares@example.org',
  phone: '+55 21 99876-5432',
  cpf: '529.982.247-25',
  street: 'Rua Visconde de Pirajá',
  complement: 'cobertura 77',
  cep: '22041-001',
};
/** What must be gone: each of these, as the platforms or the kit may write it. */
const NEEDLES = [
  'Zuleica',
  'Quaresma',
  'zuleica.tavares@example.org',
  '99876-5432',
  '998765432',
  '52998224725',
  '529.982.247-25',
  'Visconde de Pirajá',
  'cobertura 77',
  '22041001',
  '22041-001',
];
/** Another customer of the same store, who must keep everything. */
const OTHER = { name: 'Otávio Brandão Lemos', email: 'otavio.lemos@example.net' };

interface Backend {
  label: string;
  env(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

let postgres: PostgresServer | undefined;
const BACKENDS: Backend[] = [
  { label: 'node:sqlite', env: async () => ({}), close: async () => undefined },
  {
    label: 'PostgreSQL',
    env: async () => {
      postgres = await startPostgres();
      return { BFF_DATABASE_URL: await postgres.createDatabase('privacy') };
    },
    close: async () => {
      await postgres?.close();
    },
  },
];

/** Every table of a database, and each of its rows' text values. */
async function tablesOf(sql: Sql): Promise<string[]> {
  const rows =
    sql.dialect === 'sqlite'
      ? await sql.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      : await sql.all(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
        );
  return rows.map((r) => String(r.name)).sort();
}

/** Where each needle is found: `table.column` per needle. */
async function search(sqls: Sql[], needles: string[]): Promise<{ tables: string[]; hits: string[] }> {
  const tables: string[] = [];
  const hits: string[] = [];
  for (const sql of sqls) {
    for (const table of await tablesOf(sql)) {
      tables.push(table);
      for (const row of await sql.all(`SELECT * FROM ${table}`)) {
        for (const [column, value] of Object.entries(row)) {
          if (typeof value !== 'string') continue;
          const text = value.toLowerCase();
          for (const needle of needles)
            if (text.includes(needle.toLowerCase())) hits.push(`${table}.${column}: ${needle}`);
        }
      }
    }
  }
  return { tables: [...new Set(tables)].sort(), hits: [...new Set(hits)].sort() };
}

describe.each(BACKENDS)('customers/redact on $label', (backend) => {
  let stack: OrderStack;
  let smtp: SmtpServer;
  let desk: DeskClient;
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  const sqls: Sql[] = [];

  const dataDir = mkdtempSync(join(tmpdir(), 'bff-privacy-'));

  beforeAll(async () => {
    smtp = await startSmtp();
    stack = await startOrderStack(
      {
        BFF_DATA_DIR: dataDir,
        BFF_SMTP_URL: smtp.url,
        BFF_MAIL_FROM: 'Loja Demo <pedidos@loja-demo.example>',
        BFF_STORE_NAME: 'Loja Demo',
        ...(await backend.env()),
      },
      { now, notifications: { timers: false } },
    );
    sqls.push(stack.bff.backends.sql);
    // On node:sqlite, OAuth (agents, desk sessions, failed logins) is a file of its own beside the ledger.
    if (stack.bff.backends.sql.dialect === 'sqlite')
      sqls.push(new SqliteSql({ dataDir, file: 'oauth.sqlite' }));
  }, 120_000);
  afterAll(async () => {
    for (const sql of sqls.slice(1)) await sql.close();
    await stack?.close();
    await smtp?.close();
    await backend.close();
  });

  async function compliance(topic: string, payload: object) {
    const body = JSON.stringify(payload);
    return fetch(`${stack.bff.url}/stores/shopify/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body),
        'x-shopify-topic': topic,
        'x-shopify-shop-domain':
          payload && 'shop_domain' in payload ? String(payload.shop_domain) : SHOPIFY_SHOP,
        'x-shopify-webhook-id': crypto.randomUUID(),
      },
      body,
    });
  }

  async function lgpd(event: string, payload: object) {
    const body = JSON.stringify(payload);
    return fetch(`${stack.bff.url}/stores/nuvemshop/webhooks/${event}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-linkedstore-hmac-sha256': nuvemshopHmac(SANDBOX_NUVEMSHOP_APP_SECRET, body),
      },
      body,
    });
  }

  it('erases the customer from every table of every database, and keeps the other customer', async () => {
    const address = {
      address1: `${CUSTOMER.street}, 4321`,
      address2: CUSTOMER.complement,
      city: 'Rio de Janeiro',
      province: 'RJ',
      zip: CUSTOMER.cep,
    };
    const customer = { name: CUSTOMER.name, email: CUSTOMER.email, phone: CUSTOMER.phone, cpf: CUSTOMER.cpf };
    const shopify = await stack.paid('shopify', shopifyOrder({ customer, address }));
    const nuvem = await stack.paid(
      'nuvemshop',
      nuvemshopOrder({
        customer,
        address: {
          street: CUSTOMER.street,
          number: '4321',
          floor: CUSTOMER.complement,
          locality: 'Copacabana',
          city: 'Rio de Janeiro',
          province: 'Rio de Janeiro',
          zip: CUSTOMER.cep,
        },
      }),
    );
    const other = await stack.paid(
      'shopify',
      shopifyOrder({ customer: { name: OTHER.name, email: OTHER.email } }),
    );
    const orderIds = [shopify.order.orderId, nuvem.order.orderId, other.order.orderId];
    const issued = await stack.desk.post('/admin/api/orders/labels', {
      orderIds,
      sender: SAMPLE_LABEL.sender,
    });
    expect(issued.status).toBe(200);
    // The parcels move; the watcher e-mails the shopper (the outbox keeps the address).
    const mailed = (to: string) => smtp.received.some((m) => m.to.includes(to));
    for (let i = 0; i < 12 && !(mailed(CUSTOMER.email) && mailed(OTHER.email)); i++) {
      offsetMs += 12 * 3_600_000;
      await stack.sandbox.control('advance', { hours: 12 });
      await stack.bff.notifications.tick();
      await stack.bff.notifications.dispatcher.drain();
    }
    expect(mailed(CUSTOMER.email) && mailed(OTHER.email)).toBe(true);
    // The merchant is asked what the kit holds (Shopify's payload shape, this customer's values).
    const asked = await compliance('customers/data_request', {
      shop_id: 954889,
      shop_domain: SHOPIFY_SHOP,
      orders_requested: [shopify.order.id],
      customer: { id: 191167, email: CUSTOMER.email, phone: CUSTOMER.phone },
      data_request: { id: 9999 },
    });
    expect(await asked.json()).toEqual({ received: 'recorded' });

    const lookup = () =>
      fetch(`${stack.bff.url}/api/orders/lookup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: shopify.order.orderId, cep: CUSTOMER.cep }),
      });
    expect((await lookup()).status).toBe(200);
    const before = await search(sqls, NEEDLES);
    // The instrument finds the data where the kit keeps it (else the search below could not fail).
    const tablesHit = new Set(before.hits.map((hit) => hit.split('.')[0]));
    for (const table of ['store_orders', 'label_attempts', 'notification_deliveries', 'privacy_requests'])
      expect(tablesHit).toContain(table);

    const shopifyRedact = await compliance('customers/redact', {
      shop_id: 954889,
      shop_domain: SHOPIFY_SHOP,
      customer: { id: 191167, email: CUSTOMER.email, phone: CUSTOMER.phone },
      orders_to_redact: [shopify.order.id],
    });
    expect(shopifyRedact.status).toBe(200);
    expect(await shopifyRedact.json()).toEqual({ received: 'erased' });
    const nuvemRedact = await lgpd('customers/redact', {
      store_id: NUVEMSHOP_STORE,
      customer: { id: 1, email: CUSTOMER.email, phone: CUSTOMER.phone, identification: CUSTOMER.cpf },
      orders_to_redact: [nuvem.order.id],
    });
    expect(await nuvemRedact.json()).toEqual({ received: 'erased' });

    const after = await search(sqls, NEEDLES);
    // The erased order is no longer found by its number and the shopper's CEP.
    expect((await lookup()).status).toBe(404);
    expect(after.hits).toEqual([]);
    // Every table searched is one personal-data.ts accounts for, and the other way round.
    expect(after.tables).toEqual(Object.keys(PERSONAL_DATA).sort());
    process.stdout.write(
      `${backend.label}: searched ${after.tables.length} tables: ${after.tables.join(', ')}\n`,
    );

    // The other customer keeps their order, label and name.
    const kept = await search(sqls, [OTHER.name, OTHER.email]);
    expect(new Set(kept.hits.map((hit) => hit.split('.')[0]))).toEqual(
      new Set(['store_orders', 'label_attempts', 'notification_deliveries']),
    );
    // The erased orders stay on the desk for their items, saying why the recipient is empty.
    // The clocks moved days: the desk signs in again.
    desk = await deskClient(stack.bff.url);
    const listed = (await (await desk.get('/admin/api/orders')).json()) as {
      orders: {
        orderId: string;
        recipient: { nome: string };
        needsReview: { field: string; detail?: string }[];
      }[];
    };
    const erased = listed.orders.find((o) => o.orderId === shopify.order.orderId);
    expect(erased?.recipient.nome).toBe('');
    expect(erased?.needsReview).toContainEqual(expect.objectContaining({ field: 'recipient' }));
  }, 120_000);

  it("erases the store's orders on shop/redact and store/redact, answering 200", async () => {
    const res = await compliance('shop/redact', { shop_id: 954889, shop_domain: SHOPIFY_SHOP });
    expect(await res.json()).toEqual({ received: 'erased' });
    const nuvem = await lgpd('store/redact', { store_id: Number(NUVEMSHOP_STORE) });
    expect(await nuvem.json()).toEqual({ received: 'erased' });
    const left = await search(sqls, [OTHER.name, OTHER.email, ...NEEDLES]);
    expect(left.hits).toEqual([]);
    desk = await deskClient(stack.bff.url);
    const listed = (await (await desk.get('/admin/api/orders')).json()) as { orders: unknown[] };
    expect(listed).toEqual({ orders: [] });
  }, 60_000);
});

/** Whose order is whose: the rule the erasure and the data request's export both use (erasure.ts). */
const recipient = {
  nome: 'Ana Souza',
  email: 'ana.souza@example.com',
  telefone: '(21) 99876-5432',
  cpfCnpj: '529.982.247-25',
  endereco: { cep: '20040020', logradouro: 'Rua X', numero: '1', bairro: 'Centro', cidade: 'Rio', uf: 'RJ' },
};

describe('isCustomersRecipient', () => {
  it('matches by e-mail in any case, by phone with or without +55, by CPF with or without its dots', () => {
    expect(isCustomersRecipient(recipient, { email: ' ANA.SOUZA@example.com ' })).toBe(true);
    expect(isCustomersRecipient(recipient, { phone: '+55 21 99876-5432' })).toBe(true);
    expect(isCustomersRecipient(recipient, { phone: '21998765432' })).toBe(true);
    expect(isCustomersRecipient(recipient, { identification: '52998224725' })).toBe(true);
  });

  it('matches no look-alike: a longer e-mail, another phone, a partial number, an empty or absent customer', () => {
    for (const customer of [
      { email: 'ana.souza@example.com.br' },
      { email: 'souza@example.com' },
      { phone: '21998765431' },
      { phone: '5432' },
      { phone: '' },
      { identification: '5299822472' },
      { identification: '...' },
      { email: '', phone: '', identification: '' },
      {},
    ])
      expect(isCustomersRecipient(recipient, customer), JSON.stringify(customer)).toBe(false);
    expect(isCustomersRecipient({ nome: 'Sem contato', endereco: {} }, {})).toBe(false);
    expect(isCustomersRecipient(null, { email: 'ana.souza@example.com' })).toBe(false);
  });
});

describe('erasedParty', () => {
  it('keeps only the UF, with every field the order schema needs present and empty', () => {
    expect(erasedParty(recipient)).toEqual({
      nome: '',
      endereco: { cep: '', logradouro: '', numero: '', bairro: '', cidade: '', uf: 'RJ' },
    });
    expect(erasedParty(undefined)).toMatchObject({ nome: '', endereco: { uf: '' } });
  });
});
