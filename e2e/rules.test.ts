import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCheckoutCommand } from '../bff/checkout/registration.ts';
import { TEST_NUVEMSHOP_SECRET } from '../bff/checkout/testing.ts';
import { parseConfig } from '../bff/config.ts';
import { deskSession } from '../bff/desk/testing.ts';
import { RateVerifyResponseSchema } from '../bff/rates/verify.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { SANDBOX_SHOPIFY_APP_SECRET } from '../sandbox/checkouts/accounts.ts';
import { callTool, connectMcp } from '../sandbox/mcp/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { DEMO_RULES } from '../scripts/demo/rules.ts';
import { AcpFulfillmentOptionsSchema, UcpFulfillmentOptionsSchema } from '../shared/checkouts/agentic.ts';
import { formatBRL } from '../shared/money.ts';
import { QuotedRateSchema } from '../shared/quote.ts';
import type { Rule } from '../shared/shipping-rules.ts';
import { launchBrowser, screenshot } from './support/browser.ts';

/**
 * Issue 46's first "done when", in Chromium: under the merchant's shipping rules (free, markup, fixed, hide, extra
 * days), the same cart and CEP give the same options, prices and dates on the demo product page's calculator (which
 * quotes the platform from the browser and charges the rules it reads from `/api/shipping-rules`), at
 * `/api/rates/verify`, at the emulated Shopify and Nuvemshop checkouts, at the ACP and UCP fulfillment options, and
 * through MCP `get_shipping_rates` (the BFF's quote core). The rules are written as the desk writes them (PUT, session,
 * CSRF). Each rule has a CEP of its own: the emulated checkouts keep a platform's cache of their answers.
 */
const NOW = Date.parse('2026-11-23T10:00:00-03:00');
const PASSWORD = 'senha-do-lojista-e2e-regras';
const CHECKOUT = 'rules-checkout-token-0001';
const AGENT = 'agent-rates-only-0002';
let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let merchant: { cookie: string; csrf: string };

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  const env = {
    SHIPPING_RATE_LIMIT: '1000/60',
    BFF_ADMIN_PASSWORD: PASSWORD,
    BFF_CHECKOUT_TOKENS: CHECKOUT,
    BFF_HANDLING_DAYS: '1',
    BFF_CUTOFF: '14:00',
    BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
    BFF_SHOPIFY_SHOP: 'loja-demo.myshopify.com',
    BFF_SHOPIFY_TOKEN: 'shpat_test_demo_0000000001',
    BFF_SHOPIFY_API_URL: `${sandbox.url}/shopify/loja-demo.myshopify.com`,
    BFF_NUVEMSHOP_CALLBACK_SECRET: TEST_NUVEMSHOP_SECRET,
    BFF_NUVEMSHOP_STORE_ID: '1001',
    BFF_NUVEMSHOP_TOKEN: 'nuvem_test_demo_000000001',
    BFF_NUVEMSHOP_API_URL: `${sandbox.url}/nuvemshop/v1`,
  };
  bff = await startBff(sandbox.url, env, { now: () => NOW });
  const config = parseConfig({ SHIPPING_SECRET_KEY: 'mk_test_demo', BFF_PUBLIC_URL: bff.url, ...env });
  const services = async () => [
    { serviceId: 'correios-pac', label: 'Correios PAC' },
    { serviceId: 'correios-sedex', label: 'Correios SEDEX' },
  ];
  for (const platform of ['shopify', 'nuvemshop'] as const)
    expect((await runCheckoutCommand('register', platform, { config, services })).ok).toBe(true);
  merchant = await deskSession(bff.url, PASSWORD);
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
});
beforeEach(async () => {
  // A context of its own: a fresh HTTP cache, so the page reads the rules just written.
  context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1200, height: 900 } });
  page = await context.newPage();
  await page.clock.setFixedTime(new Date(NOW));
});
afterEach(async () => {
  await context.close();
});

/** What a surface shows of one option: its service, name, price as the calculator writes it, and arrival (dd/mm). */
interface Shown {
  serviceId: string;
  price: string;
  date: string;
}
const byService = (options: Shown[]) => [...options].sort((a, b) => a.serviceId.localeCompare(b.serviceId));
const priceText = (cents: number) => (cents === 0 ? 'Grátis' : formatBRL(cents / 100));
const ddmm = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

async function writeRules(rules: Rule[]): Promise<void> {
  const res = await fetch(`${bff.url}/admin/api/shipping-rules`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/json',
      cookie: merchant.cookie,
      'x-csrf-token': merchant.csrf,
      origin: bff.url,
    },
    body: JSON.stringify({ rules }),
  });
  expect(res.status).toBe(200);
}

function calculatorOptions(): Promise<Shown[]> {
  return page.evaluate(() => {
    const root = document.querySelector('shipping-calculator')?.shadowRoot;
    return [...(root?.querySelectorAll('label[part="option"]') ?? [])].map((label) => ({
      serviceId: label.querySelector('input')?.value ?? '',
      price: label.querySelector('[part="option-price"]')?.textContent ?? '',
      date:
        /(\d{2}\/\d{2})/.exec(label.querySelector('[part="option-arrival"]')?.textContent ?? '')?.[1] ?? '',
    }));
  });
}

async function checkoutOptions(platform: 'shopify' | 'nuvemshop'): Promise<Shown[]> {
  const raw = await page.evaluate((which) => {
    const items = document.querySelectorAll(`article[data-platform="${which}"] li`);
    return [...items].map((item) => {
      const data = (item as HTMLElement).dataset;
      return { serviceId: data.code ?? '', cents: Number(data.amountCents), date: data.maxDate ?? '' };
    });
  }, platform);
  return raw.map(({ serviceId, cents, date }) => ({ serviceId, price: priceText(cents), date: ddmm(date) }));
}

const CART = [{ name: 'Camiseta Básica', quantity: 2, unitPriceBRL: 79.9, weightKg: 0.3 }];

async function verified(cep: string, serviceId: string): Promise<Shown | undefined> {
  const res = await fetch(`${bff.url}/api/rates/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${CHECKOUT}` },
    body: JSON.stringify({ cep, items: CART, serviceId }),
  });
  const answer = RateVerifyResponseSchema.parse(await res.json());
  if (!answer.available) return undefined;
  const { rate } = answer;
  return {
    serviceId,
    price: priceText(rate.free ? 0 : Math.round(rate.price * 100)),
    date: ddmm(rate.promise.to),
  };
}

async function agentic(cep: string, protocol: 'acp' | 'ucp'): Promise<Shown[]> {
  const res = await fetch(`${bff.url}/checkout/fulfillment-options`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${CHECKOUT}` },
    body: JSON.stringify({ protocol, items: CART, address: { postal_code: cep, country: 'BR' } }),
  });
  const json = await res.json();
  const options =
    protocol === 'acp'
      ? AcpFulfillmentOptionsSchema.parse(json).fulfillment_options.map((o) => ({
          ...o,
          latest: o.latest_delivery_time,
        }))
      : UcpFulfillmentOptionsSchema.parse(json).options.map((o) => ({
          ...o,
          latest: o.latest_fulfillment_time,
        }));
  return options.map((option) => ({
    serviceId: option.id,
    price: priceText(option.totals.find((total) => total.type === 'total')?.amount ?? -1),
    date: ddmm((option.latest ?? '').slice(0, 10)),
  }));
}

async function mcpOptions(cep: string): Promise<{ shown: Shown[]; platform: Record<string, number> }> {
  const client = await connectMcp(`${bff.url}/mcp`, { authorization: `Bearer ${AGENT}` });
  try {
    const result = await callTool(client, 'get_shipping_rates', { destinationCep: cep, items: CART });
    const rates = (result.structuredContent as { rates: unknown[] }).rates.map((rate) => ({
      ...QuotedRateSchema.parse(rate),
      platformPrice: (rate as { platformPrice: number }).platformPrice,
    }));
    return {
      shown: rates.map((rate) => ({
        serviceId: rate.serviceId,
        price: priceText(rate.free ? 0 : Math.round(rate.price * 100)),
        date: ddmm(rate.promise.to),
      })),
      platform: Object.fromEntries(rates.map((rate) => [rate.serviceId, rate.platformPrice])),
    };
  } finally {
    await client.close();
  }
}

async function platformPrices(cep: string): Promise<Record<string, number>> {
  const res = await fetch(`${sandbox.url}/v1/rates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer mk_test_demo' },
    body: JSON.stringify({ destinationCep: cep, items: CART }),
  });
  const { rates } = (await res.json()) as { rates: { serviceId: string; price: number }[] };
  return Object.fromEntries(rates.map((rate) => [rate.serviceId, rate.price]));
}

const SCENARIOS: [string, string, Rule[], (shown: Shown[], platform: Record<string, number>) => void][] = [
  [
    'free PAC to the Southeast over R$ 150',
    '20040-020',
    [
      {
        id: 'sudeste-gratis',
        when: { ufs: ['RJ', 'SP'], minSubtotalBRL: 150, services: ['correios-pac'] },
        then: { free: true },
      },
    ],
    (shown) => expect(shown.find((o) => o.serviceId === 'correios-pac')?.price).toBe('Grátis'),
  ],
  [
    'a markup of 10 % + R$ 3',
    '30130-010',
    [{ id: 'embalagem', then: { markupPercent: 10, markupBRL: 3 } }],
    (shown, platform) =>
      expect(shown.find((o) => o.serviceId === 'correios-sedex')?.price).toBe(
        formatBRL(Math.floor((platform['correios-sedex'] ?? 0) * 110 + 300 + 0.5) / 100),
      ),
  ],
  [
    'a fixed SEDEX price',
    '40020-000',
    [{ id: 'sedex-fixo', when: { services: ['correios-sedex'] }, then: { priceBRL: 24.9 } }],
    (shown) => expect(shown.find((o) => o.serviceId === 'correios-sedex')?.price).toBe(formatBRL(24.9)),
  ],
  [
    'SEDEX hidden',
    '80010-000',
    [{ id: 'sem-sedex', when: { services: ['correios-sedex'] }, then: { hide: true } }],
    (shown) => expect(shown.map((o) => o.serviceId)).toEqual(['correios-pac']),
  ],
  [
    'two extra business days',
    '90010-000',
    [{ id: 'manuseio', then: { extraDays: 2 } }],
    (shown) => expect(shown).toHaveLength(2),
  ],
];

describe('one price everywhere under the merchant’s shipping rules', () => {
  it.each(SCENARIOS)(
    '%s: the calculator, verify, Shopify, Nuvemshop, ACP, UCP and MCP agree',
    async (name, cep, rules, check) => {
      await writeRules([]);
      const before = await mcpOptions(cep);
      await writeRules(rules);
      await page.goto(`${bff.url}/demo/checkout.html`);
      await page.locator('#quantity').fill('2');
      const field = page.locator('shipping-calculator input[autocomplete="postal-code"]');
      await field.fill(cep);
      await field.press('Enter');
      const expected = name === 'SEDEX hidden' ? 1 : 2;
      await expect.poll(async () => (await calculatorOptions()).length).toBe(expected);
      // the promise from the BFF (promises-url) lands after the options: wait for the dates to settle
      await expect
        .poll(async () => (await calculatorOptions()).every((o) => /^\d{2}\/\d{2}$/.test(o.date)))
        .toBe(true);
      const calculator = byService(await calculatorOptions());
      check(calculator, await platformPrices(cep));
      expect(calculator).not.toEqual(byService(before.shown));

      for (const platform of ['shopify', 'nuvemshop'] as const)
        await expect.poll(async () => byService(await checkoutOptions(platform))).toEqual(calculator);
      const verify = await Promise.all(['correios-pac', 'correios-sedex'].map((id) => verified(cep, id)));
      expect(byService(verify.filter((shown) => shown !== undefined))).toEqual(calculator);
      expect(byService(await agentic(cep, 'acp'))).toEqual(calculator);
      expect(byService(await agentic(cep, 'ucp'))).toEqual(calculator);
      const mcp = await mcpOptions(cep);
      expect(byService(mcp.shown)).toEqual(calculator);
      // the agent also sees what the label costs: the platform's price, whatever the rules made of the shopper's
      expect(mcp.platform).toMatchObject(
        Object.fromEntries(Object.entries(await platformPrices(cep)).filter(([id]) => id in mcp.platform)),
      );
      await screenshot(page, `rules-${name.replace(/\W+/g, '-')}`);
    },
    60_000,
  );
});

describe('"a partir de" on a product page with variants', () => {
  it("is the lightest variant's cheapest price under the rules, and moves when the rules do", async () => {
    const fromText = () =>
      page.evaluate(
        () =>
          document.querySelector('shipping-calculator')?.shadowRoot?.querySelector('[part="from-price"]')
            ?.textContent ?? '',
      );
    const cep = '01310-100';
    const open = async () => {
      await page.goto(`${bff.url}/demo/product-variants.html`);
      const field = page.locator('shipping-calculator input[autocomplete="postal-code"]');
      await field.fill(cep);
      await field.press('Enter');
    };
    // every service at a fixed R$ 7,77: the from-price is the rule's, not the platform's
    await writeRules([{ id: 'fixo', then: { priceBRL: 7.77 } }]);
    await open();
    await expect.poll(fromText).toContain(formatBRL(7.77));
    // PAC free for this CEP's state: the from-price says free shipping is there, never R$ 0,00
    await writeRules([
      { id: 'fixo', then: { priceBRL: 7.77 } },
      { id: 'sp-gratis', when: { ufs: ['SP'], services: ['correios-pac'] }, then: { free: true } },
    ]);
    await context.close();
    context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
    await page.clock.setFixedTime(new Date(NOW));
    await open();
    await expect.poll(fromText).toMatch(/grátis/i);
    expect(await fromText()).not.toContain('0,00');
    await screenshot(page, 'rules-from-price');
  }, 60_000);
});

/** The merchant's desk session in the browser: the cookies `deskSession` got. */
async function signIn(): Promise<void> {
  await context.addCookies(
    merchant.cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: bff.url };
    }),
  );
}

describe('a rule written on the desk', () => {
  it('shows on the demo product page and at the emulated checkouts at once on this instance', async () => {
    await writeRules([]);
    await signIn();
    await page.goto(`${bff.url}/admin/rules`);
    await page.getByRole('textbox', { name: 'Nome (1)' }).fill('fixo-sedex');
    await page.getByRole('textbox', { name: 'Serviços (1)' }).fill('correios-sedex');
    await page.getByRole('combobox', { name: 'Efeito (1)' }).selectOption('price');
    await page.getByRole('textbox', { name: 'Valor (1)' }).fill('12,34');
    await page.getByRole('button', { name: 'Gravar regras' }).click();
    await expect.poll(() => page.locator('[role="status"]').textContent()).toContain('Regras gravadas');

    const cep = '88010-000';
    await page.goto(`${bff.url}/demo/product.html`);
    const field = page.locator('shipping-calculator input[autocomplete="postal-code"]');
    await field.fill(cep);
    await field.press('Enter');
    await expect
      .poll(async () => (await calculatorOptions()).find((o) => o.serviceId === 'correios-sedex')?.price)
      .toBe(formatBRL(12.34));
    // the page says which rules are in force, in a shopper's words: the service's name and the rule's effect, never
    // the rule's id nor the service's
    await expect
      .poll(() => page.locator('#shipping-rules').textContent())
      .toBe(`Regras de frete desta loja: Correios SEDEX por ${formatBRL(12.34)}.`);

    await page.goto(`${bff.url}/demo/checkout.html`);
    await page.locator('#quantity').fill('2');
    await field.fill(cep);
    await field.press('Enter');
    for (const platform of ['shopify', 'nuvemshop'] as const)
      await expect
        .poll(
          async () => (await checkoutOptions(platform)).find((o) => o.serviceId === 'correios-sedex')?.price,
        )
        .toBe(formatBRL(12.34));
    await screenshot(page, 'rules-desk-to-demo');
  }, 60_000);

  it("says the demo store's rules under the calculator as a shopper reads them", async () => {
    await writeRules([
      ...DEMO_RULES,
      { id: 'gratis-299', when: { services: ['correios-pac'], minSubtotalBRL: 299 }, then: { free: true } },
      { id: 'sem-mini', when: { services: ['correios-mini'], maxWeightKg: 0.3 }, then: { hide: true } },
      { id: 'prazo', when: { ufs: ['AM'] }, then: { extraDays: 2 } },
    ]);
    await page.goto(`${bff.url}/demo/product.html`);
    await expect
      .poll(() => page.locator('#shipping-rules').textContent())
      .toBe(
        `Regras de frete desta loja: Correios PAC com 50 % de desconto para SP, RJ, MG, ES, PR, SC e RS; ` +
          `Correios SEDEX com ${formatBRL(3)} a mais; Correios PAC grátis em compras a partir de ${formatBRL(299)}; ` +
          'Correios Mini Envios não é oferecido até 0,3 kg; Todo frete com 2 dias úteis a mais de prazo para AM.',
      );
  }, 60_000);

  // One state a test (issue 50: one test never runs four audits), each with its own limit.
  for (const [colorScheme, width] of [
    ['light', 1200],
    ['dark', 1200],
    ['light', 375],
    ['dark', 375],
  ] as const) {
    it(`/admin/rules with a preview is readable and accessible: ${colorScheme}, ${width} px`, async () => {
      await writeRules([
        { id: 'sudeste-gratis', when: { ufs: ['SP', 'RJ'], minSubtotalBRL: 150 }, then: { free: true } },
        {
          id: 'embalagem',
          when: { services: ['correios-sedex'] },
          then: { markupPercent: 10, markupBRL: 3 },
        },
      ]);
      await signIn();
      await page.setViewportSize({ width, height: 1000 });
      await page.emulateMedia({ colorScheme });
      await page.goto(`${bff.url}/admin/rules`);
      await page.getByLabel('CEP', { exact: true }).fill('20040-020');
      await page.getByLabel('Quantidade').fill('2');
      await page.getByRole('button', { name: 'Pré-visualizar' }).click();
      await expect.poll(() => page.locator('#preview-caption').count()).toBe(1);
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${colorScheme} ${width}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
      // On a phone every field of the rules' form is whole on the screen, none behind a sideways scroll (at 375 px
      // they were cut; on a desktop the wide table scrolls inside its region).
      const cut = await page.evaluate(() => {
        const region = document.querySelector('.rules-form .table-scroll');
        const edge = Math.min(
          window.innerWidth,
          region?.getBoundingClientRect().right ?? Number.POSITIVE_INFINITY,
        );
        return {
          fields: [...document.querySelectorAll('.rules-form td input, .rules-form td select')]
            .filter((field) => field.getBoundingClientRect().right > edge + 0.5)
            .map((field) => field.getAttribute('aria-label')),
          scroll: region ? region.scrollWidth - region.clientWidth : -1,
          page: document.documentElement.scrollWidth - window.innerWidth,
        };
      });
      if (width === 375) expect(cut).toEqual({ fields: [], scroll: 0, page: 0 });
      else expect(cut.page).toBe(0);
      await screenshot(page, `rules-desk-${colorScheme}-${width}`);
    }, 60_000);
  }
});
