import { execFile } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SANDBOX_SHOPIFY_APP_SECRET } from '../../sandbox/checkouts/accounts.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { type BffConfig, parseConfig } from '../config.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { type CheckoutCommand, type CheckoutPlatform, runCheckoutCommand } from './registration.ts';
import { TEST_NUVEMSHOP_SECRET } from './testing.ts';

/**
 * `npm run checkout` against the sandbox's emulation of each platform's Admin API, and then the emulated checkout
 * calling the BFF it registered: the path a merchant takes before pointing at a real store.
 */
const SERVICES = [
  { serviceId: 'correios-pac', label: 'Correios PAC' },
  { serviceId: 'correios-sedex', label: 'Correios SEDEX' },
];
let sandbox: RunningSandbox;
let bff: RunningBff;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  env = {
    SHIPPING_RATE_LIMIT: '1000/60',
    BFF_SHOPIFY_SECRET: SANDBOX_SHOPIFY_APP_SECRET,
    BFF_NUVEMSHOP_CALLBACK_SECRET: TEST_NUVEMSHOP_SECRET,
    BFF_SHOPIFY_SHOP: 'loja-demo.myshopify.com',
    BFF_SHOPIFY_TOKEN: 'shpat_test_demo_0000000001',
    BFF_SHOPIFY_API_URL: `${sandbox.url}/shopify/loja-demo.myshopify.com`,
    BFF_NUVEMSHOP_STORE_ID: '1001',
    BFF_NUVEMSHOP_TOKEN: 'nuvem_test_demo_000000001',
    BFF_NUVEMSHOP_API_URL: `${sandbox.url}/nuvemshop/v1`,
  };
  bff = await startBff(sandbox.url, env);
});
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.control('reset');
});

/** The BFF's configuration as the command reads it (its public URL is the running test BFF's). */
function configWith(over: Record<string, string> = {}): BffConfig {
  return parseConfig({
    SHIPPING_SECRET_KEY: 'mk_test_demo',
    SHIPPING_API_URL: sandbox.url,
    BFF_PUBLIC_URL: bff.url,
    ...env,
    ...over,
  });
}

const run = (command: CheckoutCommand, platform: CheckoutPlatform, over: Record<string, string> = {}) =>
  runCheckoutCommand(command, platform, { config: configWith(over), services: async () => SERVICES });

const ViewSchema = z.looseObject({
  source: z.string(),
  options: z.array(
    z.looseObject({ code: z.string(), amountCents: z.int(), maxDeliveryDate: z.optional(z.string()) }),
  ),
});
const cart = {
  cart: { items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 }] },
  destination: { postalCode: '20040-020' },
};

describe('npm run checkout: Shopify', () => {
  it('registers the callback, says so on status, does nothing twice, and unregisters', async () => {
    const registered = await run('register', 'shopify');
    expect(registered.ok).toBe(true);
    expect(registered.lines[0]).toContain(`calling ${bff.url}/checkout/shopify/rates`);
    expect((await run('status', 'shopify')).lines[0]).toMatch(/^Shopify: registered as .*, active/);
    expect((await run('register', 'shopify')).lines[0]).toMatch(/already registered/);
    // The shopper's checkout at Shopify (emulated) now asks the BFF, signed with the app's secret.
    const res = await sandbox.post('/_sandbox/checkouts/shopify/loja-demo.myshopify.com/quote', cart);
    const view = ViewSchema.parse(await res.json());
    expect(view.source).toBe('callback');
    expect(view.options.map((o) => o.code)).toEqual(['correios-pac', 'correios-sedex']);
    expect((await run('unregister', 'shopify')).lines[0]).toMatch(/^Shopify: removed/);
    expect((await run('status', 'shopify')).lines[0]).toMatch(/not registered/);
  });

  it.each([
    [
      'a shop whose plan has no carrier-calculated shipping',
      {
        BFF_SHOPIFY_SHOP: 'loja-basica.myshopify.com',
        BFF_SHOPIFY_TOKEN: 'shpat_test_basica_00000001',
        BFF_SHOPIFY_API_URL: '',
      },
      /Advanced plan/,
    ],
    [
      'a token without write_shipping',
      { BFF_SHOPIFY_TOKEN: 'shpat_test_sem_escopo_0001' },
      /write_shipping scope/,
    ],
    [
      'a token Shopify does not know',
      { BFF_SHOPIFY_TOKEN: 'shpat_unknown_000000000001' },
      /refused the token \(401\)/,
    ],
    [
      'a public URL that is not https',
      { BFF_PUBLIC_URL: 'http://frete.loja.example' },
      /must be an https URL/,
    ],
    ['no app secret (the BFF would answer 404)', { BFF_SHOPIFY_SECRET: '' }, /BFF_SHOPIFY_SECRET/],
  ])('says plainly what is refused: %s', async (_, over, message) => {
    const refused = await run('register', 'shopify', {
      ...over,
      ...('BFF_SHOPIFY_API_URL' in over
        ? { BFF_SHOPIFY_API_URL: `${sandbox.url}/shopify/loja-basica.myshopify.com` }
        : {}),
    });
    expect(refused.ok).toBe(false);
    expect(refused.lines.join('\n')).toMatch(message);
  });
});

describe('npm run checkout: Nuvemshop', () => {
  it('creates the carrier and an option per quoted service, adds a missing option again, and unregisters', async () => {
    const registered = await run('register', 'nuvemshop');
    expect(registered.ok).toBe(true);
    expect(registered.lines.join('\n')).toContain('option "Correios PAC" (code correios-pac) created');
    // The callback's secret is never printed.
    expect(registered.lines.join('\n')).not.toContain(TEST_NUVEMSHOP_SECRET);
    expect(registered.lines.join('\n')).toContain('<BFF_NUVEMSHOP_CALLBACK_SECRET>');
    expect((await run('status', 'nuvemshop')).lines[1]).toBe(
      'Options: correios-pac (on), correios-sedex (on).',
    );
    const again = await run('register', 'nuvemshop');
    expect(again.lines.join('\n')).not.toContain('created');
    // The shopper's checkout at Nuvemshop (emulated), on a product page: the BFF's rates under the options' codes.
    const res = await sandbox.post('/_sandbox/checkouts/nuvemshop/1001/quote', { ...cart, stage: 'product' });
    const view = ViewSchema.parse(await res.json());
    expect(view.options.map((o) => o.code)).toEqual(['correios-pac', 'correios-sedex']);
    expect((await run('unregister', 'nuvemshop')).lines[0]).toMatch(/^Nuvemshop: removed carrier/);
  });

  it.each([
    [
      'a token without write_shipping',
      { BFF_NUVEMSHOP_TOKEN: 'nuvem_test_sem_escopo_001' },
      /write_shipping scope/,
    ],
    [
      'a token Nuvemshop does not know',
      { BFF_NUVEMSHOP_TOKEN: 'nuvem_unknown_00000000001' },
      /refused the token \(401\)/,
    ],
    ['no callback secret', { BFF_NUVEMSHOP_CALLBACK_SECRET: '' }, /BFF_NUVEMSHOP_CALLBACK_SECRET/],
    ['no store id', { BFF_NUVEMSHOP_STORE_ID: '' }, /BFF_NUVEMSHOP_STORE_ID/],
  ])('says plainly what is refused: %s', async (_, over, message) => {
    const refused = await run('register', 'nuvemshop', over);
    expect(refused.ok).toBe(false);
    expect(refused.lines.join('\n')).toMatch(message);
  });
});

describe('scripts/checkout.ts', () => {
  // Asynchronously: the sandbox and the BFF answer from this very process.
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['scripts/checkout.ts', ...args],
        {
          cwd: new URL('../../', import.meta.url).pathname,
          env: {
            PATH: process.env.PATH,
            SHIPPING_SECRET_KEY: 'mk_test_demo',
            SHIPPING_API_URL: sandbox.url,
            BFF_PUBLIC_URL: bff.url,
            ...env,
            ...extra,
          },
          timeout: 30_000,
        },
        (error, stdout, stderr) => resolve({ status: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  it('registers with the store’s quoted services, exits 0, and prints the lines', async () => {
    const result = await cli(['register', 'nuvemshop']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('option "Correios PAC" (code correios-pac) created');
    expect(result.stdout).toContain('option "Correios SEDEX" (code correios-sedex) created');
  });

  it('exits 1 on a refusal and 2 on a bad command line, with the usage', async () => {
    const refused = await cli(['register', 'shopify'], { BFF_SHOPIFY_TOKEN: 'shpat_unknown_000000000001' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('refused the token');
    const bad = await cli(['register', 'woocommerce']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('npm run checkout -- register shopify|nuvemshop');
  });
});
