import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import {
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
} from '../../sandbox/checkouts/accounts.ts';
import type { NewStoreOrder } from '../../sandbox/checkouts/emulated-order.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { runCheckoutCommand } from '../checkout/registration.ts';
import { parseConfig } from '../config.ts';
import type { BffDeps } from '../deps.ts';
import { type RunningBff, startBff } from '../testing.ts';

export const DESK_PASSWORD = 'senha-do-lojista-pedidos';
export const SHOPIFY_SHOP = 'loja-demo.myshopify.com';
export const NUVEMSHOP_STORE = '1001';

/** The BFF's variables for both stores of the sandbox, their order webhooks and tracking back, and the desk. */
export function orderEnv(sandboxUrl: string): Record<string, string> {
  return {
    BFF_ADMIN_PASSWORD: DESK_PASSWORD,
    BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    BFF_BOXES: JSON.stringify([
      { id: 'P', comprimento: 20, largura: 15, altura: 10, tareGrams: 100, maxWeightGrams: 5000 },
      { id: 'M', comprimento: 30, largura: 20, altura: 20, tareGrams: 200, maxWeightGrams: 10000 },
    ]),
    BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
    BFF_SHOPIFY_SHOP: SHOPIFY_SHOP,
    BFF_SHOPIFY_TOKEN: 'shpat_test_demo_0000000001',
    BFF_SHOPIFY_API_URL: `${sandboxUrl}/shopify/${SHOPIFY_SHOP}`,
    BFF_NUVEMSHOP_CALLBACK_SECRET: 'c'.repeat(40),
    BFF_NUVEMSHOP_APP_SECRET: SANDBOX_NUVEMSHOP_APP_SECRET,
    BFF_NUVEMSHOP_STORE_ID: NUVEMSHOP_STORE,
    BFF_NUVEMSHOP_TOKEN: 'nuvem_test_demo_000000001',
    BFF_NUVEMSHOP_API_URL: `${sandboxUrl}/nuvemshop/v1`,
    BFF_CEP_SERVICES: `viacep:${sandboxUrl}/viacep/ws`,
    BFF_CEP_TIMEOUT_MS: '300',
  };
}

/** A merchant's desk session: the cookie and the CSRF token, and calls with them. */
export interface DeskClient {
  get(path: string): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export async function deskClient(url: string, password = DESK_PASSWORD): Promise<DeskClient> {
  const page = await fetch(`${url}/admin/agents`);
  const csrfCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const login = await fetch(`${url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ csrf, password }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((set) => set.split(';')[0] ?? '')
    .join('; ');
  const session = (await (await fetch(`${url}/admin/api/session`, { headers: { cookie } })).json()) as {
    csrfToken: string;
  };
  return {
    get: (path) => fetch(`${url}${path}`, { headers: { cookie } }),
    post: (path, body, headers = {}) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie,
          'x-csrf-token': session.csrfToken,
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  };
}

export interface OrderStack {
  sandbox: RunningSandbox;
  bff: RunningBff;
  desk: DeskClient;
  /** A paid order made in the emulated store, its webhook sent to the BFF (registered as `npm run checkout` does). */
  paid(
    platform: 'shopify' | 'nuvemshop',
    order: NewStoreOrder,
  ): Promise<{ order: { id: number | string; orderId: string }; sent: { id: string; status: number }[] }>;
  close(): Promise<void>;
}

/**
 * A sandbox and a BFF wired as a merchant wires them (docs/orders.md): both stores' webhooks subscribed by
 * `npm run checkout -- register`'s code, the desk logged in.
 */
export async function startOrderStack(
  env: Record<string, string> = {},
  deps: Omit<BffDeps, 'config' | 'logger' | 'backends'> = {},
): Promise<OrderStack> {
  const sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  const bff = await startBff(sandbox.url, { ...orderEnv(sandbox.url), ...env }, deps);
  const config = parseConfig({
    SHIPPING_SECRET_KEY: 'mk_test_demo',
    BFF_PUBLIC_URL: bff.url,
    ...orderEnv(sandbox.url),
    ...env,
  });
  for (const platform of ['shopify', 'nuvemshop'] as const) {
    const result = await runCheckoutCommand('register', platform, {
      config,
      services: async () => [{ serviceId: 'correios-pac', label: 'PAC' }],
    });
    if (!result.ok) throw new Error(result.lines.join(' '));
  }
  const desk = await deskClient(bff.url);
  return {
    sandbox,
    bff,
    desk,
    paid: async (platform, order) => {
      const store = platform === 'shopify' ? SHOPIFY_SHOP : NUVEMSHOP_STORE;
      const res = await sandbox.control(`stores/${platform}/${store}/orders`, order);
      if (res.status !== 201) throw new Error(`the sandbox made no order: ${res.status} ${await res.text()}`);
      return (await res.json()) as Awaited<ReturnType<OrderStack['paid']>>;
    },
    close: async () => {
      await bff.stop();
      await sandbox.close();
    },
  };
}

/** A Shopify paid order to a fixture CEP (sandbox/cep/viacep.ts), one T-shirt by default. */
export function shopifyOrder(change: Partial<NewStoreOrder> = {}): NewStoreOrder {
  return {
    customer: { name: 'Ana Souza', email: 'ana@example.com', phone: '11987654321' },
    address: {
      address1: 'Rua da Assembleia, 10, sala 5',
      city: 'Rio de Janeiro',
      province: 'RJ',
      zip: '20040-020',
    },
    items: [{ name: 'Camiseta', sku: 'CAM-01', quantity: 2, grams: 300, price: 59.9 }],
    serviceCode: 'correios-pac',
    ...change,
  };
}

/** A Nuvemshop paid order: the address already split, products with sizes. */
export function nuvemshopOrder(change: Partial<NewStoreOrder> = {}): NewStoreOrder {
  return {
    customer: { name: 'Bruno Lima', email: 'bruno@example.com', phone: '41999990000', cpf: '52998224725' },
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
        name: 'Caneca',
        sku: 'CAN-01',
        quantity: 1,
        grams: 400,
        price: 39.9,
        dimensions: { width: 10, height: 12, depth: 10 },
      },
    ],
    serviceCode: 'correios-sedex',
    ...change,
  };
}

/** The text each page of a PDF draws (the WinAnsi strings of its content streams, inflated when compressed). */
export async function pdfPageTexts(bytes: Uint8Array): Promise<string[][]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const refs = contents && 'asArray' in contents ? contents.asArray() : [contents];
    const texts: string[] = [];
    for (const ref of refs) {
      const raw = (ref ? (doc.context.lookup(ref) as { contents?: Uint8Array }) : undefined)?.contents;
      if (!raw) continue;
      let content: string;
      try {
        content = inflateSync(raw).toString('latin1');
      } catch {
        content = Buffer.from(raw).toString('latin1');
      }
      for (const match of content.matchAll(/<([0-9A-Fa-f]*)> Tj/g))
        texts.push(Buffer.from(match[1] ?? '', 'hex').toString('latin1'));
    }
    return texts;
  });
}
