import { PDFDocument } from 'pdf-lib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAgent } from '../../bff/labels/testing/soak.ts';
import { type RunningBff, startBff } from '../../bff/testing.ts';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { AgentLabelOutputSchema } from '../../shared/labels/agent-label.ts';
import { approvedTokens } from '../../shared/oauth/testing/suite.ts';
import { type PostgresServer, startPostgres } from '../../testing/servers.ts';
import { auditLightAndDark, axeOn } from './axe.ts';
import { allowConsoleErrors, launchBrowser, screenshot } from './browser.ts';

const PASSWORD = 'senha-do-lojista-e2e-desk';
const CAREFUL = {
  token: 'agent-careful-e2e-desk-1',
  scopes: ['labels'],
  name: 'agente-cuidadoso',
  approval: 'always',
};
const ENV = {
  BFF_ADMIN_PASSWORD: PASSWORD,
  BFF_AGENT_TOKENS: JSON.stringify([CAREFUL]),
  BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
  BFF_BOXES: JSON.stringify([
    { id: 'M', comprimento: 30, largura: 20, altura: 15, tareGrams: 180, maxWeightGrams: 10000 },
    { id: 'P', comprimento: 20, largura: 15, altura: 10, tareGrams: 90, maxWeightGrams: 5000 },
  ]),
};
/**
 * Waits for what the page shows after a call to the BFF (a busy shared machine can take seconds), then asserts it:
 * nothing is tried twice, the assertion is on the page's final state.
 */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/** A recipient and a sender as the merchant types them into the form. */
const RECIPIENT = {
  nome: 'Joana Pereira',
  logradouro: 'Rua da Assembleia',
  numero: '100',
  bairro: 'Centro',
  cidade: 'Rio de Janeiro',
};
const SENDER = {
  nome: 'Loja Demo Calçados',
  cep: '01310-100',
  logradouro: 'Avenida Paulista',
  numero: '1578',
  bairro: 'Bela Vista',
  cidade: 'São Paulo',
  uf: 'SP',
};

export interface Backend {
  name: string;
  /** PostgreSQL for the ledger, approvals and sessions (BFF_DATABASE_URL), or node:sqlite. */
  postgres: boolean;
  /** The agents' policy form runs once, on node:sqlite. */
  everything: boolean;
}

export const SQLITE: Backend = { name: 'node:sqlite', postgres: false, everything: true };
export const POSTGRES: Backend = { name: 'PostgreSQL', postgres: true, everything: false };

/**
 * What one file of the desk's e2e runs: the flows (issue, settle, approve, the agents' policy form) on a backend, and
 * the axe sweep at some widths. The desk's e2e is three files over this suite (desk, desk-postgres, desk-a11y) so
 * they run beside each other; each file starts its own sandbox, BFF and (for PostgreSQL) database.
 */
export interface DeskSuite {
  flows: boolean;
  sweep: readonly ('desktop' | '375')[];
}

/**
 * How the desk's navigation sits on the page: the rows its links take (they took three at 375 px), whether the
 * current page's link is wholly in sight (on a phone the row scrolls sideways, and opens scrolled to it), and how far
 * the page itself scrolls sideways.
 */
async function navigationLayout(
  page: Page,
): Promise<{ rows: number; currentShown: boolean; pageOverflow: number }> {
  return page.evaluate(() => {
    const list = document.querySelector('nav.sections ul');
    const links = [...document.querySelectorAll('nav.sections a')];
    const current = document.querySelector('nav.sections a[aria-current="page"]');
    const shown = list?.getBoundingClientRect();
    const box = current?.getBoundingClientRect();
    return {
      rows: new Set(links.map((link) => Math.round(link.getBoundingClientRect().top))).size,
      currentShown:
        !current || (!!box && !!shown && box.left >= shown.left - 0.5 && box.right <= shown.right + 0.5),
      pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
    };
  });
}

export function describeDesk(backend: Backend, suite: DeskSuite): void {
  describe(`the label desk in Chromium, on ${backend.name}`, () => {
    let sandbox: RunningSandbox;
    let bff: RunningBff;
    let postgres: PostgresServer | undefined;
    let browser: Browser;

    beforeAll(async () => {
      sandbox = await startSandbox({ labelPdfDelayMs: 0 });
      if (backend.postgres) postgres = await startPostgres();
      const database = postgres ? { BFF_DATABASE_URL: await postgres.createDatabase('desk_e2e') } : {};
      bff = await startBff(sandbox.url, { ...ENV, ...database });
      browser = await launchBrowser();
    }, 90_000);
    afterAll(async () => {
      await browser?.close();
      await bff?.stop();
      await sandbox?.close();
      await postgres?.close();
    });

    /** How many pre-postings the platform holds (its own record, not ours): a duplicate label would show here. */
    const created = async () =>
      ((await (await sandbox.control('prepostings', undefined, 'GET')).json()) as { prepostings: unknown[] })
        .prepostings.length;

    /** A fresh browser (no cookies) at a desk page: the login form first, then that very page. */
    async function openLoggedIn(
      path: string,
      viewport = DESKTOP,
    ): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser.newContext({ locale: 'pt-BR', viewport });
      const page = await context.newPage();
      await page.goto(`${bff.url}${path}`);
      await page.getByLabel('Senha do lojista').fill(PASSWORD);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${bff.url}${path}`);
      return { context, page };
    }

    /** The pages of the PDF at a URL of the desk, fetched with the page's own session. */
    async function pdfPages(page: Page, url: string): Promise<number> {
      const response = await page.request.get(new URL(url, page.url()).href);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('application/pdf');
      return (await PDFDocument.load(await response.body())).getPageCount();
    }

    /** The desk's JSON API called as a script on the page would: the session cookie and the page's CSRF token. */
    async function deskPost(
      page: Page,
      path: string,
      body: unknown,
    ): Promise<{ status: number; body: unknown }> {
      return page.evaluate(
        async ({ path, body }) => {
          const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
          const response = await fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': token },
            body: JSON.stringify(body),
          });
          return { status: response.status, body: await response.json() };
        },
        { path, body },
      );
    }

    /** Fills the issue form's first step: the order and one product line. */
    async function fillOrder(page: Page, orderId: string, line: Record<string, string>): Promise<void> {
      await page.getByLabel('Número do pedido').fill(orderId);
      await page.getByLabel('Produto (SKU ou nome)').fill(line.id ?? '');
      await page.getByLabel('Comprimento (cm)').fill(line.comprimento ?? '');
      await page.getByLabel('Largura (cm)').fill(line.largura ?? '');
      await page.getByLabel('Altura (cm)').fill(line.altura ?? '');
      await page.getByLabel('Peso de uma unidade (g)').fill(line.weightGrams ?? '');
      await page.getByLabel('Quantidade').fill(line.quantity ?? '1');
      await page.getByLabel('Valor de uma unidade (R$)').fill(line.valor ?? '');
    }

    /** Quotes to the recipient's CEP and picks PAC. */
    async function quoteAndPickPac(page: Page, cep = '20040-020'): Promise<void> {
      await page.getByLabel('CEP de destino').fill(cep);
      await page.getByRole('button', { name: 'Cotar o frete' }).click();
      await page.getByRole('radio', { name: /PAC/ }).check();
    }

    /** Fills the recipient and, when the form has no sender yet, the sender. */
    async function fillParties(page: Page): Promise<void> {
      const recipient = page.getByRole('group', { name: 'Destinatário' });
      await recipient.getByLabel('Nome').fill(RECIPIENT.nome);
      await recipient.getByLabel('Logradouro').fill(RECIPIENT.logradouro);
      await recipient.getByLabel('Número').fill(RECIPIENT.numero);
      await recipient.getByLabel('Bairro').fill(RECIPIENT.bairro);
      await recipient.getByLabel('Cidade').fill(RECIPIENT.cidade);
      const sender = page.getByRole('group', { name: 'Remetente' });
      if ((await sender.getByLabel('Nome').inputValue()) === '') {
        await sender.getByLabel('Nome').fill(SENDER.nome);
        await sender.getByLabel('CEP').fill(SENDER.cep);
        await sender.getByLabel('Logradouro').fill(SENDER.logradouro);
        await sender.getByLabel('Número').fill(SENDER.numero);
        await sender.getByLabel('Bairro').fill(SENDER.bairro);
        await sender.getByLabel('Cidade').fill(SENDER.cidade);
        await sender.getByLabel('UF').fill(SENDER.uf);
      }
    }

    const results = (page: Page) => page.locator('[data-results] li');

    if (suite.flows) {
      it('logs in at the page asked for, issues a two-box order from the form (plan → quote → service → two labels) and prints both as one 2-page PDF', async () => {
        const before = await created();
        const { context, page } = await openLoggedIn('/admin/labels/new');
        await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(
          'Emitir etiquetas de um pedido',
        );

        // Two boots, each the size of box M: two volumes.
        await fillOrder(page, 'PED-1041', {
          id: 'bota-couro',
          comprimento: '30',
          largura: '20',
          altura: '15',
          weightGrams: '1200',
          quantity: '2',
          valor: '79.90',
        });
        await page.getByRole('button', { name: 'Escolher as caixas' }).click();
        await poll(() => page.locator('[data-plan-result]').textContent()).toContain(
          'O pedido vai em 2 volumes.',
        );
        // The next step takes the focus, so a screen reader says where the merchant is.
        await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('step-quote');
        await quoteAndPickPac(page);
        // The recipient's UF follows from the quoted CEP.
        expect(await page.getByRole('group', { name: 'Destinatário' }).getByLabel('UF').inputValue()).toBe(
          'RJ',
        );
        await fillParties(page);
        await page.getByLabel('Lembrar este remetente neste navegador').check();
        await page.getByRole('button', { name: 'Emitir 2 etiquetas' }).click();

        await poll(() => page.locator('[data-results-summary]').textContent()).toBe(
          '2 de 2 etiquetas criadas.',
        );
        expect(await results(page).allTextContents()).toEqual([
          expect.stringMatching(/^Volume 1 de 2: criada — pré-postagem PP\w+, rastreio \w+BR\.$/),
          expect.stringMatching(/^Volume 2 de 2: criada — pré-postagem PP\w+, rastreio \w+BR\.$/),
        ]);
        expect(await created()).toBe(before + 2);
        await screenshot(page, `desk-issue-results-${backend.postgres ? 'pg' : 'sqlite'}`);

        // Print both: one PDF, two pages.
        const print = page.getByRole('link', { name: /Imprimir as 2 etiquetas criadas/ });
        expect(await pdfPages(page, String(await print.getAttribute('href')))).toBe(2);

        // The same order again from the form replays both labels: nothing new is created.
        await page.goto(`${bff.url}/admin/labels/new`);
        // The sender the merchant asked this browser to remember (its step is not open yet).
        expect(await page.locator('#sender-nome').inputValue()).toBe(SENDER.nome);
        expect(
          JSON.parse(String(await page.evaluate(() => localStorage.getItem('frete-kit.desk.sender')))),
        ).toMatchObject({
          nome: SENDER.nome,
          'endereco.cep': SENDER.cep,
        });
        await fillOrder(page, 'PED-1041', {
          id: 'bota-couro',
          comprimento: '30',
          largura: '20',
          altura: '15',
          weightGrams: '1200',
          quantity: '2',
          valor: '79.90',
        });
        await page.getByRole('button', { name: 'Escolher as caixas' }).click();
        await quoteAndPickPac(page);
        await fillParties(page);
        await page.getByRole('button', { name: 'Emitir 2 etiquetas' }).click();
        await poll(() => page.locator('[data-results-summary]').textContent()).toBe(
          '2 de 2 etiquetas criadas.',
        );
        expect(await results(page).first().textContent()).toMatch(/já existia/);
        expect(await created()).toBe(before + 2);

        // The ledger lists them, issued by the desk; select both and print them together from the list.
        await page.goto(`${bff.url}/admin/labels?q=ped-1041`);
        const rows = page.locator('table.ledger tbody tr');
        await poll(() => rows.count()).toBe(2);
        expect(await rows.first().textContent()).toContain('Painel');
        await page.getByRole('checkbox', { name: 'Selecionar todas as criadas desta página' }).check();
        const printing = context.waitForEvent('request', (request) =>
          request.url().includes('/admin/api/labels/print'),
        );
        await page.getByRole('button', { name: 'Imprimir 2 selecionadas' }).click();
        expect(await pdfPages(page, (await printing).url())).toBe(2);
        // Reprint one.
        const reprint = rows.first().getByRole('link', { name: /^Reimprimir/ });
        expect(await pdfPages(page, String(await reprint.getAttribute('href')))).toBe(1);
        expect(await created()).toBe(before + 2);
        await context.close();
      }, 90_000);

      it('settles a lost answer as "nothing was created" in the browser, after which the desk sends it again', async () => {
        const { context, page } = await openLoggedIn('/admin/labels/new');
        await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset', times: 1 });
        const before = await created();
        await fillOrder(page, 'PED-1042', {
          id: 'cinto',
          comprimento: '18',
          largura: '12',
          altura: '5',
          weightGrams: '300',
          valor: '59.90',
        });
        await page.getByRole('button', { name: 'Escolher as caixas' }).click();
        await quoteAndPickPac(page, '20040-020');
        await fillParties(page);
        await page.getByRole('button', { name: 'Emitir 1 etiqueta' }).click();
        await poll(() => results(page).first().textContent()).toMatch(/a resposta se perdeu no caminho/);
        await results(page).first().getByRole('link', { name: 'Abrir a etiqueta' }).click();

        await poll(() => page.locator('.state').first().textContent()).toBe('Desconhecida');
        await poll(() => page.getByRole('heading', { name: 'Histórico da plataforma' }).count()).toBe(1);
        // The picture shows the page as the merchant acts on it: its buttons are disabled until the script mounts.
        await page.locator('body[data-mounted]').waitFor({ state: 'attached' });
        await screenshot(page, `desk-attempt-unknown-${backend.postgres ? 'pg' : 'sqlite'}`);
        // The decision needs the merchant to say they checked.
        await page.getByRole('button', { name: 'Nada foi criado' }).click();
        expect(
          await page.locator('#not-created-confirm').evaluate((box: HTMLInputElement) => box.validity.valid),
        ).toBe(false);
        await page.getByLabel(/Conferi no painel da transportadora/).check();
        await page.getByRole('button', { name: 'Nada foi criado' }).click();
        await poll(() => page.locator('#notice').textContent()).toMatch(/^Decidido: nada foi criado\./);
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('notice');
        expect(await page.locator('.state').first().textContent()).toBe('Não enviada');

        await page.getByRole('button', { name: 'Enviar de novo' }).click();
        await poll(() => page.locator('#notice').textContent()).toBe(
          'Enviada de novo: veja o resultado abaixo.',
        );
        expect(await page.locator('.state').first().textContent()).toBe('Criada');
        expect(await created()).toBe(before + 1);
        expect(
          await pdfPages(
            page,
            String(await page.getByRole('link', { name: /Reimprimir/ }).getAttribute('href')),
          ),
        ).toBe(1);
        await context.close();
      }, 90_000);

      it('binds an ambiguous lost answer to the pre-posting the merchant picks in the platform’s history, with one click', async () => {
        const { context, page } = await openLoggedIn('/admin/labels');
        // Another client sent the identical request first; then the desk's answer was lost: two matches, no guess.
        const request = {
          ...SAMPLE_LABEL,
          recipient: {
            ...SAMPLE_LABEL.recipient,
            endereco: { ...SAMPLE_LABEL.recipient.endereco, numero: '777' },
          },
        };
        const other = await connectAgent(sandbox.url, 'mk_test_demo');
        await other.callTool({ name: 'generate_label', arguments: request });
        await other.close();
        await sandbox.control('faults', {
          target: 'mcp:generate_label',
          mode: 'drop_after_commit',
          times: 1,
        });
        const lost = AgentLabelOutputSchema.parse((await deskPost(page, '/admin/api/labels', request)).body);
        expect(lost.reason).toBe('outcome_unknown');

        await page.goto(`${bff.url}/admin/labels?state=unknown`);
        await page.locator(`a[href="/admin/labels/${lost.attemptId}"]`).click();
        const ours = page.getByRole('button', { name: /^Esta pré-postagem é nossa/ });
        await poll(() => ours.count()).toBe(2);
        // The buttons are disabled until the desk's script gives them their action, so the click below waits for it
        // (a busy CI run once clicked first, and no decision came): e2e/desk-mount.test.ts.
        expect(
          await page
            .getByText('Mais de uma tentativa da plataforma tem exatamente este pedido', { exact: false })
            .count(),
        ).toBe(1);
        const chosen = String(await ours.nth(1).getAttribute('data-resolve-created'));
        const before = await created();
        await ours.nth(1).click();
        await poll(() => page.locator('#notice').textContent()).toBe(
          `Decidido: esta etiqueta é a pré-postagem ${chosen}. Já pode ser impressa, e quem pedir de novo recebe esta mesma etiqueta.`,
        );
        expect(await page.locator('.state').first().textContent()).toBe('Criada');
        // Asking again answers that label; nothing new is sent.
        const again = AgentLabelOutputSchema.parse((await deskPost(page, '/admin/api/labels', request)).body);
        expect(again.prepostagemId).toBe(chosen);
        expect(await created()).toBe(before);
        await context.close();
      }, 90_000);

      it('shows an agent’s pending labels in full, approves one (issued once, and the agent gets it) and rejects another', async () => {
        const agent = await connectAgent(bff.url, CAREFUL.token);
        const ask = (orderId: string) =>
          agent.callTool({
            name: 'generate_label',
            arguments: { ...SAMPLE_LABEL, orderId, volume: 1 },
          });
        expect((await ask('PED-1043')).structuredContent).toMatchObject({
          reason: 'approval_pending',
        });
        expect((await ask('PED-1044')).structuredContent).toMatchObject({
          reason: 'approval_pending',
        });

        const { context, page } = await openLoggedIn('/admin/approvals');
        const approveCard = page.locator('li.card', { hasText: 'PED-1043' });
        const text = String(await approveCard.textContent());
        for (const shown of [
          'Maria Silva',
          'Rio de Janeiro/RJ',
          'PAC 03298',
          '800 g',
          'Valor declarado',
          'R$',
          'Custo da etiqueta',
          'agente-cuidadoso',
          'Expira em',
        ]) {
          expect(text).toContain(shown);
        }
        expect(await page.locator('nav.sections .badge').textContent()).toMatch(/^2/);
        await screenshot(page, `desk-approvals-pending-${backend.postgres ? 'pg' : 'sqlite'}`);
        const before = await created();
        await approveCard.getByRole('button', { name: /^Aprovar e emitir/ }).click();
        await poll(() => page.locator('#notice').textContent()).toMatch(
          /^Aprovada: etiqueta emitida \(pré-postagem PP\w+\)\.$/,
        );
        const prepostagemId = /(PP\w+)/.exec(String(await page.locator('#notice').textContent()))?.[1];
        expect(await created()).toBe(before + 1);
        await page
          .locator('li.card', { hasText: 'PED-1044' })
          .getByRole('button', { name: /^Recusar/ })
          .click();
        await poll(() => page.locator('#notice').textContent()).toMatch(/^Recusada/);
        expect(await page.getByText('Nenhuma etiqueta esperando a sua decisão.').count()).toBe(1);
        expect(await page.locator('table tbody tr').count()).toBe(2);

        expect((await ask('PED-1043')).structuredContent).toMatchObject({ prepostagemId });
        expect((await ask('PED-1044')).structuredContent).toMatchObject({
          reason: 'approval_rejected',
        });
        expect(await created()).toBe(before + 1);
        await agent.close();
        await context.close();
      }, 90_000);

      it.runIf(backend.everything)(
        'saves an OAuth client’s policy from /admin/agents, which its next label obeys',
        async () => {
          const tokens = await approvedTokens({
            origin: () => bff.url,
            credentials: { password: PASSWORD },
            wrongCredentials: { password: 'x' },
            consentScopes: ['labels'],
            scopesSupported: ['rates', 'tracking', 'labels'],
            advance: () => {},
          });
          const { context, page } = await openLoggedIn('/admin/agents');
          await page.getByText('Política de Cliente manual').click();
          await page.getByLabel('Etiquetas por dia').fill('3');
          await page.getByRole('checkbox', { name: 'correios-pac' }).check();
          await page.getByLabel('Quando o valor declarado passar de').check();
          await page.getByLabel('Valor (R$)').fill('500');
          await page.getByRole('button', { name: 'Salvar política' }).click();
          await poll(() => page.locator('[data-policy-status]').textContent()).toBe('Política salva.');
          const [client] = (await bff.oauth?.store.listClients()) ?? [];
          expect(JSON.parse(client?.policy ?? 'null')).toEqual({
            maxLabelsPerDay: 3,
            services: ['correios-pac'],
            approval: 500,
          });
          // The page shows it again as saved.
          await page.reload();
          await page.getByText('Política de Cliente manual').click();
          expect(await page.getByLabel('Etiquetas por dia').inputValue()).toBe('3');
          expect(await page.getByLabel('Valor (R$)').inputValue()).toBe('500');
          // Its next label on another service is refused, nothing sent.
          const before = await created();
          const agent = await connectAgent(bff.url, tokens.access);
          const { serviceCode: _pac, ...request } = SAMPLE_LABEL;
          const sedex = await agent.callTool({
            name: 'generate_label',
            arguments: { ...request, serviceId: 'correios-sedex' },
          });
          expect(sedex.structuredContent).toMatchObject({ reason: 'agent_limit_reached', limit: 'services' });
          expect(await created()).toBe(before);
          await agent.close();
          await context.close();
        },
        60_000,
      );
    }

    /**
     * What the axe sweep needs beyond the flows above, made once: an unknown attempt left open (its page has the
     * history and the decision), an agent's pending approval, and a created label.
     */
    let sweepData: Promise<{ unknownId: string; createdId: string }> | undefined;
    const sweepSetup = () => {
      sweepData ??= (async () => {
        // One unknown attempt left open, so its page (history and decision) is swept too.
        const { context: setup, page: setupPage } = await openLoggedIn('/admin/labels');
        await sandbox.control('faults', { target: 'mcp:generate_label', mode: 'reset', times: 1 });
        const unknown = AgentLabelOutputSchema.parse(
          (
            await deskPost(setupPage, '/admin/api/labels', {
              ...SAMPLE_LABEL,
              recipient: { ...SAMPLE_LABEL.recipient, nome: 'Carlos Souza' },
            })
          ).body,
        );
        const agent = await connectAgent(bff.url, CAREFUL.token);
        await agent.callTool({
          name: 'generate_label',
          arguments: { ...SAMPLE_LABEL, orderId: 'PED-1045' },
        });
        await agent.close();
        const createdRows = async () =>
          (
            (await (
              await setupPage.request.get(`${bff.url}/admin/api/labels?state=created&limit=1`)
            ).json()) as {
              labels: { attemptId: string }[];
            }
          ).labels;
        // Run alone (desk-a11y.test.ts), the flows made no label and no OAuth client: the sweep makes its own.
        if ((await createdRows()).length === 0)
          await deskPost(setupPage, '/admin/api/labels', { ...SAMPLE_LABEL, orderId: 'PED-1048' });
        const [createdRow] = await createdRows();
        if (((await bff.oauth?.store.listClients()) ?? []).length === 0)
          await approvedTokens({
            origin: () => bff.url,
            credentials: { password: PASSWORD },
            wrongCredentials: { password: 'x' },
            consentScopes: ['labels'],
            scopesSupported: ['rates', 'tracking', 'labels'],
            advance: () => {},
          });
        await setup.close();

        return { unknownId: String(unknown.attemptId), createdId: String(createdRow?.attemptId) };
      })();
      return sweepData;
    };

    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['375', PHONE],
    ] as const) {
      if (!suite.sweep.includes(size)) continue;
      // One page and state a test, light and dark (issue 50: never four audits in one test), on one logged-in page
      // that goes on from test to test.
      describe(`axe on every desk page and state, light and dark, at ${size === '375' ? '375 px' : 'desktop width'}`, () => {
        let ids: { unknownId: string; createdId: string };
        let context: BrowserContext;
        let page: Page;
        beforeAll(async () => {
          ids = await sweepSetup();
          ({ context, page } = await openLoggedIn('/admin/labels', viewport));
        }, 90_000);
        afterAll(async () => {
          await context?.close();
        });
        const sweep = (state: string) =>
          auditLightAndDark(
            page,
            `${state} ${size}`,
            (colorScheme) => `desk-${state}-${colorScheme}-${size}`,
          );

        it('reports an input without a label (the instrument first)', async () => {
          await page.evaluate(() => document.querySelector('main')?.append(document.createElement('input')));
          expect((await axeOn(page).analyze()).violations.map((v) => v.id)).toContain('label');
        }, 60_000);

        const pages: {
          name: string;
          path: (made: { unknownId: string; createdId: string }) => string;
          ready?: (page: Page) => Promise<void>;
        }[] = [
          { name: 'labels', path: () => '/admin/labels' },
          { name: 'labels-en', path: () => '/admin/labels?lang=en' },
          { name: 'labels-es', path: () => '/admin/labels?lang=es' },
          { name: 'labels-empty-search', path: () => '/admin/labels?q=nada-disso&lang=pt-BR' },
          { name: 'attempt-created', path: ({ createdId }) => `/admin/labels/${createdId}` },
          { name: 'attempt-unknown', path: ({ unknownId }) => `/admin/labels/${unknownId}` },
          {
            name: 'attempt-unknown-forced',
            path: ({ unknownId }) => `/admin/labels/${unknownId}`,
            ready: async (page) => {
              await page.getByText('A pré-postagem não aparece no histórico').click();
            },
          },
          { name: 'approvals', path: () => '/admin/approvals' },
          {
            name: 'agents',
            path: () => '/admin/agents',
            ready: async (page) => {
              await page.getByText('Política de Cliente manual').click();
            },
          },
          { name: 'issue', path: () => '/admin/labels/new' },
          { name: 'notifications', path: () => '/admin/notifications' },
          { name: 'privacy', path: () => '/admin/privacy' },
          { name: 'rules', path: () => '/admin/rules' },
        ];
        for (const { name, path, ready } of pages) {
          it(`${name}: one row of navigation, the current link in sight, no sideways scroll, no violation`, async () => {
            await page.goto(`${bff.url}${path(ids)}`);
            await ready?.(page);
            expect({ name, ...(await navigationLayout(page)) }).toEqual({
              name,
              rows: 1,
              currentShown: true,
              pageOverflow: 0,
            });
            await sweep(name);
          }, 60_000);
        }

        // The issue form in each of its states: planned, quoted, issued, and a refusal (each test goes on from the last).
        it('issue form, planned', async () => {
          await page.goto(`${bff.url}/admin/labels/new?lang=pt-BR`);
          await fillOrder(page, size === 'desktop' ? 'PED-1046' : 'PED-1047', {
            id: 'camiseta',
            comprimento: '25',
            largura: '18',
            altura: '4',
            weightGrams: '250',
            quantity: '3',
            valor: '49.90',
          });
          await page.getByRole('button', { name: 'Escolher as caixas' }).click();
          await poll(() => page.locator('[data-plan-result] li').count()).toBe(1);
          await sweep('issue-planned');
        }, 60_000);
        it('issue form, quoted', async () => {
          await quoteAndPickPac(page);
          await sweep('issue-quoted');
        }, 60_000);
        it('issue form, issued', async () => {
          await fillParties(page);
          await page.getByRole('button', { name: 'Emitir 1 etiqueta' }).click();
          await poll(() => page.locator('[data-results-summary]').textContent()).toBe(
            '1 de 1 etiqueta criada.',
          );
          await sweep('issue-results');
        }, 60_000);
        it('issue form, refused: the same order and box with another recipient, before anything is sent', async () => {
          allowConsoleErrors(
            page,
            /status of 422 .*\/admin\/api\/labels\)$/,
            'the same order and volume for another recipient is refused on purpose (422): the browser logs the status, the page says why',
          );
          await page.getByRole('group', { name: 'Destinatário' }).getByLabel('Nome').fill('Outra Pessoa');
          await page.getByRole('button', { name: 'Emitir 1 etiqueta' }).click();
          await poll(() => results(page).first().textContent()).toMatch(
            /recusada — este pedido e volume já têm/,
          );
          await sweep('issue-refused');
        }, 60_000);

        it('login form (a fresh browser)', async () => {
          const fresh = await browser.newContext({ locale: 'pt-BR', viewport });
          const login = await fresh.newPage();
          await login.goto(`${bff.url}/admin/approvals`);
          await auditLightAndDark(
            login,
            `login ${size}`,
            (colorScheme) => `desk-login-${colorScheme}-${size}`,
          );
          await fresh.close();
        }, 60_000);
      });
    }
  });
}
