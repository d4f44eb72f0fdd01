import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';
import { isKnownSecret, KNOWN_SECRETS } from './known-secrets.ts';

// Issue 48, finding 8 (reproduced red first): placeholders, the docs' examples, the sandbox's fixture secrets and
// `npm start`'s demo password were taken as secrets against the real platform.
const ROOT = join(import.meta.dirname, '..');
const REAL = {
  SHIPPING_SECRET_KEY: 'mk_live_0f3c9a7e5b1d2468ace',
  SHIPPING_API_URL: 'https://api.frete.example',
};
const SANDBOX = { SHIPPING_SECRET_KEY: 'mk_test_demo', SHIPPING_API_URL: 'http://127.0.0.1:4010' };
const DEMO_WEBHOOK = `whsec_${Buffer.from('frete-kit demo webhook secret 32').toString('base64')}`;
const fresh = () => randomBytes(24).toString('hex');

/** Each secret variable with the known values it was found holding, and what else it needs to parse. */
const CASES: [variable: string, values: string[], needs?: Record<string, string>][] = [
  ['SHIPPING_SECRET_KEY', ['mk_live_REPLACE_ME']],
  ['BFF_ADMIN_PASSWORD', ['REPLACE_WITH_A_LONG_PASSWORD', 'correct horse battery', 'demo-senha-loja-demo']],
  ['BFF_LINK_SECRET', ['0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef']],
  ['BFF_NUVEMSHOP_CALLBACK_SECRET', ['0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef']],
  ['BFF_WEBHOOK_SECRET', [DEMO_WEBHOOK]],
  ['BFF_SHOPIFY_SECRET', ['shpss_sandbox_frete_kit_app_0001', 'REPLACE_WITH_THE_APPS_CLIENT_SECRET']],
  [
    'BFF_NUVEMSHOP_APP_SECRET',
    ['nuvem_sandbox_frete_kit_app_secret_01'],
    { BFF_NUVEMSHOP_STORE_ID: '1001', BFF_NUVEMSHOP_TOKEN: fresh() },
  ],
  ['BFF_SHOPIFY_TOKEN', ['shpat_test_demo_0000000001'], { BFF_SHOPIFY_SHOP: 'loja.myshopify.com' }],
  ['BFF_CHECKOUT_TOKENS', [`${fresh()},REPLACE_WITH_48_HEX_CHARACTERS_000000000`]],
];
const agents = (token: string) =>
  JSON.stringify([{ token: fresh() }, { token }].map((t) => ({ ...t, scopes: ['rates'] })));

function refusal(env: Record<string, string>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  return 'accepted';
}

describe('secrets anyone can read, at start', () => {
  it.each(CASES)(
    'refuses %s with a known value against a real platform, naming it and not the value',
    (variable, values, needs = {}) => {
      for (const value of values) {
        const message = refusal({ ...REAL, ...needs, [variable]: value });
        expect(message).toMatch(new RegExp(`^${variable} is refused: it holds a placeholder`));
        for (const part of value.split(',')) expect(message).not.toContain(part);
        // Against a sandbox on this machine the same value is the fixture it was written for.
        expect(refusal({ ...SANDBOX, ...needs, [variable]: value })).toBe('accepted');
      }
    },
  );

  it('refuses a known agent token among fresh ones, and a placeholder in any case or with spaces around', () => {
    expect(refusal({ ...REAL, BFF_AGENT_TOKENS: agents('demo-agent-token-loja-demo') })).toMatch(
      /^BFF_AGENT_TOKENS is refused/,
    );
    expect(refusal({ ...REAL, BFF_ADMIN_PASSWORD: 'replace-me-with-something' })).toMatch(
      /^BFF_ADMIN_PASSWORD is refused/,
    );
    expect(refusal({ ...REAL, BFF_ADMIN_PASSWORD: ' demo-senha-loja-demo ' })).toMatch(
      /^BFF_ADMIN_PASSWORD is refused/,
    );
  });

  it('is not a sandbox when only one platform URL is on this machine', () => {
    const known = { BFF_ADMIN_PASSWORD: 'demo-senha-loja-demo' };
    expect(refusal({ ...SANDBOX, ...known, SHIPPING_MCP_URL: 'https://mcp.frete.example/mcp' })).toMatch(
      /^BFF_ADMIN_PASSWORD is refused/,
    );
    expect(refusal({ ...REAL, ...known, SHIPPING_MCP_URL: 'http://127.0.0.1:4010/mcp' })).toMatch(
      /^BFF_ADMIN_PASSWORD is refused/,
    );
  });

  it('takes fresh secrets against the real platform', () => {
    expect(
      refusal({
        ...REAL,
        BFF_ADMIN_PASSWORD: fresh(),
        BFF_LINK_SECRET: fresh(),
        BFF_AGENT_TOKENS: agents(fresh()),
        BFF_CHECKOUT_TOKENS: fresh(),
        BFF_SHOPIFY_SECRET: fresh(),
      }),
    ).toBe('accepted');
  });
});

/** Every Markdown file of the docs, the READMEs and .env.example. */
function documents(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'sandbox/README.md', '.env.example'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  return files.map((file) => readFileSync(join(ROOT, file), 'utf8'));
}

const SECRET_VARIABLE =
  /\b(SHIPPING_SECRET_KEY|BFF_ADMIN_PASSWORD|BFF_LINK_SECRET|BFF_WEBHOOK_SECRET|BFF_SHOPIFY_SECRET|BFF_SHOPIFY_TOKEN|BFF_NUVEMSHOP_CALLBACK_SECRET|BFF_NUVEMSHOP_APP_SECRET|BFF_NUVEMSHOP_TOKEN|BFF_CHECKOUT_TOKENS)=(?:'([^']*)'|"([^"]*)"|([^\s`'"|)]+))/g;

/** The secret values the files show: `VARIABLE=value` lines and examples, and agent tokens in JSON. */
function shownSecrets(): string[] {
  const values: string[] = [];
  for (const text of documents()) {
    for (const match of text.matchAll(SECRET_VARIABLE))
      values.push(...(match[2] ?? match[3] ?? match[4] ?? '').split(','));
    for (const match of text.matchAll(/"token"\s*:\s*"([^"]+)"/g)) values.push(match[1] ?? '');
  }
  const fixtures = readFileSync(join(ROOT, 'sandbox/checkouts/accounts.ts'), 'utf8');
  for (const match of fixtures.matchAll(/export const SANDBOX_\w*SECRET\w* = '([^']+)'/g))
    values.push(match[1] ?? '');
  const start = readFileSync(join(ROOT, 'scripts/start.ts'), 'utf8');
  for (const match of start.matchAll(/(?:Token|Password|_TOKEN|_SECRET): '([^']+)'/g))
    values.push(match[1] ?? '');
  for (const match of start.matchAll(/whsec_\$\{Buffer\.from\('([^']+)'\)/g))
    values.push(`whsec_${Buffer.from(match[1] ?? '').toString('base64')}`);
  // Not a value: an ellipsis, a command or a variable to expand (`$(…)`, `${…}`, `$NAME`), an empty example.
  return [...new Set(values.map((v) => v.trim()))].filter(
    (v) => v.length >= 8 && !/…|\$\(|\$\{|<|^mk_test_|^\$[A-Z_][A-Z0-9_]*$/.test(v),
  );
}

describe('the list of known secrets', () => {
  it('holds every secret value the docs, .env.example, the sandbox fixtures and npm start show', () => {
    const shown = shownSecrets();
    // The instrument finds what it is for: the docs' example password, the demo's and the sandbox's fixtures.
    for (const expected of [
      'correct horse battery',
      'demo-senha-loja-demo',
      'shpss_sandbox_frete_kit_app_0001',
      DEMO_WEBHOOK,
    ])
      expect(shown).toContain(expected);
    expect(shown.filter((value) => !isKnownSecret(value))).toEqual([]);
  });

  it('holds nothing a fresh secret could be', () => {
    for (const value of KNOWN_SECRETS) expect(value.length).toBeGreaterThanOrEqual(16);
    expect(isKnownSecret(fresh())).toBe(false);
  });
});
