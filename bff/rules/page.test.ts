import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { ShippingRulesSchema } from '../../shared/shipping-rules.ts';
import { deskSession } from '../desk/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

const PASSWORD = 'senha-do-lojista-pagina';
let sandbox: RunningSandbox;
let bff: RunningBff;
let merchant: { cookie: string; csrf: string };

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
  bff = await startBff(sandbox.url, {
    BFF_ADMIN_PASSWORD: PASSWORD,
    SHIPPING_RATE_LIMIT: '1000/60',
    BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
  });
  merchant = await deskSession(bff.url, PASSWORD);
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

const page = (lang = 'pt-BR') =>
  fetch(`${bff.url}/admin/rules?lang=${lang}`, { headers: { cookie: merchant.cookie } });
const post = (path: string, fields: Record<string, string>, csrf = merchant.csrf) =>
  fetch(`${bff.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: merchant.cookie,
      origin: bff.url,
    },
    body: new URLSearchParams({ csrf, ...fields }),
  });
const inForce = async () =>
  ShippingRulesSchema.parse(await (await fetch(`${bff.url}/api/shipping-rules`)).json());

/** Two rows as the merchant types them: free PAC to SP and RJ over R$ 150,00; SEDEX + 10 % + R$ 3. */
const ROWS = {
  rows: '3',
  'position-0': '1',
  'id-0': 'sudeste-gratis',
  'ufs-0': 'sp, RJ',
  'minSubtotal-0': '150,00',
  'services-0': 'correios-pac',
  'effect-0': 'free',
  'position-1': '2',
  'id-1': 'embalagem',
  'services-1': 'correios-sedex',
  'effect-1': 'markup',
  'value-1': '10% + 3',
  'position-2': '3',
  'effect-2': 'free',
};

describe('/admin/rules', () => {
  it('shows the form in Portuguese, English and Spanish, linked from the desk’s navigation', async () => {
    for (const [lang, heading] of [
      ['pt-BR', 'Regras de frete'],
      ['en', 'Shipping rules'],
      ['es', 'Reglas de envío'],
    ] as const) {
      const text = await (await page(lang)).text();
      expect(text).toContain(`<h1>${heading}</h1>`);
      expect(text).toContain('href="/admin/rules" aria-current="page"');
      expect(text).not.toMatch(/mk_test/);
    }
  });

  it('asks for the login without a session', async () => {
    const text = await (await fetch(`${bff.url}/admin/rules`)).text();
    expect(text).toContain('name="password"');
  });

  it('saves the rows typed in the form as rules, in order, and shows them again', async () => {
    const res = await post('/admin/rules', ROWS);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/admin\/rules\?saved=\d+$/);
    const { rules } = await inForce();
    expect(rules).toEqual([
      {
        id: 'sudeste-gratis',
        when: { ufs: ['SP', 'RJ'], minSubtotalBRL: 150, services: ['correios-pac'] },
        then: { free: true },
      },
      { id: 'embalagem', when: { services: ['correios-sedex'] }, then: { markupPercent: 10, markupBRL: 3 } },
    ]);
    const text = await (await page()).text();
    expect(text).toContain('value="sudeste-gratis"');
    expect(text).toContain('value="10% + 3"');
  });

  it('refuses a form without its CSRF token, and an invalid rule naming the rule and field, keeping the rules in force', async () => {
    const before = await inForce();
    expect((await post('/admin/rules', ROWS, 'forged')).status).toBe(403);
    const res = await post('/admin/rules', { ...ROWS, 'effect-1': 'extraDays', 'value-1': 'dois' });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain('rule &#34;embalagem&#34;: then.extraDays');
    // what was typed stays in the form
    expect(text).toContain('value="dois"');
    expect(await inForce()).toEqual(before);
  });

  it('previews a cart and a CEP before and after the typed rules, without saving them, with the platform’s price', async () => {
    const before = await inForce();
    const res = await post('/admin/rules/preview', {
      ...ROWS,
      'effect-1': 'hide',
      'value-1': '',
      cep: '20040-020',
      quantity: '2',
      unitPrice: '89,90',
      weight: '0,3',
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('Cada opção antes e depois das regras');
    expect(text).toMatch(
      /correios-pac<\/span><\/th>\s*<td>R\$\s[\d,]+ · \d{4}-\d{2}-\d{2}<\/td>\s*<td>Grátis/,
    );
    expect(text).toMatch(/correios-sedex<\/span><\/th>\s*<td>R\$\s[\d,]+ · [\d-]+<\/td>\s*<td>oculta<\/td>/);
    expect(await inForce()).toEqual(before);
  });

  it('warns of a rule that hides everything', async () => {
    const res = await post('/admin/rules/preview', {
      rows: '1',
      'id-0': 'tudo',
      'effect-0': 'hide',
      cep: '01310-100',
      quantity: '1',
      unitPrice: '10',
      weight: '0,3',
    });
    expect(await res.text()).toContain('data-warning="hides_everything"');
  });
});
