import AxeBuilder from '@axe-core/playwright';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { connectHost, merchantToken, modelTools } from '../bff/mcp/apps/testing.ts';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../sandbox/testing.ts';
import { DeliveryPromiseSchema } from '../shared/delivery-promise.ts';
import { AgentLabelOutputSchema } from '../shared/labels/agent-label.ts';
import { arrivalText } from '../shared/promise-text.ts';
import { AppsHost, type RenderedApp, type Rendering } from './support/apps-host.ts';
import { allowConsoleErrors, launchBrowser, screenshot } from './support/browser.ts';

const PASSWORD = 'senha-do-lojista-e2e-apps';
/**
 * The merchant's agent, whose labels only the merchant's click issues: an OAuth connection the merchant granted, with
 * `issue: "app"` on /admin/agents (a static token's labels wait for the desk instead: bff/mcp/apps/static-tokens.test.ts).
 */
const CLICK_POLICY = { issue: 'app' } as const;
const LABEL = {
  ...SAMPLE_LABEL,
  serviceCode: undefined,
  serviceId: 'correios-pac',
  recipient: {
    nome: 'Joana <b>Pereira</b>',
    endereco: {
      cep: '20040-020',
      logradouro: 'Rua da Assembleia',
      numero: '100',
      bairro: 'Centro',
      cidade: 'Rio de Janeiro',
      uf: 'RJ',
    },
  },
  declaredItems: [
    { conteudo: 'Camiseta', quantidade: 2, valor: 79.9 },
    { conteudo: 'Boné', quantidade: 1, valor: 49.9 },
  ],
};
const WIDTHS = [360, 600] as const;
const THEMES = ['light', 'dark'] as const;

let sandbox: RunningSandbox;
let bff: RunningBff;
let browser: Browser;
let client: Client;
let tools: Tool[];
let host: AppsHost;
let context: BrowserContext;

beforeAll(async () => {
  [sandbox, browser] = await Promise.all([startSandbox({ labelPdfDelayMs: 0 }), launchBrowser()]);
  bff = await startBff(sandbox.url, {
    BFF_ADMIN_PASSWORD: PASSWORD,
    BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
    BFF_BOXES: JSON.stringify([
      { id: 'M', comprimento: 30, largura: 20, altura: 15, tareGrams: 180, maxWeightGrams: 10000 },
      { id: 'P', comprimento: 20, largura: 15, altura: 10, tareGrams: 90, maxWeightGrams: 5000 },
    ]),
  });
  const access = await merchantToken(
    bff.url,
    PASSWORD,
    { store: bff.backends.oauth as NonNullable<typeof bff.backends.oauth>, set: CLICK_POLICY },
    ['rates', 'labels'],
  );
  ({ client } = await connectHost(`${bff.url}/mcp`, access));
  ({ tools } = await client.listTools());
  host = new AppsHost(client);
  await host.start();
}, 90_000);
afterAll(async () => {
  await client?.close();
  await host?.stop();
  await browser?.close();
  await bff?.stop();
  await sandbox?.close();
});
beforeEach(async () => {
  context = await browser.newContext();
});
afterEach(async () => {
  await context.close();
});

const tool = (name: string) => {
  const found = tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};
const call = async (name: string, args: Record<string, unknown>, on = client) =>
  (await on.callTool({ name, arguments: args })) as CallToolResult;
type Prepostings = { prepostings: { prepostagemId: string; trackingCode: string }[] };
/** The platform's pre-postings (orderId never reaches the platform: the ledger ties them to orders). */
const prepostings = async () =>
  ((await (await sandbox.control('prepostings', undefined, 'GET')).json()) as Prepostings).prepostings;
const attemptsOf = async (orderId: string) =>
  (await bff.backends.ledger.list({})).filter((attempt) => attempt.orderId === orderId);

/** axe on the host page and the app inside it: no violation. */
async function expectAccessible(app: RenderedApp): Promise<void> {
  const { violations } = await new AxeBuilder({ page: app.page }).analyze();
  expect(
    violations.map((violation) => `${violation.id}: ${violation.nodes.map((n) => n.target).join(' ')}`),
  ).toEqual([]);
}

/**
 * Renders `rendering` in light and dark: axe clean at the narrow width, and a screenshot at each host width under
 * e2e/artifacts/ (the frame widened in place, as a host's panel is).
 */
async function sweep(
  name: string,
  rendering: Omit<Rendering, 'theme' | 'width'>,
  ready: string,
): Promise<void> {
  for (const theme of THEMES) {
    const app = await host.render(context, { ...rendering, theme, width: WIDTHS[0] });
    await expect.poll(() => app.frame.getByText(ready).first().isVisible()).toBe(true);
    await expectAccessible(app);
    for (const width of WIDTHS) {
      await app.page.setViewportSize({ width: width + 40, height: 900 });
      await app.page.evaluate((w) => {
        (document.getElementById('view') as HTMLElement).style.width = `${w}px`;
      }, width);
      await expect.poll(() => app.frame.locator('html').evaluate((html) => html.clientWidth)).toBe(width);
      await screenshot(app.page, `mcp-app-${name}-${theme}-${width}`);
    }
    await app.page.close();
  }
}

describe('a host with MCP Apps, played by the SDK client, ext-apps’ AppBridge and Chromium', () => {
  it('never hands the model the app-only tool', () => {
    const names = modelTools(tools).map((candidate) => candidate.name);
    expect(names).toContain('generate_label');
    expect(names).not.toContain('app_issue_label');
    expect(tools.map((candidate) => candidate.name)).toContain('app_issue_label');
  });

  it('shows the pending label with its price; one click issues exactly one label, and a second click, a replayed message or a reload nothing more', async () => {
    const input = { ...LABEL, orderId: 'APP-1' };
    const before = (await prepostings()).length;
    /** The pre-postings made since the test began. */
    const made = async () => (await prepostings()).slice(before);
    // The model's generate_label: nothing reaches the platform.
    const pending = await call('generate_label', input);
    expect(pending.structuredContent).toMatchObject({ reason: 'approval_pending' });
    expect(await made()).toHaveLength(0);

    const app = await host.render(context, {
      tool: tool('generate_label'),
      input,
      result: pending,
      theme: 'light',
      width: 360,
    });
    const { frame } = app;
    // Text from the agent is text: the recipient's name shows its markup as characters.
    await expect.poll(() => frame.getByText('Joana <b>Pereira</b>').isVisible()).toBe(true);
    await expect.poll(() => frame.locator('.facts .price').textContent()).toMatch(/^R\$\s\d+,\d\d$/);
    await expect.poll(() => frame.getByText('Só é emitida com o seu clique').isVisible()).toBe(true);
    await screenshot(app.page, 'mcp-app-preview-pending-light-360');

    await frame.getByRole('button', { name: 'Emitir etiqueta' }).dblclick();
    await expect.poll(() => frame.getByRole('status').textContent()).toMatch(/^Etiqueta emitida: \w+/);
    await screenshot(app.page, 'mcp-app-preview-issued-light-360');
    const [label] = await made();
    expect(await made()).toHaveLength(1);
    expect((await attemptsOf('APP-1')).map((attempt) => [attempt.state, attempt.prepostagemId])).toEqual([
      ['created', label?.prepostagemId],
    ]);

    // The view's tools/call, replayed on the bridge as is: answered with the same label, nothing sent.
    const click = CallToolRequestSchema.parse(
      app.transport.fromView.find((message) => 'method' in message && message.method === 'tools/call'),
    );
    expect(click.params.name).toBe('app_issue_label');
    const replayed = await client.callTool(click.params);
    expect(AgentLabelOutputSchema.parse(replayed.structuredContent).prepostagemId).toBe(label?.prepostagemId);
    app.transport.deliver({ ...click, jsonrpc: '2.0', id: 999 });

    // A reload: the host renders the same result again; its click answers the label already issued.
    const again = await host.render(context, {
      tool: tool('generate_label'),
      input,
      result: pending,
      theme: 'dark',
      width: 600,
    });
    await again.frame.getByRole('button', { name: 'Emitir etiqueta' }).click();
    await expect
      .poll(() => again.frame.getByRole('status').textContent())
      .toBe(`Etiqueta emitida: ${label?.trackingCode}`);
    expect(await made()).toHaveLength(1);
    expect(await attemptsOf('APP-1')).toHaveLength(1);
  });

  it('keeps the page inside its CSP: no request leaves it, to the host, its own origin or another', async () => {
    const input = { ...LABEL, orderId: 'APP-CSP' };
    const app = await host.render(context, {
      tool: tool('preview_label'),
      input,
      result: await call('preview_label', input),
      theme: 'light',
      width: 360,
    });
    expect(app.csp).toContain("connect-src 'none'");
    allowConsoleErrors(
      app.page,
      /Content Security Policy/,
      'the test probes the CSP on purpose: each fetch and image it tries is blocked, and the browser logs each violation',
    );
    await expect
      .poll(() => app.frame.getByRole('button', { name: 'Emitir etiqueta' }).isVisible())
      .toBe(true);
    const view = app.page.frames().find((frame) => frame.url().includes('/view/'));
    const attempts = await view?.evaluate(async ({ fetch: fetches, image: images }) => {
      const loaded = (url: string) =>
        new Promise<string>((resolve) => {
          const image = new Image();
          image.onload = () => resolve('reached');
          image.onerror = () => resolve('blocked');
          image.src = url;
        });
      const fetched = (url: string) =>
        fetch(url).then(
          () => 'reached',
          () => 'blocked',
        );
      return Promise.all([...fetches.map(fetched), ...images.map(loaded)]);
    }, host.probes());
    expect(attempts).toEqual(['blocked', 'blocked', 'blocked']);
    expect(host.reached).toBe(0);
  });

  // Each renders an app twice and runs axe across its frames (5 s alone; a machine-speed budget, as the
  // calculator's axe tests have, for a stressed run).
  describe('every app, accessible in light and dark, at 360 and 600 px', { timeout: 60_000 }, () => {
    it('quote', async () => {
      const input = {
        destinationCep: '20040-020',
        items: [{ name: 'Camiseta', quantity: 2, unitPriceBRL: 79.9, weightKg: 0.3 }],
      };
      const result = await call('get_shipping_rates', input);
      await sweep('quote', { tool: tool('get_shipping_rates'), input, result }, 'Opções de frete');
      // The host's locale picks the language (shared/locale.ts): Spanish here.
      const spanish = await host.render(context, {
        tool: tool('get_shipping_rates'),
        input,
        result,
        theme: 'light',
        width: 360,
        locale: 'es-AR',
      });
      await expect
        .poll(() => spanish.frame.getByRole('heading', { level: 1 }).textContent())
        .toBe('Opciones de envío');
      expect(await spanish.frame.locator('html').getAttribute('lang')).toBe('es');
      // Each option's promise in the calculator's words (shared/promise-text.ts), from the rate's own dates.
      const quoted = z
        .object({ rates: z.array(z.object({ promise: DeliveryPromiseSchema })) })
        .parse(result.structuredContent);
      const first = quoted.rates[0]?.promise;
      if (!first) throw new Error('no promise');
      expect(await spanish.frame.locator('.option .promise').first().textContent()).toMatch(
        new RegExp(`^${arrivalText(first, 'es')}`),
      );
    });

    it('label preview', async () => {
      const input = { ...LABEL, orderId: 'APP-SWEEP' };
      const result = await call('preview_label', input);
      await sweep('preview', { tool: tool('preview_label'), input, result }, 'Emitir etiqueta');
    });

    it('packing plan', async () => {
      const input = {
        items: [
          { id: 'camiseta', comprimento: 28, largura: 18, altura: 4, weightGrams: 250, quantity: 6 },
          { id: 'tenis', comprimento: 30, largura: 20, altura: 12, weightGrams: 900, quantity: 2 },
        ],
      };
      const result = await call('plan_shipment', input);
      await sweep('plan', { tool: tool('plan_shipment'), input, result }, 'Volume 1: caixa M');
    });

    it('label', async () => {
      const grant = (await call('generate_label', { ...LABEL, orderId: 'APP-LABEL' }))._meta?.[
        'frete-kit/grant'
      ];
      const issued = await call('app_issue_label', { grant });
      const prepostagemId = AgentLabelOutputSchema.parse(issued.structuredContent).prepostagemId;
      const result = await call('get_label_pdf', { prepostagemId });
      await sweep('label', { tool: tool('get_label_pdf'), input: { prepostagemId }, result }, 'Baixar PDF');
    });

    it("approvals, on the merchant's own connection", async () => {
      const access = await merchantToken(bff.url, PASSWORD, {
        store: bff.backends.oauth as NonNullable<typeof bff.backends.oauth>,
        set: { decidesApprovals: true },
      });
      const { client: merchant } = await connectHost(`${bff.url}/mcp`, access);
      try {
        await call('generate_label', { ...LABEL, orderId: 'APP-APPROVE' });
        const show = (await merchant.listTools()).tools.find(
          (candidate) => candidate.name === 'show_approvals',
        );
        if (!show) throw new Error('no show_approvals for the merchant');
        const result = await call('show_approvals', {}, merchant);
        await sweep('approvals', { tool: show, input: {}, result }, 'Aprovar');
      } finally {
        await merchant.close();
      }
    });
  });
});
