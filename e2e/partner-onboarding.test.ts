import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectMcp } from '../sandbox/mcp/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, samplePartyAt, startSandbox } from '../sandbox/testing.ts';
import { LabelRecordSchema } from '../shared/labels/label.ts';
import { CreateMerchantOutputSchema, GetMerchantStatusOutputSchema } from '../shared/merchant.ts';
import { RatesResponseSchema } from '../shared/quote.ts';
import { TrackingResponseSchema } from '../shared/tracking.ts';
import { axeOn } from './support/axe.ts';
import { allowConsoleErrors, launchBrowser, screenshot } from './support/browser.ts';

let sandbox: RunningSandbox;
let browser: Browser;
let partner: Client;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 10, labelPdfWaitMs: 2000 });
  browser = await launchBrowser();
  partner = await connectMcp(`${sandbox.url}/mcp`, { authorization: 'Bearer pl_test_parceiro' });
});
afterAll(async () => {
  await partner?.close();
  await browser?.close();
  await sandbox?.close();
});

async function expectAccessible(page: Page, state: string): Promise<void> {
  const { violations } = await axeOn(page).analyze();
  expect(
    violations.map((v) => `${state}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  await screenshot(page, `onboarding-${state}`);
}

async function merchantStatus(merchantId: string) {
  const result = await callTool(partner, 'get_merchant_status', { merchantId });
  return GetMerchantStatusOutputSchema.parse(result.structuredContent);
}

describe('partner provisioning, end to end in Chromium (spec 4.4.6)', () => {
  it('create → onboarding form in the browser (validation, then keys once) → active → the new pk_ quotes from its origin', async () => {
    const created = CreateMerchantOutputSchema.parse(
      (await callTool(partner, 'create_merchant', { name: 'Açaí do Norte', email: 'contato@acai.example' }))
        .structuredContent,
    );
    const merchantId = String(created.merchantId);
    expect((await merchantStatus(merchantId)).status).toBe('pending');

    const context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 800, height: 1100 } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    try {
      await page.goto(String(created.onboardingUrl));
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Configure sua loja');
      await expectAccessible(page, 'form');

      // The platform's validation: a CEP without coverage and no service chosen.
      allowConsoleErrors(
        page,
        /status of 400 .*\/onboarding\//,
        'the form is sent wrong on purpose: the page answers 400 with its errors, and the browser logs the status',
      );
      await page.getByLabel('CEP de origem').fill('00500-000');
      await page.getByRole('button', { name: 'Concluir configuração' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toMatch(/não tem cobertura/);
      expect(await page.getByRole('alert').textContent()).toMatch(/pelo menos um serviço/);
      expect(await page.getByLabel('CEP de origem').getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page, 'errors');
      expect((await merchantStatus(merchantId)).status).toBe('pending');

      await page.getByLabel('CEP de origem').fill('69005-040');
      await page.getByLabel('PAC (03298)').check();
      await page.getByLabel('SEDEX (03220)').check();
      await page.getByLabel('Ativar o plano agora').check();
      await page.getByLabel('A loja tem contrato próprio').check();
      await page.getByLabel('Número do contrato').fill('9912345678');
      await page.getByLabel('Código de acesso do contrato').fill('codigo-secreto');
      await page.getByLabel('Ativar a integração de etiquetas').check();
      await page.getByRole('button', { name: 'Concluir configuração' }).click();
      await page.getByRole('heading', { name: 'Loja configurada' }).waitFor();
      await expectAccessible(page, 'keys');
      const publicKey = String(await page.locator('#public-key').textContent());
      const secretKey = String(await page.locator('#secret-key').textContent());
      expect(publicKey).toMatch(/^pk_test_/);
      expect(secretKey).toMatch(/^mk_test_/);
      expect(scripts).toEqual([]);

      // Back on the page: the keys are not shown again.
      await page.goto(String(created.onboardingUrl));
      expect(await page.content()).not.toContain(secretKey);

      const active = await merchantStatus(merchantId);
      expect(active).toEqual({
        merchantId,
        status: 'active',
        steps: { originCep: true, services: true, plan: true, carrierContract: true, labels: true },
        publicKey,
      });

      // The onboarding page itself may not fetch (CSP default-src 'none'): quote from another page.
      await page.goto(`${sandbox.url}/openapi.json`);
      // The new pk_ quotes from the browser and from Manaus, the origin chosen above: closer is cheaper.
      const quote = async (cep: string) =>
        RatesResponseSchema.parse(
          await page.evaluate(
            async ([url, key, destinationCep]) => {
              const res = await fetch(`${url}/v1/rates`, {
                method: 'POST',
                headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
                body: JSON.stringify({
                  destinationCep,
                  items: [{ name: 'Açaí', quantity: 1, unitPriceBRL: 40 }],
                }),
              });
              return res.json();
            },
            [sandbox.url, publicKey, cep] as const,
          ),
        ).rates;
      const near = await quote('69005-040');
      const far = await quote('90010-000');
      expect(near.map((rate) => rate.code).sort()).toEqual(['PAC', 'SEDEX']);
      const pac = (rates: typeof near) => rates.find((rate) => rate.code === 'PAC')?.price ?? 0;
      expect(pac(near)).toBeLessThan(pac(far));
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the new mk_ tracks and issues a label that tracks', async () => {
    // A second merchant, onboarded by a plain form post, keeps this test independent of the one above.
    const created = CreateMerchantOutputSchema.parse(
      (await callTool(partner, 'create_merchant', { name: 'Loja Dois', email: 'dois@loja.example' }))
        .structuredContent,
    );
    const form = new URLSearchParams({
      originCep: '69005-040',
      services: '03298',
      plan: 'ativo',
      contract: 'proprio',
      contractNumber: '9912345678',
      accessCode: 'x',
      labels: 'sim',
    });
    const html = await (await fetch(String(created.onboardingUrl), { method: 'POST', body: form })).text();
    const secretKey = String(/id="secret-key">(mk_test_[0-9a-f]+)</.exec(html)?.[1]);
    const tracking = await sandbox.post('/v1/tracking', { codes: ['SW371675211BR'] }, secretKey);
    expect(TrackingResponseSchema.parse(await tracking.json()).results[0]?.found).toBe(true);
    const store = await connectMcp(`${sandbox.url}/mcp`, { authorization: `Bearer ${secretKey}` });
    try {
      const label = LabelRecordSchema.parse(
        (
          await callTool(store, 'generate_label', {
            ...SAMPLE_LABEL,
            sender: samplePartyAt('69005-040', 'AM', 'Manaus'),
          })
        ).structuredContent,
      );
      expect(label.prepostagemId).toMatch(/^PP/);
      expect(Buffer.from(String(label.labelPdfBase64), 'base64').subarray(0, 5).toString()).toBe('%PDF-');
      const tracked = await callTool(store, 'track_shipment', { codes: [label.trackingCode] });
      expect(TrackingResponseSchema.parse(tracked.structuredContent).results[0]).toMatchObject({
        found: true,
        delivered: false,
      });
    } finally {
      await store.close();
    }
  }, 60_000);
});
