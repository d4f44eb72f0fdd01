import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBff, startBff } from '../bff/testing.ts';
import {
  SANDBOX_NUVEMSHOP_APP_ID,
  SANDBOX_NUVEMSHOP_APP_SECRET,
  SANDBOX_SHOPIFY_APP_SECRET,
  SANDBOX_SHOPIFY_CLIENT_ID,
} from '../sandbox/checkouts/accounts.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { shopifyHmac } from '../shared/checkouts/shopify.ts';
import { shopifyQueryHmac } from '../shared/checkouts/store-oauth.ts';
import { auditLightAndDark } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';

/**
 * A merchant's path to a connected store, in Chromium, on the emulated platforms (docs/checkout/shopify.md,
 * nuvemshop.md): the install link opened, the approval (the emulated platforms approve at once), the desk's login, the
 * merchant's approval of the held install (no store configured), and `/admin/stores` showing the store connected with its carrier and webhooks; then the page in its three languages,
 * light and dark, under axe.
 */
const PASSWORD = 'senha-do-lojista-e2e-lojas';
const SHOP = 'loja-demo.myshopify.com';
let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  bff = await startBff(sandbox.url, {
    BFF_ADMIN_PASSWORD: PASSWORD,
    BFF_SHOPIFY_CLIENT_ID: SANDBOX_SHOPIFY_CLIENT_ID,
    BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
    BFF_SHOPIFY_API_URL: `${sandbox.url}/shopify/${SHOP}`,
    BFF_NUVEMSHOP_APP_ID: SANDBOX_NUVEMSHOP_APP_ID,
    BFF_NUVEMSHOP_APP_SECRET: SANDBOX_NUVEMSHOP_APP_SECRET,
    BFF_NUVEMSHOP_AUTH_URL: `${sandbox.url}/nuvemshop`,
    BFF_NUVEMSHOP_API_URL: `${sandbox.url}/nuvemshop/v1`,
    BFF_NUVEMSHOP_CALLBACK_SECRET: 'e'.repeat(40),
  });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
});

/** The app URL as Shopify's admin opens it from the install link: shop and timestamp, signed with the client secret. */
function installLink(): string {
  const params = { shop: SHOP, timestamp: String(Math.floor(Date.now() / 1000)) };
  return `${bff.url}/stores/shopify/install?${new URLSearchParams({ ...params, hmac: shopifyQueryHmac(SANDBOX_SHOPIFY_APP_SECRET, params) })}`;
}

describe('connecting a store from the install link', () => {
  // One page through the whole story, one step or one language's audits a test (issue 50: never four audits in one
  // test); each test goes on from the state the one before left.
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await browser.newContext({ locale: 'pt-BR' });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });
  const sweep = (state: string) =>
    auditLightAndDark(page, state, (colorScheme) => `stores-${state}-${colorScheme}`);

  it('takes a Shopify store to held in two steps: its install link, then the desk’s password', async () => {
    // Step 1: the install link (Shopify approves at once); the install ends on the desk, which asks for the login.
    await page.goto(installLink());
    await page.waitForURL(`${bff.url}/admin/stores`);
    // Step 2: the desk's password.
    await page.getByLabel('Senha do lojista').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(`${bff.url}/admin/stores`);
    // No BFF_SHOPIFY_SHOP: a first install waits for the merchant.
    await expect.poll(() => page.getByRole('row', { name: /Shopify/ }).textContent()).toContain(SHOP);
  }, 60_000);

  for (const lang of ['en', 'es', 'pt-BR']) {
    it(`shows the held install in ${lang}, light and dark, under axe`, async () => {
      await page.goto(`${bff.url}/admin/stores?lang=${lang}`);
      await sweep(`pending-${lang}`);
    }, 60_000);
  }

  it('connects a store in its third step, approving it: Shopify, then Nuvemshop from its install link', async () => {
    await page.goto(`${bff.url}/admin/stores?lang=pt-BR`);
    await page
      .getByRole('row', { name: /Shopify/ })
      .getByRole('button', { name: 'Aprovar' })
      .click();
    await page.waitForURL(`${bff.url}/admin/stores`);
    const shopify = page.getByRole('row', { name: /Shopify/ });
    await expect.poll(() => shopify.textContent()).toMatch(/Conectada.*renovado sozinho.*registrado/s);
    // Nuvemshop: its install link, already logged in, then its approval.
    await page.goto(
      `${sandbox.url}/nuvemshop/apps/${SANDBOX_NUVEMSHOP_APP_ID}/authorize?redirect_uri=${encodeURIComponent(`${bff.url}/stores/nuvemshop/callback`)}`,
    );
    await page.waitForURL(`${bff.url}/admin/stores`);
    await page
      .getByRole('row', { name: /Nuvemshop/ })
      .getByRole('button', { name: 'Aprovar' })
      .click();
    await page.waitForURL(`${bff.url}/admin/stores`);
    await expect.poll(() => page.getByRole('row', { name: /Nuvemshop/ }).textContent()).toMatch(/Conectada/);

    // A customer's data request and a redaction, so the privacy section has rows in every language.
    for (const [topic, payload] of [
      [
        'customers/data_request',
        {
          shop_id: 1,
          shop_domain: SHOP,
          orders_requested: [],
          customer: { id: 7, email: 'ana@example.com' },
          data_request: { id: 70 },
        },
      ],
      [
        'customers/redact',
        {
          shop_id: 1,
          shop_domain: SHOP,
          customer: { id: 8, email: 'bia@example.com' },
          orders_to_redact: [],
        },
      ],
    ] as const) {
      const body = JSON.stringify(payload);
      const sent = await fetch(`${bff.url}/stores/shopify/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-hmac-sha256': shopifyHmac(SANDBOX_SHOPIFY_APP_SECRET, body),
          'x-shopify-topic': topic,
          'x-shopify-shop-domain': SHOP,
          'x-shopify-webhook-id': crypto.randomUUID(),
        },
        body,
      });
      expect(sent.status).toBe(200);
    }
  }, 60_000);

  const privacyWords = {
    'pt-BR': 'Pedidos de privacidade',
    en: 'Privacy requests',
    es: 'Solicitudes de privacidad',
  };
  for (const lang of ['pt-BR', 'en', 'es'] as const) {
    it(`shows the connected stores in ${lang} on a laptop: the table whole, light and dark under axe`, async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${bff.url}/admin/stores?lang=${lang}`);
      await expect.poll(() => page.locator('#privacy-requests').textContent()).toContain(privacyWords[lang]);
      // On a laptop's width the stores' table fits: its "disconnect" button is not cut off behind a scroll (the
      // webhook topics, Shopify's longest 52 characters, wrap in their cell).
      const stores = page.getByRole('region', {
        name: /Connected stores|Lojas conectadas|Tiendas conectadas/,
      });
      expect(await stores.evaluate((region) => region.scrollWidth - region.clientWidth)).toBe(0);
      await sweep(`connected-${lang}`);
    }, 60_000);

    it(`shows the privacy requests in ${lang} on a laptop, light and dark under axe`, async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${bff.url}/admin/privacy?lang=${lang}`);
      await expect.poll(() => page.locator('#privacy-requests tbody tr').count()).toBe(2);
      await sweep(`privacy-${lang}`);
    }, 60_000);

    for (const path of ['/admin/privacy', '/admin/stores']) {
      it(`keeps each shop's domain whole on ${path} on a phone in ${lang}, light and dark under axe`, async () => {
        // On a phone a shop's domain stays whole (it broke at "loja-" in the privacy table): one line each, the
        // tables scrolling sideways in their regions rather than the page.
        await page.setViewportSize({ width: 375, height: 812 });
        await page.goto(`${bff.url}${path}?lang=${lang}`);
        const layout = await page.evaluate(() => ({
          broken: [...document.querySelectorAll('td, th')]
            .flatMap((cell) => [...cell.querySelectorAll('.domain')])
            .filter((domain) => domain.getClientRects().length !== 1)
            .map((domain) => domain.textContent),
          domains: document.querySelectorAll('.domain').length > 0,
          pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
        }));
        expect({ path, ...layout }).toEqual({ path, broken: [], domains: true, pageOverflow: 0 });
        await sweep(`${path === '/admin/privacy' ? 'privacy' : 'stores'}-${lang}-375`);
        await page.setViewportSize({ width: 1280, height: 800 });
      }, 60_000);
    }
  }

  it('disconnects a store from the page: its row says so and how to reconnect', async () => {
    await page.goto(`${bff.url}/admin/stores?lang=en`);
    // The stores' table (the privacy requests' table names the shop too).
    const connectedShopify = () =>
      page.getByRole('table', { name: 'Connected stores' }).getByRole('row', { name: /Shopify/ });
    await connectedShopify().getByRole('button', { name: 'Disconnect' }).click();
    await page.waitForURL(`${bff.url}/admin/stores`);
    await expect.poll(() => connectedShopify().textContent()).toMatch(/Disconnected.*To reconnect/s);
    await sweep('disconnected');
  }, 60_000);
});
