import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SHOPIFY_ADMIN_API_VERSION } from '../../shared/checkouts/shopify.ts';
import { type RunningSandbox, startSandbox } from '../testing.ts';

const SHOP = 'loja-demo.myshopify.com';
const TOKEN = 'shpat_test_demo_0000000001';
const NUVEM = 'nuvem_test_demo_000000001';
const CALLBACK = 'https://bff.loja.example/checkout/shopify/rates';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.control('reset');
});

async function graphql(query: string, variables: Record<string, unknown> = {}, token = TOKEN, shop = SHOP) {
  const res = await fetch(
    `${sandbox.url}/shopify/${shop}/admin/api/${SHOPIFY_ADMIN_API_VERSION}/graphql.json`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
      body: JSON.stringify({ query, variables }),
    },
  );
  return { status: res.status, body: (await res.json()) as unknown };
}

/** The payload of one field of a GraphQL answer, and its top-level errors. */
function fieldOf(body: unknown, field: string) {
  const parsed = z
    .looseObject({
      data: z.optional(z.record(z.string(), z.unknown())),
      errors: z.optional(
        z.array(z.looseObject({ message: z.string(), extensions: z.looseObject({ code: z.string() }) })),
      ),
    })
    .parse(body);
  const payload = z
    .nullable(
      z.looseObject({
        carrierService: z.optional(z.nullable(z.looseObject({ id: z.string() }))),
        userErrors: z.optional(
          z.array(z.looseObject({ message: z.string(), field: z.nullable(z.array(z.string())) })),
        ),
        deletedId: z.optional(z.nullable(z.string())),
        nodes: z.optional(z.array(z.looseObject({ id: z.string() }))),
      }),
    )
    .parse(parsed.data?.[field] ?? null);
  return { payload, errors: parsed.errors ?? [] };
}

const CREATE =
  'mutation C($input: DeliveryCarrierServiceCreateInput!) { carrierServiceCreate(input: $input) { carrierService { id name callbackUrl active } userErrors { field message } } }';
const input = (over: Record<string, unknown> = {}) => ({
  input: {
    name: 'Correios (frete-kit)',
    callbackUrl: CALLBACK,
    active: true,
    supportsServiceDiscovery: true,
    ...over,
  },
});

describe('Shopify Admin GraphQL: carrier services', () => {
  it('creates a carrier service, lists it and deletes it', async () => {
    const created = await graphql(CREATE, input());
    expect(created.status).toBe(200);
    const service = fieldOf(created.body, 'carrierServiceCreate').payload?.carrierService;
    expect(service).toMatchObject({ name: 'Correios (frete-kit)', callbackUrl: CALLBACK, active: true });
    expect(service?.id).toMatch(/^gid:\/\/shopify\/DeliveryCarrierService\/\d+$/);
    const listed = await graphql('{ carrierServices(first: 10) { nodes { id name } } }');
    expect(fieldOf(listed.body, 'carrierServices').payload?.nodes).toEqual([
      expect.objectContaining({ id: service?.id }),
    ]);
    const deleted = await graphql(
      'mutation D($id: ID!) { carrierServiceDelete(id: $id) { deletedId userErrors { message } } }',
      {
        id: service?.id,
      },
    );
    expect(fieldOf(deleted.body, 'carrierServiceDelete').payload).toEqual({
      deletedId: service?.id,
      userErrors: [],
    });
    const after = await graphql('{ carrierServices(first: 10) { nodes { id } } }');
    expect(fieldOf(after.body, 'carrierServices').payload?.nodes).toEqual([]);
  });

  it('refuses, with userErrors, a shop whose plan has no carrier-calculated shipping, a repeated name, a callback Shopify cannot call', async () => {
    const create = async (...args: Parameters<typeof graphql>) =>
      fieldOf((await graphql(...args)).body, 'carrierServiceCreate').payload;
    const basic = await create(CREATE, input(), 'shpat_test_basica_00000001', 'loja-basica.myshopify.com');
    expect(basic?.userErrors?.[0]?.message).toMatch(/plan/);
    expect(basic?.carrierService).toBeNull();
    await create(CREATE, input());
    expect((await create(CREATE, input()))?.userErrors?.[0]?.message).toMatch(/taken/);
    for (const callbackUrl of ['http://bff.loja.example/rates', 'ftp://x.example/', 'not a url']) {
      const refused = await create(CREATE, input({ name: callbackUrl, callbackUrl }));
      expect(refused?.userErrors?.[0]?.field).toEqual(['input', 'callbackUrl']);
    }
    const local = await create(
      CREATE,
      input({ name: 'local', callbackUrl: 'http://127.0.0.1:4000/checkout/shopify/rates' }),
    );
    expect(local?.userErrors).toEqual([]);
  });

  it('answers 401 to an unknown token, 404 to an unknown shop, and ACCESS_DENIED to a token without write_shipping', async () => {
    expect((await graphql(CREATE, input(), 'shpat_unknown_00000000000')).status).toBe(401);
    expect((await graphql(CREATE, input(), TOKEN, 'outra.myshopify.com')).status).toBe(404);
    const denied = fieldOf(
      (await graphql(CREATE, input(), 'shpat_test_sem_escopo_0001')).body,
      'carrierServiceCreate',
    );
    expect(denied.errors[0]?.extensions.code).toBe('ACCESS_DENIED');
    expect(denied.errors[0]?.message).toContain('write_shipping');
    expect(denied.payload).toBeNull();
    const listed = await graphql('{ carrierServices(first: 1) { nodes { id } } }');
    expect(fieldOf(listed.body, 'carrierServices').payload?.nodes).toEqual([]);
  });
});

async function nuvemshop(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${sandbox.url}/nuvemshop/v1/1001/shipping_carriers${path}`, {
    method,
    headers: {
      authentication: `bearer ${NUVEM}`,
      'user-agent': 'frete-kit test',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = z
    .union([z.array(z.record(z.string(), z.unknown())), z.record(z.string(), z.unknown())])
    .parse(await res.json());
  return { status: res.status, body: answer };
}

describe('Nuvemshop: shipping carriers and their options', () => {
  const carrier = {
    name: 'Correios (frete-kit)',
    callback_url: `https://bff.loja.example/checkout/nuvemshop/rates/x`,
    types: 'ship',
  };

  it('creates a carrier and its options, lists them, refuses a repeated option code, deletes the carrier', async () => {
    const created = await nuvemshop('POST', '', carrier);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...carrier, active: true, id: expect.any(Number) });
    const id = z.object({ id: z.int() }).parse(created.body).id;
    expect(
      (await nuvemshop('POST', `/${id}/options`, { code: 'correios-pac', name: 'Correios PAC' })).status,
    ).toBe(201);
    const again = await nuvemshop('POST', `/${id}/options`, { code: 'correios-pac', name: 'PAC' });
    // Field errors sit beside the envelope, as Nuvemshop writes them: this one is the field `code`.
    expect(again).toMatchObject({
      status: 422,
      body: { description: 'Validation error', code: ['has already been taken'] },
    });
    expect((await nuvemshop('GET', `/${id}/options`)).body).toEqual([
      expect.objectContaining({ code: 'correios-pac' }),
    ]);
    expect((await nuvemshop('GET', '')).body).toHaveLength(1);
    expect((await nuvemshop('DELETE', `/${id}`)).status).toBe(200);
    expect((await nuvemshop('GET', '')).body).toEqual([]);
  });

  it('refuses a callback that is not https (422), a request without User-Agent (400), a bad token (401), a token without write_shipping (403)', async () => {
    const insecure = await nuvemshop('POST', '', {
      ...carrier,
      callback_url: 'http://bff.loja.example/rates',
    });
    expect(insecure.status).toBe(422);
    expect(insecure.body).toMatchObject({ callback_url: ['must be a valid HTTPS URL'] });
    expect((await nuvemshop('POST', '', carrier, { 'user-agent': '' })).status).toBe(400);
    expect((await nuvemshop('POST', '', carrier, { authentication: 'bearer nope' })).status).toBe(401);
    expect(
      (await nuvemshop('POST', '', carrier, { authentication: 'bearer nuvem_test_sem_escopo_001' })).status,
    ).toBe(403);
    expect((await nuvemshop('GET', '')).body).toEqual([]);
  });
});
