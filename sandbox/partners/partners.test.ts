import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../shared/errors.ts';
import { LabelRecordSchema } from '../../shared/labels/label.ts';
import {
  CreateMerchantOutputSchema,
  GetMerchantStatusOutputSchema,
  type MerchantSteps,
} from '../../shared/merchant.ts';
import { RatesResponseSchema } from '../../shared/quote.ts';
import { TrackingResponseSchema } from '../../shared/tracking.ts';
import { callTool, connectMcp } from '../mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, samplePartyAt, startSandbox } from '../testing.ts';
import { MERCHANTS_PER_PARTNER } from './desk.ts';

let sandbox: RunningSandbox;
const clients: Client[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 10, labelPdfWaitMs: 1000 });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control('reset'));
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(key: string): Promise<Client> {
  const client = await connectMcp(`${sandbox.url}/mcp`, { authorization: `Bearer ${key}` });
  clients.push(client);
  return client;
}

async function createMerchant(partnerKey: string, input: Record<string, unknown> = {}) {
  const result = await callTool(await connect(partnerKey), 'create_merchant', {
    name: 'Loja Nova',
    email: 'dona@lojanova.example',
    ...input,
  });
  expect(result.isError).toBeFalsy();
  return CreateMerchantOutputSchema.parse(result.structuredContent);
}

async function status(partnerKey: string, merchantId: string) {
  const result = await callTool(await connect(partnerKey), 'get_merchant_status', { merchantId });
  return GetMerchantStatusOutputSchema.parse(result.structuredContent);
}

const FULL_FORM = {
  originCep: '69005-040',
  services: ['03298', '03220'],
  plan: 'ativo',
  contract: 'proprio',
  contractNumber: '9912345678',
  accessCode: 'segredo-dos-correios',
  labels: 'sim',
};

/** Posts the onboarding form as a browser would (urlencoded; `services` repeated). */
async function submit(onboardingUrl: string, form: Record<string, string | string[]>): Promise<Response> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  }
  return fetch(onboardingUrl, { method: 'POST', body });
}

function keysOf(html: string): { publicKey: string; secretKey: string } {
  const publicKey = /id="public-key">(pk_test_[0-9a-f]+)</.exec(html)?.[1];
  const secretKey = /id="secret-key">(mk_test_[0-9a-f]+)</.exec(html)?.[1];
  if (!publicKey || !secretKey) throw new Error('no keys on the page');
  return { publicKey, secretKey };
}

async function onboard(form: Record<string, string | string[]> = FULL_FORM, partner = 'pl_test_parceiro') {
  const created = await createMerchant(partner);
  const res = await submit(String(created.onboardingUrl), form);
  expect(res.status).toBe(201);
  return { created, keys: keysOf(await res.text()) };
}

const RATES = (cep: string) => ({
  destinationCep: cep,
  items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 50 }],
});

describe('the partner scope on /mcp (spec 4.4.6)', () => {
  it('offers a platform key exactly create_merchant and get_merchant_status, with declared output schemas', async () => {
    for (const key of ['pl_test_parceiro', 'pl_test_outro']) {
      const { tools } = await (await connect(key)).listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['create_merchant', 'get_merchant_status']);
      for (const tool of tools) {
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.inputSchema.additionalProperties).toBe(false);
      }
    }
  });

  it('never offers the partner tools to a store key', async () => {
    const { tools } = await (await connect('mk_test_demo')).listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('create_merchant');
    expect(tools.map((tool) => tool.name)).not.toContain('get_merchant_status');
  });

  it('keeps REST closed to platform keys: 403 wrong_key_scope', async () => {
    for (const key of ['pl_test_parceiro', 'pl_test_outro']) {
      const res = await sandbox.post('/v1/rates', RATES('20040-020'), key);
      expect(res.status).toBe(403);
      expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('wrong_key_scope');
    }
  });

  it('refuses inputs beyond or outside the pinned fields', async () => {
    const client = await connect('pl_test_parceiro');
    for (const bad of [
      { name: 'X', email: 'a@b.example', plan: 'pro' },
      { name: 'X', email: 'not-an-email' },
      { name: '   ', email: 'a@b.example' },
      { name: 'X', email: 'a@b.example', cpfCnpj: '123456789012' },
      { name: 'X', email: 'a@b.example', cpfCnpj: '123.456.789-01' },
      { email: 'a@b.example' },
    ]) {
      const result = await callTool(client, 'create_merchant', bad);
      expect(result.isError, JSON.stringify(bad)).toBe(true);
    }
    for (const good of [{ cpfCnpj: '12345678901' }, { cpfCnpj: '12345678000190' }, { externalId: 'x-1' }]) {
      const result = await callTool(client, 'create_merchant', { name: 'X', email: 'a@b.example', ...good });
      expect(result.isError, JSON.stringify(good)).toBeFalsy();
    }
  });

  it('creates a pending merchant whose status follows each step, with no key before the onboarding', async () => {
    const created = await createMerchant('pl_test_parceiro');
    expect(created).toMatchObject({ status: 'pending', merchantId: expect.stringMatching(/^loja-/) });
    expect(created.onboardingUrl).toMatch(new RegExp(`^${sandbox.url}/onboarding/[A-Za-z0-9_-]{32}$`));
    const pending = await status('pl_test_parceiro', String(created.merchantId));
    const none: MerchantSteps = {
      originCep: false,
      services: false,
      plan: false,
      carrierContract: false,
      labels: false,
    };
    expect(pending).toEqual({ merchantId: created.merchantId, status: 'pending', steps: none });
  });

  it('answers the same merchant for the same externalId from the same partner, another one for another partner', async () => {
    const first = await createMerchant('pl_test_parceiro', { externalId: 'shop-42' });
    const again = await createMerchant('pl_test_parceiro', { externalId: 'shop-42' });
    const other = await createMerchant('pl_test_outro', { externalId: 'shop-42' });
    expect(again).toEqual(first);
    expect(other.merchantId).not.toBe(first.merchantId);
  });

  it('caps the merchants one partner creates, with a reason', async () => {
    const client = await connect('pl_test_outro');
    for (let i = 0; i < MERCHANTS_PER_PARTNER; i++) {
      await callTool(client, 'create_merchant', { name: `L${i}`, email: 'a@b.example' });
    }
    const refused = await callTool(client, 'create_merchant', { name: 'one more', email: 'a@b.example' });
    expect(CreateMerchantOutputSchema.parse(refused.structuredContent)).toEqual({
      reason: 'merchant_limit_reached',
    });
    const other = await createMerchant('pl_test_parceiro');
    expect(other.status).toBe('pending');
  }, 60_000);
});

describe('isolation between partners', () => {
  it('answers merchant_not_found for a merchant another partner created, or an unknown one, even after activation', async () => {
    const { created } = await onboard();
    const id = String(created.merchantId);
    expect(await status('pl_test_outro', id)).toEqual({ merchantId: id, reason: 'merchant_not_found' });
    expect(await status('pl_test_parceiro', 'loja-naoexiste')).toMatchObject({
      reason: 'merchant_not_found',
    });
    expect(await status('pl_test_parceiro', 'loja-demo')).toMatchObject({ reason: 'merchant_not_found' });
    expect((await status('pl_test_parceiro', id)).status).toBe('active');
  });
});

describe('the onboarding page', () => {
  it('is server-rendered pt-BR HTML with no script, a strict CSP and no caching', async () => {
    const created = await createMerchant('pl_test_parceiro', { name: '<script>alert(1)</script> & Cia' });
    const res = await fetch(String(created.onboardingUrl));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(res.headers.get('content-security-policy')).not.toMatch(/script-src|unsafe/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).not.toMatch(/<script|<style|\son\w+=|style="/i);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; Cia');
    const css = await fetch(`${sandbox.url}/onboarding.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('answers 404 for an unknown or malformed token and 405 for another method', async () => {
    for (const path of [
      '/onboarding/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      '/onboarding/x',
      '/onboarding/..%2F..',
    ]) {
      expect((await fetch(`${sandbox.url}${path}`)).status).toBe(404);
    }
    const created = await createMerchant('pl_test_parceiro');
    expect((await fetch(String(created.onboardingUrl), { method: 'PUT' })).status).toBe(405);
  });

  it.each([
    ['a CEP without coverage', { originCep: '00500-000' }, /não tem cobertura/],
    ['a malformed CEP', { originCep: '1234' }, /CEP inválido/],
    ['a CEP with a tab', { originCep: '69005\t040' }, /CEP inválido/],
    ['no CEP', { originCep: '' }, /Informe o CEP/],
    ['no service', { services: [] }, /pelo menos um serviço/],
    ['an unknown service', { services: ['03298', '04227'] }, /Serviço desconhecido/],
    ['no plan choice', { plan: '' }, /plano/],
    ['no contract choice', { contract: '' }, /contrato próprio/],
    ['an own contract without its number', { contractNumber: '123' }, /10 dígitos/],
    ['an own contract without its access code', { accessCode: ' ' }, /código de acesso/],
  ])('refuses %s with 400, says so, and creates nothing', async (_what, change, message) => {
    const created = await createMerchant('pl_test_parceiro');
    const res = await submit(String(created.onboardingUrl), { ...FULL_FORM, ...change });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(message);
    expect(html).toContain('role="alert"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).not.toMatch(/pk_test_|mk_test_/);
    expect(html).not.toContain('segredo-dos-correios'); // the access code is never echoed back
    expect((await status('pl_test_parceiro', String(created.merchantId))).status).toBe('pending');
  });

  it('shows the keys once: a second visit or post shows no key', async () => {
    const { created, keys } = await onboard();
    expect(keys.publicKey).toMatch(/^pk_test_[0-9a-f]{24}$/);
    expect(keys.secretKey).toMatch(/^mk_test_[0-9a-f]{32}$/);
    const again = await fetch(String(created.onboardingUrl));
    expect(again.status).toBe(200);
    const resubmit = await submit(String(created.onboardingUrl), FULL_FORM);
    expect(resubmit.status).toBe(409);
    for (const html of [await again.text(), await resubmit.text()]) {
      expect(html).toContain('já foi concluída');
      expect(html).not.toMatch(/pk_test_|mk_test_/);
    }
  });

  it('answers a huge, JSON or field-flooded body with a 4xx, never a 500, and stays pending', async () => {
    const created = await createMerchant('pl_test_parceiro');
    const url = String(created.onboardingUrl);
    const huge = await submit(url, { ...FULL_FORM, accessCode: 'x'.repeat(20_000) });
    expect(huge.status).toBe(413);
    const flooded = await submit(url, {
      ...FULL_FORM,
      ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, 'x'])),
    });
    expect(flooded.status).toBe(413);
    const json = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(FULL_FORM),
    });
    expect(json.status).toBe(400);
    const nested = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'originCep[a]=1&services[__proto__]=x&plan=ativo',
    });
    expect(nested.status).toBe(400);
    expect((await status('pl_test_parceiro', String(created.merchantId))).status).toBe('pending');
  });

  it('activates once under concurrent posts of the same form', async () => {
    const created = await createMerchant('pl_test_parceiro');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => submit(String(created.onboardingUrl), FULL_FORM)),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
  });
});

describe('the new store', () => {
  it('is active with every step, its public key and never its secret key', async () => {
    const { created, keys } = await onboard();
    const active = await status('pl_test_parceiro', String(created.merchantId));
    expect(active).toEqual({
      merchantId: created.merchantId,
      status: 'active',
      steps: { originCep: true, services: true, plan: true, carrierContract: true, labels: true },
      publicKey: keys.publicKey,
    });
    expect(JSON.stringify(active)).not.toContain('mk_');
  });

  it('quotes from its own origin with its public key', async () => {
    const { keys } = await onboard({ ...FULL_FORM, services: ['03298'] }); // origin Manaus (AM)
    const quote = async (key: string, cep: string) => {
      const res = await sandbox.post('/v1/rates', RATES(cep), key);
      expect(res.status).toBe(200);
      return RatesResponseSchema.parse(await res.json()).rates;
    };
    const local = await quote(keys.publicKey, '69005-040'); // Manaus
    const far = await quote(keys.publicKey, '01310-100'); // São Paulo
    expect(local.map((rate) => rate.code)).toEqual(['PAC']);
    expect(local[0]?.price).toBeLessThan(far[0]?.price ?? 0);
    // loja-demo, from São Paulo, sees it the other way round: the origin is the store's.
    const demoLocal = await quote('pk_test_demo', '01310-100');
    const demoFar = await quote('pk_test_demo', '69005-040');
    const pac = (rates: typeof local) => rates.find((rate) => rate.code === 'PAC')?.price ?? 0;
    expect(pac(demoLocal)).toBeLessThan(pac(demoFar));
    expect(pac(far)).toBe(pac(demoFar)); // same zone either way
  });

  it('tracks and issues a label with its secret key, and the label tracks', async () => {
    const { keys } = await onboard();
    const tracking = await sandbox.post('/v1/tracking', { codes: ['DG049186226BR'] }, keys.secretKey);
    expect(TrackingResponseSchema.parse(await tracking.json()).results[0]?.delivered).toBe(true);
    const client = await connect(keys.secretKey);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('generate_label');
    const label = LabelRecordSchema.parse(
      (
        await callTool(client, 'generate_label', {
          ...SAMPLE_LABEL,
          sender: samplePartyAt('69005-040', 'AM', 'Manaus'),
        })
      ).structuredContent,
    );
    expect(label.prepostagemId).toMatch(/^PP/);
    expect(label.labelPdfBase64?.length).toBeGreaterThan(1000);
    const tracked = await callTool(client, 'track_shipment', { codes: [label.trackingCode] });
    expect(TrackingResponseSchema.parse(tracked.structuredContent).results[0]?.found).toBe(true);
  });

  it('works with its own configuration: no plan, no contract, no labels', async () => {
    const noPlan = await onboard({ ...FULL_FORM, plan: 'depois' });
    const res = await sandbox.post('/v1/rates', RATES('20040-020'), noPlan.keys.publicKey);
    expect(res.status).toBe(402);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('subscription_required');

    const noContract = await onboard({
      ...FULL_FORM,
      contract: 'nenhum',
      contractNumber: '',
      accessCode: '',
    });
    const answer = await callTool(await connect(noContract.keys.secretKey), 'generate_label', {
      ...SAMPLE_LABEL,
      sender: samplePartyAt('69005-040', 'AM', 'Manaus'),
    });
    expect(answer.structuredContent).toMatchObject({ reason: 'own_contract_required' });

    const noLabels = await onboard({ ...FULL_FORM, labels: [] });
    const { tools } = await (await connect(noLabels.keys.secretKey)).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_shipping_rates', 'track_shipment']);
    expect((await status('pl_test_parceiro', String(noLabels.created.merchantId))).steps).toMatchObject({
      labels: false,
      carrierContract: true,
    });
  });

  it('is gone after POST /_sandbox/reset: keys, status and onboarding page', async () => {
    const { created, keys } = await onboard();
    await sandbox.control('reset');
    const res = await sandbox.post('/v1/rates', RATES('20040-020'), keys.publicKey);
    expect(res.status).toBe(401);
    expect(ErrorBodySchema.parse(await res.json()).error.code).toBe('invalid_api_key');
    expect(await status('pl_test_parceiro', String(created.merchantId))).toMatchObject({
      reason: 'merchant_not_found',
    });
    expect((await fetch(String(created.onboardingUrl))).status).toBe(404);
    // The fixtures are untouched.
    expect((await sandbox.post('/v1/rates', RATES('20040-020'), 'pk_test_demo')).status).toBe(200);
  });
});
