import { describe, expect, it } from 'vitest';
import { ConfigError, EnvSchema, parseConfig, proxyTrustWarning } from './config.ts';

const base = { SHIPPING_SECRET_KEY: 'mk_test_demo' };

/** The ConfigError this environment (over `base`) is refused with. */
function refusalOf(env: Record<string, string>): ConfigError {
  try {
    parseConfig({ ...base, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
}

describe('parseConfig', () => {
  it('uses the defaults docs/configuration.md documents', () => {
    expect(parseConfig(base)).toMatchObject({
      port: 4000,
      apiUrl: 'http://127.0.0.1:4010',
      mcpUrl: 'http://127.0.0.1:4010/mcp',
      allowedOrigins: [],
      agentTokens: [],
      dataDir: '.data',
      idempotencyKeyDays: 7,
      visitorRateLimit: { calls: 120, seconds: 60 },
      trustProxy: false,
      publicUrl: 'http://127.0.0.1:4000',
      adminPassword: undefined,
      redisUrl: undefined,
      databaseUrl: undefined,
      shippingRateLimit: { calls: 60, seconds: 60 },
      store: { name: undefined, url: undefined, logoUrl: undefined },
      boxes: [],
    });
  });

  it('derives the public URL from the port and reads the additions docs/configuration.md documents', () => {
    expect(parseConfig({ ...base, BFF_PORT: '4100' }).publicUrl).toBe('http://127.0.0.1:4100');
    const config = parseConfig({
      ...base,
      BFF_PUBLIC_URL: 'https://frete.loja.example/',
      BFF_ADMIN_PASSWORD: 'a-long-admin-password',
      BFF_REDIS_URL: 'redis://127.0.0.1:6380',
      BFF_DATABASE_URL: 'postgres://bff@127.0.0.1:5433/bff',
      SHIPPING_RATE_LIMIT: '30/60',
      BFF_STORE_NAME: 'Loja Demo',
      BFF_STORE_URL: 'https://loja.example',
      BFF_STORE_LOGO_URL: 'https://loja.example/logo.png',
    });
    expect(config).toMatchObject({
      publicUrl: 'https://frete.loja.example',
      adminPassword: 'a-long-admin-password',
      redisUrl: 'redis://127.0.0.1:6380',
      databaseUrl: 'postgres://bff@127.0.0.1:5433/bff',
      shippingRateLimit: { calls: 30, seconds: 60 },
      store: { name: 'Loja Demo', url: 'https://loja.example', logoUrl: 'https://loja.example/logo.png' },
    });
  });

  it('reads BFF_IDEMPOTENCY_KEY_DAYS and refuses zero, negative, huge or non-numeric values', () => {
    expect(parseConfig({ ...base, BFF_IDEMPOTENCY_KEY_DAYS: '30' }).idempotencyKeyDays).toBe(30);
    expect(parseConfig({ ...base, BFF_IDEMPOTENCY_KEY_DAYS: '0.5' }).idempotencyKeyDays).toBe(0.5);
    for (const bad of ['0', '-1', '7d', '1e3', '99999']) {
      expect(() => parseConfig({ ...base, BFF_IDEMPOTENCY_KEY_DAYS: bad })).toThrow(
        /BFF_IDEMPOTENCY_KEY_DAYS must be a number of days/,
      );
    }
  });

  it('refuses a missing secret key, naming the variable', () => {
    expect(() => parseConfig({})).toThrow(/SHIPPING_SECRET_KEY is required/);
  });

  it('refuses a public key given as the secret, without echoing it', () => {
    let message = '';
    try {
      parseConfig({ SHIPPING_SECRET_KEY: 'pk_test_demo' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('SHIPPING_SECRET_KEY');
    expect(message).not.toContain('pk_test_demo');
  });

  it.each([
    [{ SHIPPING_API_URL: 'not a url' }, 'SHIPPING_API_URL'],
    [{ SHIPPING_PUBLIC_KEY: 'mk_test_demo' }, 'SHIPPING_PUBLIC_KEY'],
    [{ BFF_PORT: '99999' }, 'BFF_PORT'],
    [{ BFF_ALLOWED_ORIGINS: 'https://a.example/path' }, 'BFF_ALLOWED_ORIGINS'],
    [{ BFF_AGENT_TOKENS: 'not json' }, 'BFF_AGENT_TOKENS'],
    [{ BFF_AGENT_TOKENS: '[{"token":"short","scopes":["rates"]}]' }, 'BFF_AGENT_TOKENS'],
    [
      { BFF_AGENT_TOKENS: '[{"token":"mk_test_demo_as_agent_token","scopes":["rates"]}]' },
      'BFF_AGENT_TOKENS',
    ],
    [{ BFF_AGENT_TOKENS: '[{"token":"a-long-enough-agent-token","scopes":["admin"]}]' }, 'BFF_AGENT_TOKENS'],
    [{ BFF_VISITOR_RATE_LIMIT: 'lots' }, 'BFF_VISITOR_RATE_LIMIT'],
    [{ BFF_TRUST_PROXY: 'maybe' }, 'BFF_TRUST_PROXY'],
    [{ BFF_PUBLIC_URL: 'https://bff.example/shop' }, 'BFF_PUBLIC_URL'],
    [{ BFF_PUBLIC_URL: 'ftp://bff.example' }, 'BFF_PUBLIC_URL'],
    [{ BFF_ADMIN_PASSWORD: 'short' }, 'BFF_ADMIN_PASSWORD'],
    [{ BFF_REDIS_URL: 'http://127.0.0.1:6379' }, 'BFF_REDIS_URL'],
    [{ BFF_DATABASE_URL: 'mysql://127.0.0.1/db' }, 'BFF_DATABASE_URL'],
    [{ SHIPPING_RATE_LIMIT: '60' }, 'SHIPPING_RATE_LIMIT'],
    [{ BFF_STORE_URL: 'not a url' }, 'BFF_STORE_URL'],
    [{ BFF_STORE_LOGO_URL: 'javascript:alert(1)' }, 'BFF_STORE_LOGO_URL'],
    [{ BFF_BOXES: '{"id":"M"}' }, 'BFF_BOXES'],
  ])('names the variable that is wrong: %j', (env, name) => {
    expect(() => parseConfig({ ...base, ...env })).toThrow(name);
  });

  it('reads origins, agent tokens and trust proxy', () => {
    const config = parseConfig({
      ...base,
      BFF_ALLOWED_ORIGINS: 'https://loja.example, http://localhost:3000',
      BFF_AGENT_TOKENS: '[{"token":"agent-token-0123456789","scopes":["rates","labels"]}]',
      BFF_TRUST_PROXY: '1',
    });
    expect(config.allowedOrigins).toEqual(['https://loja.example', 'http://localhost:3000']);
    // A token without a name is named by its place in the list.
    expect(config.agentTokens).toEqual([
      { token: 'agent-token-0123456789', scopes: ['rates', 'labels'], name: 'agent-1' },
    ]);
    expect(config.trustProxy).toBe(1);
  });

  it('reads BFF_BOXES and names the box and the rule it breaks', () => {
    const M = { id: 'M', comprimento: 30, largura: 20, altura: 20, tareGrams: 200, maxWeightGrams: 30_000 };
    expect(parseConfig({ ...base, BFF_BOXES: JSON.stringify([M]) }).boxes).toEqual([M]);
    expect(parseConfig({ ...base, BFF_BOXES: ' ' }).boxes).toEqual([]);
    const refused = (boxes: unknown) => () => parseConfig({ ...base, BFF_BOXES: JSON.stringify(boxes) });
    expect(() => parseConfig({ ...base, BFF_BOXES: '[{id:"M"}]' })).toThrow(
      /^BFF_BOXES must be JSON: \[\{"id":"M"/,
    );
    expect(refused(M)).toThrow(/^BFF_BOXES must be a JSON array of boxes: /);
    expect(refused([M, { ...M, comprimento: 120 }])).toThrow(
      'BFF_BOXES: 1: box "M" has a side of 120 cm; the carrier takes at most 100 cm a side',
    );
    expect(refused([{ ...M, id: 'G' }, M, M])).toThrow('BFF_BOXES: 2: box id "M" is given twice');
    expect(refused([{ ...M, tareGrams: -1 }])).toThrow('BFF_BOXES: 0.tareGrams: must be ≥ 0');
    expect(refused([{ ...M, peso: 1 }])).toThrow('BFF_BOXES: 0: unknown property peso');
    expect(refused(Array.from({ length: 21 }, (_, i) => ({ ...M, id: `b${i}` })))).toThrow(
      'BFF_BOXES must list at most 20 boxes',
    );
  });

  it('refuses BFF_TRUST_PROXY=true (any visitor could pick their IP) and reads hops or proxy addresses', () => {
    expect(() => parseConfig({ ...base, BFF_TRUST_PROXY: 'true' })).toThrow(/BFF_TRUST_PROXY=true/);
    expect(() => parseConfig({ ...base, BFF_TRUST_PROXY: 'proxy.example' })).toThrow('BFF_TRUST_PROXY');
    expect(() => parseConfig({ ...base, BFF_TRUST_PROXY: '10.0.0.0/33' })).toThrow('BFF_TRUST_PROXY');
    expect(parseConfig({ ...base, BFF_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseConfig({ ...base, BFF_TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::1',
    ]);
    expect(parseConfig({ ...base, BFF_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('warns when it trusts proxy hops while bound to a public address, and not for addresses or a private bind', () => {
    const at = (host: string, trust: string) =>
      proxyTrustWarning(parseConfig({ ...base, BFF_HOST: host, BFF_TRUST_PROXY: trust }));
    for (const host of ['0.0.0.0', '::', '203.0.113.10', '2001:db8::10']) {
      expect(at(host, '1')).toMatch(/^BFF_TRUST_PROXY=1 trusts the last X-Forwarded-For entry from anyone/);
    }
    expect(at('0.0.0.0', '2')).toContain(`the last 2 X-Forwarded-For entries`);
    expect(at('0.0.0.0', '2')).toContain(`BFF_TRUST_PROXY to the proxy's address`);
    for (const host of [
      '127.0.0.1',
      '::1',
      'localhost',
      '10.1.2.3',
      '192.168.0.5',
      '172.20.0.2',
      'fd00::5',
    ]) {
      expect(at(host, '1')).toBeUndefined();
    }
    expect(at('0.0.0.0', 'loopback')).toBeUndefined();
    expect(at('0.0.0.0', '10.0.0.0/8')).toBeUndefined();
    expect(at('0.0.0.0', 'false')).toBeUndefined();
  });

  it('starts every error with the variable name, from the one EnvSchema', () => {
    for (const name of Object.keys(EnvSchema.shape)) {
      if (
        name === 'SHIPPING_SECRET_KEY' ||
        name === 'BFF_STORE_NAME' ||
        name === 'BFF_HOST' ||
        name === 'BFF_DATA_DIR'
      )
        continue;
      let message = '';
      try {
        parseConfig({ ...base, [name]: name === 'BFF_ADMIN_PASSWORD' ? 'short' : 'javascript:x' });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message, name).toMatch(new RegExp(`^${name}[ :=]`));
      // An origin is public and names which entry of the list is wrong; every other value stays out.
      if (name !== 'BFF_ALLOWED_ORIGINS') expect(message, name).not.toContain('javascript:x');
    }
  });

  it('reads the notification variables with the defaults docs/configuration.md documents', () => {
    expect(parseConfig(base).notifications).toEqual({
      watchIntervalMs: 300_000,
      watchShare: 0.2,
      stallDays: 3,
      smtpUrl: undefined,
      mailFrom: undefined,
      mailEvents: [
        'shipment.status_changed',
        'shipment.out_for_delivery',
        'shipment.awaiting_pickup',
        'shipment.delivered',
        'shipment.returned',
        'shipment.promise_at_risk',
        'shipment.pickup_reminder',
      ],
      webhookUrl: undefined,
      webhookSecret: undefined,
    });
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const config = parseConfig({
      ...base,
      BFF_WATCH_INTERVAL_S: '60',
      BFF_WATCH_SHARE: '0',
      BFF_STALL_DAYS: '5',
      BFF_SMTP_URL: 'smtps://user:pw@mail.loja.example:465',
      BFF_MAIL_FROM: 'Loja Demo <pedidos@loja.example>',
      BFF_MAIL_EVENTS: 'shipment.delivered, shipment.stalled',
      BFF_WEBHOOK_URL: 'https://loja.example/hooks/frete',
      BFF_WEBHOOK_SECRET: secret,
      BFF_LINK_SECRET: 'x'.repeat(40),
    });
    expect(config.notifications).toMatchObject({
      watchIntervalMs: 60_000,
      watchShare: 0,
      stallDays: 5,
      mailFrom: 'Loja Demo <pedidos@loja.example>',
      mailEvents: ['shipment.delivered', 'shipment.stalled'],
      webhookSecret: secret,
    });
    expect(config.linkSecret).toBe('x'.repeat(40));
    expect(parseConfig({ ...base, BFF_MAIL_EVENTS: 'none' }).notifications.mailEvents).toEqual([]);
  });

  it('refuses notification values that would misbehave, naming the variable and never echoing a secret', () => {
    const refused: [Record<string, string>, RegExp][] = [
      [{ BFF_WATCH_SHARE: '0.9' }, /^BFF_WATCH_SHARE must be a share from 0/],
      [{ BFF_WATCH_INTERVAL_S: '0' }, /^BFF_WATCH_INTERVAL_S must be a whole number/],
      [{ BFF_STALL_DAYS: '2.5' }, /^BFF_STALL_DAYS must be a whole number/],
      [{ BFF_SMTP_URL: 'http://mail.example' }, /^BFF_SMTP_URL must be a URL/],
      [{ BFF_MAIL_FROM: 'Loja <a@b.example>\r\nBcc: x@y.example' }, /^BFF_MAIL_FROM must be an address/],
      [{ BFF_MAIL_EVENTS: 'shipment.lost' }, /^BFF_MAIL_EVENTS must be none or/],
      [{ BFF_WEBHOOK_SECRET: 'whsec_c2hvcnQ=' }, /^BFF_WEBHOOK_SECRET must be whsec_/],
      [{ BFF_WEBHOOK_SECRET: 'supersecretsupersecretsupersecret' }, /^BFF_WEBHOOK_SECRET must be whsec_/],
      [{ BFF_LINK_SECRET: 'short-secret' }, /^BFF_LINK_SECRET must have at least 32/],
      [{ BFF_SMTP_URL: 'smtp://127.0.0.1:2525' }, /^BFF_MAIL_FROM is required with BFF_SMTP_URL/],
      [
        { BFF_WEBHOOK_URL: 'https://loja.example/hooks' },
        /^BFF_WEBHOOK_SECRET is required with BFF_WEBHOOK_URL/,
      ],
    ];
    for (const [env, message] of refused) {
      const { message: said } = refusalOf(env);
      expect(said).toMatch(message);
      expect(said).not.toMatch(/supersecret|short-secret|c2hvcnQ/);
    }
  });
});

describe('parseConfig: quotes and checkouts (docs/checkout/)', () => {
  it('reads the defaults: no handling days or cut-off, half the quotes kept for browsers, a 2.5 s deadline, no platform', () => {
    const config = parseConfig(base);
    expect(config.storeDays).toEqual({ handlingDays: 0 });
    expect(config.browserQuoteShare).toBe(0.5);
    expect(config.checkout).toEqual({
      deadlineMs: 2500,
      shopifySecret: undefined,
      nuvemshopCallbackSecret: undefined,
      shopify: { shop: undefined, token: undefined, apiUrl: undefined, locationId: undefined },
      // No BFF_SMTP_URL: the kit does not e-mail the shopper, so the store does.
      notifyCustomer: true,
      nuvemshop: {
        storeId: undefined,
        token: undefined,
        apiUrl: 'https://api.nuvemshop.com.br/v1',
        appSecret: undefined,
        authUrl: 'https://www.tiendanube.com',
      },
    });
  });

  it('reads the store days as the calculator writes its cut-off, and the shop’s Admin API from its domain', () => {
    const config = parseConfig({
      ...base,
      BFF_HANDLING_DAYS: '2',
      BFF_CUTOFF: '14h30',
      BFF_SHOPIFY_SHOP: 'Loja.MyShopify.com',
      BFF_SHOPIFY_TOKEN: 'shpat_0123456789abcdef',
      BFF_NUVEMSHOP_CALLBACK_SECRET: 'a'.repeat(64),
    });
    expect(config.storeDays).toEqual({ handlingDays: 2, cutoffMinutes: 870 });
    expect(config.checkout.shopify).toEqual({
      shop: 'loja.myshopify.com',
      token: 'shpat_0123456789abcdef',
      apiUrl: 'https://loja.myshopify.com',
    });
    expect(config.checkout.nuvemshopCallbackSecret).toBe('a'.repeat(64));
  });

  it('reads the CEP services as kind and base URL, the public ones by default, none on request', () => {
    expect(parseConfig(base).cep).toEqual({
      services: [
        { kind: 'viacep', baseUrl: 'https://viacep.com.br/ws' },
        { kind: 'brasilapi', baseUrl: 'https://brasilapi.com.br/api/cep/v1' },
      ],
      timeoutMs: 1500,
    });
    expect(
      parseConfig({ ...base, BFF_CEP_SERVICES: 'viacep:http://127.0.0.1:4010/viacep/ws/' }).cep.services,
    ).toEqual([{ kind: 'viacep', baseUrl: 'http://127.0.0.1:4010/viacep/ws' }]);
    expect(parseConfig({ ...base, BFF_CEP_SERVICES: 'none' }).cep.services).toEqual([]);
  });

  it('refuses what would break a checkout, naming the variable and never echoing a secret', () => {
    const refused: [Record<string, string>, RegExp][] = [
      [{ BFF_CUTOFF: '25:00' }, /^BFF_CUTOFF must be an hour of the day/],
      [{ BFF_HANDLING_DAYS: '1.5' }, /^BFF_HANDLING_DAYS must be a whole number/],
      [{ BFF_BROWSER_QUOTE_SHARE: '1' }, /^BFF_BROWSER_QUOTE_SHARE must be a share/],
      [{ BFF_CHECKOUT_DEADLINE_MS: '60000' }, /^BFF_CHECKOUT_DEADLINE_MS must be a whole number/],
      [{ BFF_SHOPIFY_SECRET: 'supersecret' }, /^BFF_SHOPIFY_SECRET must have at least 16/],
      [{ BFF_SHOPIFY_SECRET: 'supersecret with spaces' }, /^BFF_SHOPIFY_SECRET must have at least 16/],
      [
        { BFF_NUVEMSHOP_CALLBACK_SECRET: 'supersecret-too-short' },
        /^BFF_NUVEMSHOP_CALLBACK_SECRET must be 32/,
      ],
      [
        { BFF_NUVEMSHOP_CALLBACK_SECRET: `supersecret/${'x'.repeat(40)}` },
        /^BFF_NUVEMSHOP_CALLBACK_SECRET must be/,
      ],
      [{ BFF_SHOPIFY_TOKEN: 'supersecret token' }, /^BFF_SHOPIFY_TOKEN must be the Admin API token/],
      [{ BFF_SHOPIFY_SHOP: 'https://loja.myshopify.com' }, /^BFF_SHOPIFY_SHOP must be the shop's domain/],
      // A custom domain: Shopify's webhooks name the shop by its myshopify.com name, every order would be "ignored".
      [
        { BFF_SHOPIFY_SHOP: 'loja.com.br' },
        /^BFF_SHOPIFY_SHOP must be the shop's domain <name>\.myshopify\.com/,
      ],
      [{ BFF_NUVEMSHOP_STORE_ID: 'loja' }, /^BFF_NUVEMSHOP_STORE_ID must be the numeric store id/],
      [{ BFF_NUVEMSHOP_API_URL: 'ftp://api.example' }, /^BFF_NUVEMSHOP_API_URL must be an http/],
      [{ BFF_NUVEMSHOP_APP_SECRET: 'supersecret' }, /^BFF_NUVEMSHOP_APP_SECRET must have at least 16/],
      [
        { BFF_NUVEMSHOP_APP_SECRET: 'supersecret-of-the-app-0001' },
        /^BFF_NUVEMSHOP_STORE_ID and BFF_NUVEMSHOP_TOKEN are required with BFF_NUVEMSHOP_APP_SECRET/,
      ],
      [{ BFF_CEP_SERVICES: 'correios:https://cep.example' }, /^BFF_CEP_SERVICES must be none or/],
      [{ BFF_CEP_SERVICES: 'viacep:ftp://cep.example' }, /^BFF_CEP_SERVICES must be an http/],
      [{ BFF_CEP_TIMEOUT_MS: '20000' }, /^BFF_CEP_TIMEOUT_MS must be a whole number/],
      [{ BFF_STORE_KEY: 'supersecret' }, /^BFF_STORE_KEY must be 32 bytes/],
      [{ BFF_STORE_KEY: 'ab'.repeat(31) }, /^BFF_STORE_KEY must be 32 bytes/],
      [
        { BFF_SHOPIFY_CLIENT_ID: 'client-id-0001' },
        /^BFF_SHOPIFY_SECRET .* is required with BFF_SHOPIFY_CLIENT_ID/,
      ],
      [
        { BFF_NUVEMSHOP_APP_ID: '9001' },
        /^BFF_NUVEMSHOP_APP_SECRET .* is required with BFF_NUVEMSHOP_APP_ID/,
      ],
      [
        {
          BFF_SHOPIFY_CLIENT_ID: 'client-id-0001',
          BFF_SHOPIFY_SECRET: 'supersecret-of-the-app-0001',
          BFF_DATABASE_URL: 'postgres://user@127.0.0.1:5432/db',
        },
        /^BFF_STORE_KEY is required with BFF_DATABASE_URL/,
      ],
    ];
    for (const [env, message] of refused) {
      const { message: said } = refusalOf(env);
      expect(said).toMatch(message);
      expect(said).not.toMatch(/supersecret/);
    }
  });

  it('reads the delivery promise and the test clock with their defaults, and refuses a test clock off this machine', () => {
    expect(parseConfig(base)).toMatchObject({
      promise: { quantile: 0.95, minParcels: 30 },
      testClock: undefined,
    });
    expect(
      parseConfig({
        ...base,
        BFF_PROMISE_QUANTILE: '0.9',
        BFF_PROMISE_MIN_PARCELS: '50',
        BFF_TEST_CLOCK: 'sandbox',
      }),
    ).toMatchObject({ promise: { quantile: 0.9, minParcels: 50 }, testClock: 'sandbox' });
    expect(
      parseConfig({ ...base, SHIPPING_API_URL: 'http://localhost:4010', BFF_TEST_CLOCK: 'sandbox' })
        .testClock,
    ).toBe('sandbox');
    expect(
      parseConfig({
        ...base,
        SHIPPING_MCP_URL: 'http://[::1]:4010/mcp',
        BFF_TEST_CLOCK: 'sandbox',
      }).testClock,
    ).toBe('sandbox');
    const refused: [Record<string, string>, RegExp][] = [
      [{ BFF_PROMISE_QUANTILE: '1' }, /^BFF_PROMISE_QUANTILE must be a share from 0.5 to 0.99/],
      [{ BFF_PROMISE_QUANTILE: '95' }, /^BFF_PROMISE_QUANTILE must be a share/],
      [{ BFF_PROMISE_MIN_PARCELS: '0' }, /^BFF_PROMISE_MIN_PARCELS must be a whole number of parcels/],
      [{ BFF_TEST_CLOCK: 'fast' }, /^BFF_TEST_CLOCK must be sandbox/],
      [
        { BFF_TEST_CLOCK: 'sandbox', SHIPPING_API_URL: 'https://api.frete.example' },
        /^BFF_TEST_CLOCK=sandbox is refused: SHIPPING_API_URL \(https:\/\/api\.frete\.example\) is not a sandbox/,
      ],
      [
        { BFF_TEST_CLOCK: 'sandbox', SHIPPING_API_URL: 'http://10.0.0.5:4010' },
        /^BFF_TEST_CLOCK=sandbox is refused/,
      ],
      // Issue 48, finding 10 (red first): a local REST sandbox with the real platform's MCP, where labels are bought.
      [
        { BFF_TEST_CLOCK: 'sandbox', SHIPPING_MCP_URL: 'https://mcp.frete.example/mcp' },
        /^BFF_TEST_CLOCK=sandbox is refused: SHIPPING_MCP_URL \(https:\/\/mcp\.frete\.example\) is not a sandbox/,
      ],
      [
        { BFF_TEST_CLOCK: 'sandbox', SHIPPING_MCP_URL: 'http://127.0.0.1.frete.example/mcp' },
        /^BFF_TEST_CLOCK=sandbox is refused: SHIPPING_MCP_URL/,
      ],
      [
        { BFF_TEST_CLOCK: 'sandbox', SHIPPING_MCP_URL: 'http://[::2]:4010/mcp' },
        /^BFF_TEST_CLOCK=sandbox is refused: SHIPPING_MCP_URL/,
      ],
    ];
    for (const [env, message] of refused)
      expect(() => parseConfig({ ...base, ...env }), JSON.stringify(env)).toThrow(message);
  });
});
