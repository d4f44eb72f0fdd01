import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { axeOn } from './axe.ts';
import { allowConsoleErrors, launchBrowser, screenshot } from './browser.ts';
import { type Storefront, startStorefront } from './storefront.ts';

/**
 * `<shipping-calculator>` in Chromium, in two files that run beside each other: the product page and the second
 * script (calculator.test.ts), the cart page, what the checkout holds and the README pictures (calculator-cart.test.ts).
 * Everything a file needs — its sandbox, browser handle, storefronts and hooks — is made inside this function, once per
 * file (a test process runs several files: nothing here is shared between them).
 */
export function describeCalculator(part: 'page' | 'cart'): void {
  /** Tests that run axe in both themes take longer than the default on a shared 2-core machine. */
  const AXE_TIMEOUT_MS = 60_000;

  let sandbox: RunningSandbox;
  let browser: Browser;
  const fronts: Storefront[] = [];
  let context: BrowserContext;
  let page: Page;
  let warnings: string[];
  let cspViolations: string[];

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: { calls: 1000, seconds: 60 } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(fronts.map((front) => front.close()));
    await sandbox?.close();
  });
  beforeEach(async () => {
    await sandbox.control('reset');
    context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 900, height: 900 } });
    page = await context.newPage();
    warnings = [];
    cspViolations = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  });
  afterEach(async () => {
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  async function storefront(publicKey = 'pk_test_demo'): Promise<Storefront> {
    const front = await startStorefront({ apiUrl: sandbox.url, publicKey });
    fronts.push(front);
    return front;
  }

  const cepField = () => page.locator('shipping-calculator input[autocomplete="postal-code"]');
  const results = () => page.locator('shipping-calculator .results');
  const options = () => page.locator('shipping-calculator .option');
  const fieldError = () => page.locator('shipping-calculator [part="error"]');

  async function quote(cep: string): Promise<void> {
    await cepField().fill(cep);
    await cepField().press('Enter');
  }

  async function rateCalls(): Promise<number> {
    const stats = (await (await sandbox.control('stats', undefined, 'GET')).json()) as {
      stores: Record<string, Record<string, number>>;
    };
    return Object.values(stats.stores).reduce((sum, routes) => sum + (routes['POST /v1/rates'] ?? 0), 0);
  }

  /** Everything a shopper can read, the widget's shadow root included. */
  async function visibleText(): Promise<string> {
    return page.evaluate(() => {
      const widget = document.querySelector('shipping-calculator')?.shadowRoot?.textContent ?? '';
      return `${document.body.innerText}\n${widget}`;
    });
  }

  /** Records every shipping-select detail on the page, as a checkout listening to it would receive them. */
  async function recordSelections(): Promise<void> {
    await page.evaluate(() => {
      const w = window as unknown as { selections: unknown[] };
      w.selections = [];
      document.addEventListener('shipping-select', (event) => {
        w.selections.push((event as CustomEvent).detail);
      });
    });
  }

  type Held = {
    cep: string;
    rate: { serviceId: string; label: string; price: number; free?: boolean } | null;
  };

  /** The last shipping-select detail: what the checkout holds now. */
  async function held(): Promise<Held | undefined> {
    return page.evaluate(() => (window as unknown as { selections: Held[] }).selections.at(-1));
  }

  async function selectionCount(): Promise<number> {
    return page.evaluate(() => (window as unknown as { selections: unknown[] }).selections.length);
  }

  /** The option whose radio is checked, as the shopper reads it (undefined when none is). */
  async function checkedOption(): Promise<string | undefined> {
    return page.evaluate(() => {
      const root = document.querySelector('shipping-calculator')?.shadowRoot;
      const radio = root?.querySelector<HTMLInputElement>('input[type=radio]:checked');
      return radio ? (radio.closest('label')?.innerText ?? '') : undefined;
    });
  }

  const brl = (n: number) => `R$\u00a0${n.toFixed(2).replace('.', ',')}`;

  /** axe finds nothing in this state, in the light theme and in the dark one; a screenshot of each is kept. */
  async function expectAccessible(state: string): Promise<void> {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const { violations } = await axeOn(page).analyze();
      expect(
        violations.map(
          (v) => `${state} (${colorScheme}): ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        ),
      ).toEqual([]);
      await screenshot(page, `calculator-${state}${colorScheme === 'dark' ? '-dark' : ''}`);
    }
    await page.emulateMedia({ colorScheme: null });
  }

  /** Records every shipping-rates detail, to read what the platform said (e.g. deliveryDays) beside the screen. */
  async function recordRates(): Promise<void> {
    await page.evaluate(() => {
      const w = window as unknown as { quotes: unknown[] };
      w.quotes = [];
      document.addEventListener('shipping-rates', (event) => w.quotes.push((event as CustomEvent).detail));
    });
  }

  /** The deliveryDays of each option of the last answer, in the order shown (by price, then deadline). */
  async function deliveryDays(): Promise<number[]> {
    return page.evaluate(() => {
      const quotes = (window as unknown as { quotes: { rates: { price: number; deliveryDays: number }[] }[] })
        .quotes;
      const rates = [...(quotes.at(-1)?.rates ?? [])];
      rates.sort((a, b) => a.price - b.price || a.deliveryDays - b.deliveryDays);
      return rates.map((rate) => rate.deliveryDays);
    });
  }

  if (part === 'page')
    describe('<shipping-calculator> on a product page (different origin, strict CSP)', {
      timeout: AXE_TIMEOUT_MS,
    }, () => {
      it('renders before any network call, then shows PAC and SEDEX sorted by price, each with one promise', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await expect.poll(() => cepField().count()).toBe(1);
        expect(await rateCalls()).toBe(0);
        await expectAccessible('idle');
        await quote('20040-020');
        await expect.poll(() => options().count()).toBe(2);
        const texts = await options().allInnerTexts();
        expect(texts[0]).toContain('PAC');
        expect(texts[1]).toContain('SEDEX');
        expect(texts[0]).toMatch(/R\$\s?\d+,\d\d/);
        // the store said when it posts (handling-days, cutoff): the arrival date alone, never "até N dias úteis" beside it
        for (const text of texts) {
          expect(text).toMatch(/Chega até/);
          expect(text).not.toMatch(/dias? úte?is/);
        }
        expect(texts.join(' ')).not.toMatch(/grátis/i);
        await expectAccessible('rates');
      });

      it("promises the carrier's business days alone when the store did not say when it posts", async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await page.locator('shipping-calculator').evaluate((el) => {
          el.removeAttribute('handling-days');
          el.removeAttribute('cutoff');
        });
        await quote('20040-020');
        await expect.poll(() => options().count()).toBe(2);
        for (const text of await options().allInnerTexts()) {
          expect(text).toMatch(/até \d+ dias? úte?is?/);
          expect(text).not.toContain('Chega até');
        }
      });

      it('shows the arrival date in São Paulo business days, the destination state and the way to free shipping', async () => {
        // Friday 2026-11-20 at 15:00 in São Paulo, the shopper's browser in Tokyo: Nov 20 is a national holiday
        // (Consciência Negra), so with handling-days="1" the order is posted on Tuesday 24.
        await page.clock.setFixedTime(new Date('2026-11-20T15:00:00-03:00'));
        const tokyo = await browser.newContext({
          locale: 'pt-BR',
          timezoneId: 'Asia/Tokyo',
          viewport: { width: 900, height: 900 },
        });
        await context.close();
        context = tokyo;
        page = await context.newPage();
        await page.clock.setFixedTime(new Date('2026-11-20T15:00:00-03:00'));
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await recordRates();
        expect(await page.evaluate(() => new Date().getTimezoneOffset())).toBe(-540);
        await quote('01001-000');
        await expect.poll(() => options().count()).toBe(2);
        const texts = await options().allInnerTexts();
        const days = await deliveryDays();
        // posted Tue 24 (Mon 23 is the handling day); n business days later, no weekend or holiday before Dec 25
        const weekdays = ['seg.', 'ter.', 'qua.', 'qui.', 'sex.'];
        for (const [i, text] of texts.entries()) {
          const n = days[i] ?? 0;
          expect(n).toBeGreaterThan(0);
          const date = new Date(Date.UTC(2026, 10, 24));
          for (let left = n; left > 0; ) {
            date.setUTCDate(date.getUTCDate() + 1);
            if (date.getUTCDay() % 6 !== 0) left -= 1;
          }
          const expected = `Chega até ${weekdays[date.getUTCDay() - 1]}, ${String(date.getUTCDate()).padStart(2, '0')}/${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
          expect(text).toContain(expected);
        }
        const shown = await results().innerText();
        expect(shown).toContain('Entrega para SP');
        // R$ 79,90 in the cart, free shipping from R$ 299: a hint, never "Grátis"
        expect(shown).toContain(`Faltam ${brl(219.1)} para frete grátis`);
        expect(shown).not.toContain('Grátis');
        const link = page.locator('shipping-calculator a.cep-search');
        expect(await link.textContent()).toBe('Não sei meu CEP');
        expect(await link.getAttribute('href')).toMatch(/^https:\/\/buscacepinter\.correios\.com\.br\//);
        expect(await link.getAttribute('rel')).toContain('noopener');
        await expectAccessible('arrival-and-progress');
        await page.fill('#quantity', '4');
        await expect.poll(async () => (await options().first().innerText()).includes('Grátis')).toBe(true);
        expect(await results().innerText()).not.toContain('Faltam');
      });

      it('warns the merchant about bad handling-days, cutoff and free-shipping-from, and keeps a cautious date', async () => {
        await page.clock.setFixedTime(new Date('2026-11-23T10:00:00-03:00'));
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await recordRates();
        await page.locator('shipping-calculator').evaluate((el) => {
          el.setAttribute('handling-days', '1.5');
          el.setAttribute('cutoff', '25:00');
          el.setAttribute('free-shipping-from', 'muito');
        });
        await quote('01001-000');
        await expect.poll(() => options().count()).toBe(2);
        const text = warnings.join('\n');
        expect(text).toContain('handling-days');
        expect(text).toContain('cutoff');
        expect(text).toContain('free-shipping-from');
        // 1.5 handling days count as 2 (never earlier): posted Mon 23 + 2 → Wed 25, SEDEX's n days after that
        const sedex = await options().nth(1).innerText();
        const n = (await deliveryDays())[1] ?? 0;
        const expected = ['qui., 26/11', 'sex., 27/11', 'seg., 30/11'][n - 1];
        expect(sedex).toContain(`Chega até ${expected}`);
        expect(await results().innerText()).not.toContain('Faltam');
      });

      it('paints the form as plain HTML first, then Preact adopts those very nodes (nothing replaced)', async () => {
        const front = await storefront();
        // when the element is defined its first frame is not painted yet: keep what it shows then
        await page.addInitScript(() => {
          void customElements.whenDefined('shipping-calculator').then(() => {
            const root = document.querySelector('shipping-calculator')?.shadowRoot;
            (window as unknown as { first: Element[] }).first = [...(root?.querySelectorAll('*') ?? [])];
          });
        });
        await page.goto(`${front.url}product.html`);
        // Masked on the very same input, whether Preact adopted it before the keys (its handler) or after them (it
        // takes what was typed, app.tsx): on a busy machine the second script may come after the typing.
        await cepField().pressSequentially('01310100');
        await expect.poll(() => cepField().inputValue()).toBe('01310-100');
        const kept = await page.evaluate(() => {
          const first = (window as unknown as { first: Element[] }).first;
          const now = [
            ...(document.querySelector('shipping-calculator')?.shadowRoot?.querySelectorAll('*') ?? []),
          ];
          return { first: first.length, now: now.length, same: first.every((node, i) => node === now[i]) };
        });
        expect(kept.first).toBeGreaterThan(10);
        expect(kept).toEqual({ first: kept.first, now: kept.first, same: true });
      });

      it('masks the CEP as 00000-000 with a numeric keyboard and postal-code autocomplete', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await cepField().pressSequentially('01310100');
        // before or after the second script came (the test above)
        await expect.poll(() => cepField().inputValue()).toBe('01310-100');
        expect(await cepField().getAttribute('inputmode')).toBe('numeric');
        expect(await page.locator('shipping-calculator label').first().textContent()).toBe('CEP');
      });

      it('shows "Grátis" for PAC when the cart reaches R$ 299,00 and emits shipping-select', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await quote('20040020');
        await expect.poll(() => options().count()).toBe(2);
        await page.fill('#quantity', '4');
        await expect.poll(async () => (await options().first().innerText()).includes('Grátis')).toBe(true);
        await options().first().click();
        await expect.poll(() => page.locator('#chosen').textContent()).toContain('Correios PAC');
        await expectAccessible('free');
      });

      it('shows the no-coverage message for 00000-100 and nothing that suggests free shipping', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await quote('00000-100');
        await expect.poll(() => results().innerText()).toContain('não entregamos');
        expect(await visibleText()).not.toMatch(/grátis|gratis|free|R\$\s?0,00/i);
        await expectAccessible('no-coverage');
      });

      it('flags an invalid CEP inline, tied by aria-describedby, and sends no request', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await quote('1234');
        const error = page.locator('shipping-calculator .field-error');
        await expect.poll(() => error.textContent()).toContain('CEP válido');
        expect(await cepField().getAttribute('aria-invalid')).toBe('true');
        expect(await cepField().getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
        expect(await rateCalls()).toBe(0);
        await expectAccessible('invalid-cep');
      });

      it('retries 00000-429 with backoff, then says so with a retry button that quotes again', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await quote('00000-429');
        await expect.poll(() => results().innerText(), { timeout: 15_000 }).toContain('Muitas consultas');
        expect(await rateCalls()).toBe(4); // the first call and 3 retries
        await expectAccessible('busy');
        await page.locator('shipping-calculator .retry').click();
        await expect.poll(rateCalls, { timeout: 15_000 }).toBeGreaterThan(4);
      });

      it('retries an injected 502, then the retry button brings the options', async () => {
        await sandbox.control('faults', { target: 'rates', mode: 'error502', times: 4 });
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await quote('20040-020');
        await expect.poll(() => results().innerText(), { timeout: 15_000 }).toContain('Tentar de novo');
        await page.locator('shipping-calculator .retry').click();
        await expect.poll(() => options().count()).toBe(2);
      });

      it('shows "unavailable" for a store without a plan, warns the merchant in the console, never retries', async () => {
        const front = await storefront('pk_test_sem_plano');
        await page.goto(`${front.url}product.html`);
        await quote('20040-020');
        await expect.poll(() => results().innerText()).toContain('indisponível');
        expect(warnings.join('\n')).toContain('subscription_required');
        expect(await rateCalls()).toBe(1);
        expect(await visibleText()).not.toContain('https://app.sandbox.example');
        await expectAccessible('unavailable');
      });

      it('remembers the last CEP, so the next page quotes at once', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await quote('20040-020');
        await expect.poll(() => options().count()).toBe(2);
        await page.goto(`${front.url}cart.html`);
        // filled when the calculator starts (its second script comes after the first paint), then quoted at once
        await expect.poll(() => cepField().inputValue()).toBe('20040-020');
        await expect.poll(() => options().count()).toBe(2);
      });

      it('does not move the page while loading (same height idle, loading and with two options)', async () => {
        // The platform's answer is held until the loading state has been seen and measured: a fixed latency at the
        // sandbox raced the poll, and on a busy machine the answer could come before the poll ever saw aria-busy.
        let answer = () => {};
        const answered = new Promise<void>((resolve) => {
          answer = resolve;
        });
        await page.route('**/v1/rates', async (route) => {
          if (route.request().method() === 'POST') await answered;
          await route.continue();
        });
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        const widget = page.locator('shipping-calculator');
        const idle = (await widget.boundingBox())?.height;
        await quote('20040-020');
        await expect.poll(() => results().getAttribute('aria-busy')).toBe('true');
        const loading = (await widget.boundingBox())?.height;
        answer();
        await expect.poll(() => options().count()).toBe(2);
        const done = (await widget.boundingBox())?.height;
        expect(loading).toBe(idle);
        expect(done).toBe(idle);
      });

      it('says "Frete a partir de" for the lightest variant until a size is chosen, then quotes that size exactly', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product-variants.html`);
        await recordSelections();
        await recordRates();
        const from = page.locator('shipping-calculator [part="from-price"]');
        await quote('20040-020');
        await expect.poll(() => from.textContent()).toMatch(/^Frete a partir de R\$\s\d+,\d\d$/);
        const fromText = await from.textContent();
        // a from-price is not a choice: no options, and the checkout hears nothing of it
        expect(await options().count()).toBe(0);
        expect(await page.locator('shipping-calculator [role=status]').textContent()).toBe(fromText);
        expect(await page.evaluate(() => (window as unknown as { quotes: unknown[] }).quotes)).toEqual([]);
        expect(await selectionCount()).toBe(0);
        await expectAccessible('from-price');
        // the heaviest variant chosen: its exact options, dearer than the from-price
        await page.check('input[name=variant][value="3"]');
        await expect.poll(() => options().count()).toBe(2);
        expect(await from.count()).toBe(0);
        const heaviest = await options().first().locator('[part="option-price"]').textContent();
        expect(`Frete a partir de ${heaviest}`).not.toBe(fromText);
        // the lightest chosen: its cheapest option is the from-price
        await page.check('input[name=variant][value="0"]');
        await expect
          .poll(
            async () =>
              `Frete a partir de ${await options().first().locator('[part="option-price"]').textContent()}`,
          )
          .toBe(fromText);
        await options().first().click();
        await expect.poll(() => page.locator('#chosen').textContent()).toContain('Correios PAC');
      });

      it('says "no quote" for the lightest variant where the platform does not deliver, never free shipping', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product-variants.html`);
        await quote('00000-100');
        await expect.poll(() => results().innerText()).toContain('Ainda não entregamos neste CEP.');
        expect(await page.locator('shipping-calculator [part="from-price"]').count()).toBe(0);
        expect(await visibleText()).not.toMatch(/grátis|gratis|free|a partir|R\$\s?0,00/i);
      });
    });

  if (part === 'page')
    describe('<shipping-calculator>: the second script, loaded after the first paint', () => {
      const APP = '**/widget/shipping-widget-app.*.js';

      /**
       * Holds the second script's response until `release()` (or answers it with `answer` instead). The pages are then
       * awaited to DOMContentLoaded only: a script still loading holds the page's `load` event.
       */
      async function holdApp(answer?: (body: Buffer) => { status: number; body: Buffer }) {
        let release = () => {};
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        let requests = 0;
        await page.route(APP, async (route) => {
          requests += 1;
          await released;
          const response = await route.fetch();
          const body = await response.body();
          const answered = answer?.(body) ?? { status: response.status(), body };
          await route.fulfill({ response, status: answered.status, body: answered.body });
        });
        return { release, requests: () => requests };
      }

      async function errorsHeard(): Promise<unknown[]> {
        return page.evaluate(() => (window as unknown as { heard: unknown[] }).heard);
      }

      // a press after a failure loads the second script again: a route still answering it must not outlive its page
      afterEach(async () => {
        await page.unrouteAll({ behavior: 'ignoreErrors' });
      });

      beforeEach(async () => {
        await page.addInitScript(() => {
          const heard: unknown[] = [];
          (window as unknown as { heard: unknown[] }).heard = heard;
          document.addEventListener('shipping-error', (event) => heard.push((event as CustomEvent).detail));
        });
      });

      it('quotes a CEP typed and sent in the plain form before it came once, with what was typed, busy meanwhile', async () => {
        const front = await storefront();
        const app = await holdApp();
        await page.goto(`${front.url}product.html`, { waitUntil: 'domcontentloaded' });
        await expect.poll(app.requests).toBe(1);
        await cepField().fill('20040020');
        await cepField().press('Enter');
        expect(await rateCalls()).toBe(0);
        expect(await options().count()).toBe(0);
        const button = page.locator('shipping-calculator button[type="submit"]');
        expect(await button.getAttribute('aria-busy')).toBe('true');
        expect(await button.innerText()).toBe('Calculando…');
        app.release();
        await expect.poll(() => options().count()).toBe(2);
        expect(await cepField().inputValue()).toBe('20040-020');
        expect(await rateCalls()).toBe(1);
        expect(await errorsHeard()).toEqual([]);
      });

      it('answers an Enter pressed before it came: a half-typed CEP is called invalid, as it would be after', async () => {
        const front = await storefront();
        const app = await holdApp();
        await page.goto(`${front.url}product.html`, { waitUntil: 'domcontentloaded' });
        await cepField().fill('123');
        await cepField().press('Enter');
        app.release();
        await expect.poll(() => fieldError().innerText()).toBe('Digite um CEP válido com 8 dígitos.');
        expect(await cepField().getAttribute('aria-invalid')).toBe('true');
        expect(await rateCalls()).toBe(0);
      });

      it('loads under a CSP of nonces alone: the second script carries the first one’s nonce', async () => {
        const front = await storefront();
        const nonce = 'bm9uY2UtZm9yLXRoZS10ZXN0';
        await page.route(`${front.url}nonce.html`, (route) =>
          route.fulfill({
            contentType: 'text/html',
            headers: {
              'content-security-policy': `script-src 'nonce-${nonce}'; connect-src ${new URL(sandbox.url).origin}`,
            },
            body: `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>nonce</title></head><body>
<shipping-calculator items='[{"name":"x","quantity":1,"unitPriceBRL":50}]'></shipping-calculator>
<script nonce="${nonce}" src="/widget/shipping-widget.js" data-api-url="${sandbox.url}" data-public-key="pk_test_demo"></script>
</body></html>`,
          }),
        );
        await page.goto(`${front.url}nonce.html`);
        // the calculator started (a page fulfilled by the test may not call the sandbox on 127.0.0.1: Chromium's local
        // network rules): it masks what is typed, which the plain form does not
        await cepField().pressSequentially('01310100');
        await expect.poll(() => cepField().inputValue()).toBe('01310-100');
        expect(await errorsHeard()).toEqual([]);
      });

      it('says the calculator is unavailable when the second script is missing, and quotes nothing', async () => {
        const front = await storefront();
        const errors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        allowConsoleErrors(
          page,
          /404|shipping-calculator:/,
          'the second script is withheld (404): the browser logs the 404, the calculator its line for the developer',
        );
        const app = await holdApp(() => ({ status: 404, body: Buffer.from('not found') }));
        await page.goto(`${front.url}product.html`, { waitUntil: 'domcontentloaded' });
        await cepField().fill('20040020');
        await cepField().press('Enter');
        app.release();
        await expect.poll(() => fieldError().innerText()).toBe('Cálculo de frete indisponível no momento.');
        expect(await fieldError().getAttribute('role')).toBe('alert');
        expect(await errorsHeard()).toEqual([{ code: 'widget_unavailable', message: 'unavailable' }]);
        expect(errors.join('\n')).toMatch(
          /shipping-calculator: could not load .*shipping-widget-app\.[0-9a-f]{12}\.js/,
        );
        expect(await rateCalls()).toBe(0);
        expect(await options().count()).toBe(0);
        expect(await page.locator('#chosen').textContent()).not.toMatch(/R\$/);
      });

      it('tries again when the shopper presses again after it failed to come', async () => {
        const front = await storefront();
        allowConsoleErrors(
          page,
          /503|shipping-calculator:/,
          "the second script's first fetch is refused (503): the browser logs it, the calculator its line for the developer",
        );
        let requests = 0;
        await page.route(APP, async (route) => {
          requests += 1;
          if (requests === 1) await route.fulfill({ status: 503, body: 'busy' });
          else await route.continue();
        });
        await page.goto(`${front.url}product.html`, { waitUntil: 'domcontentloaded' });
        await expect.poll(errorsHeard).toEqual([{ code: 'widget_unavailable', message: 'unavailable' }]);
        await cepField().fill('20040020');
        await cepField().press('Enter');
        await expect.poll(() => options().count()).toBe(2);
        expect(requests).toBe(2);
        expect(await rateCalls()).toBe(1);
      });

      it('refuses a second script whose bytes are not the ones built with the first (integrity)', async () => {
        const front = await storefront();
        allowConsoleErrors(
          page,
          /integrity|shipping-calculator:/,
          "the second script's bytes are changed: the browser refuses its integrity, the calculator says so to the developer",
        );
        // a changed byte in a comment: the code would run as well, but it is not the file the first script names
        const app = await holdApp((body) => ({
          status: 200,
          body: Buffer.concat([body, Buffer.from('\n// x')]),
        }));
        await page.goto(`${front.url}product.html`, { waitUntil: 'domcontentloaded' });
        app.release();
        await expect.poll(errorsHeard).toEqual([{ code: 'widget_unavailable', message: 'unavailable' }]);
        await cepField().fill('20040020');
        await cepField().press('Enter');
        expect(await rateCalls()).toBe(0);
        expect(await options().count()).toBe(0);
      });
    });

  if (part === 'cart')
    describe('<shipping-calculator> on a cart page', { timeout: AXE_TIMEOUT_MS }, () => {
      it('quotes again when the cart changes, from the same CEP', async () => {
        const front = await storefront();
        await page.goto(`${front.url}cart.html`);
        await quote('20040-020');
        await expect.poll(() => options().count()).toBe(2);
        const before = await rateCalls();
        await page.click('#add-mug');
        await expect.poll(rateCalls).toBe(before + 1);
        expect(await options().first().innerText()).not.toContain('Grátis');
        await page.fill('input[aria-label="Quantidade de Camiseta Básica"]', '3');
        await page.press('input[aria-label="Quantidade de Camiseta Básica"]', 'Tab');
        await expect.poll(rateCalls).toBe(before + 2);
        await expect.poll(() => options().first().innerText()).toContain('Grátis');
      });

      it('tells the checkout the new price when removing an item ends free shipping, and the screen agrees', async () => {
        const front = await storefront();
        await page.goto(`${front.url}cart.html`);
        await recordSelections();
        const camiseta = 'input[aria-label="Quantidade de Camiseta Básica"]';
        await page.fill(camiseta, '3');
        await page.press(camiseta, 'Tab');
        await quote('01001-000');
        await expect.poll(() => options().first().innerText()).toContain('Grátis');
        await options().first().click();
        await expect
          .poll(held)
          .toMatchObject({ cep: '01001000', rate: { label: 'Correios PAC', free: true } });
        expect(await page.locator('#chosen').textContent()).toBe(
          'Frete: Correios PAC — grátis, para o CEP 01001-000',
        );
        await screenshot(page, 'calculator-cart-free-chosen');

        await page.click('button[aria-label="Remover Boné"]');
        expect(await page.locator('#subtotal').textContent()).toContain('239,70');
        await expect.poll(async () => (await held())?.rate?.free).not.toBe(true);
        const now = await held();
        expect(now?.rate).toMatchObject({ label: 'Correios PAC', price: 15.9 });
        expect(now?.rate?.free).not.toBe(true);
        expect(await selectionCount()).toBe(2);
        // the screen agrees: PAC still checked, at the price the checkout holds, and the demo checkout shows it
        await expect.poll(checkedOption).toContain(brl(15.9));
        expect(await checkedOption()).toContain('Correios PAC');
        expect(await checkedOption()).not.toContain('Grátis');
        expect(await page.locator('#chosen').textContent()).toBe(
          `Frete: Correios PAC — ${brl(15.9)}, para o CEP 01001-000`,
        );
        await expectAccessible('cart-price-changed');
      });

      it.each([
        ['no coverage (00000-100)', '00000-100', 'não entregamos', 'no-coverage-cleared'],
        [
          'a carrier failure (00000-502)',
          '00000-502',
          'transportadora não respondeu',
          'carrier-failed-cleared',
        ],
      ])('clears the choice with rate: null on %s', async (_, cep, message, state) => {
        const front = await storefront();
        await page.goto(`${front.url}cart.html`);
        await recordSelections();
        await quote('01001-000');
        await expect.poll(() => options().count()).toBe(2);
        await options().nth(1).click();
        await expect.poll(held).toMatchObject({ rate: { label: 'Correios SEDEX' } });
        await quote(cep);
        await expect.poll(() => results().innerText(), { timeout: 15_000 }).toContain(message);
        await expect.poll(held).toEqual({ cep: '01001000', rate: null });
        expect(await page.locator('#chosen').textContent()).toBe('Frete: escolha uma opção acima');
        expect(await checkedOption()).toBeUndefined();
        await expectAccessible(state);
      });

      it('fits a 390-px phone: options, arrival dates, hint and checkout without horizontal scrolling', async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        const front = await storefront();
        await page.goto(`${front.url}cart.html`);
        await quote('01001-000');
        await expect.poll(() => options().count()).toBe(2);
        await options().first().click();
        await expect.poll(() => page.locator('#chosen').textContent()).toContain('Correios PAC');
        expect(await results().innerText()).toContain('Chega até');
        expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(
          false,
        );
        await expectAccessible('mobile');
      });

      it('serves identical quotes from memory: repeated clicks spend no rate limit', async () => {
        const front = await storefront();
        await page.goto(`${front.url}cart.html`);
        await quote('20040-020');
        await expect.poll(() => options().count()).toBe(2);
        const before = await rateCalls();
        for (let i = 0; i < 3; i++) await page.locator('shipping-calculator .button').click();
        await expect.poll(() => options().count()).toBe(2);
        expect(await rateCalls()).toBe(before);
      });

      it('speaks English with lang="en"', async () => {
        await page.clock.setFixedTime(new Date('2026-11-23T10:00:00-03:00'));
        const front = await storefront();
        await page.goto(`${front.url}cart.html`);
        await page.locator('shipping-calculator').evaluate((el) => el.setAttribute('lang', 'en'));
        await quote('20040-020');
        await expect
          .poll(() => options().first().innerText())
          .toMatch(/Arrives by (Mon|Tue|Wed|Thu|Fri), (Nov|Dec) \d+/);
        expect(await options().first().innerText()).not.toMatch(/business days/);
        expect(await results().innerText()).toContain('Delivery to RJ');
        expect(await results().innerText()).toMatch(/R\$[\d.,]+ more for free shipping/);
        await expectAccessible('english');
      });

      it('speaks Spanish with lang="es"', async () => {
        const front = await storefront();
        await page.goto(`${front.url}cart.html`);
        await page.locator('shipping-calculator').evaluate((el) => el.setAttribute('lang', 'es'));
        await page.locator('shipping-calculator').evaluate((el) => el.removeAttribute('handling-days'));
        await page.locator('shipping-calculator').evaluate((el) => el.removeAttribute('cutoff'));
        await quote('20040-020');
        await expect.poll(() => options().first().innerText()).toMatch(/hasta \d+ días hábiles/);
        expect(await options().first().innerText()).not.toMatch(/Llega/);
        await expectAccessible('spanish');
      });
    });

  if (part === 'cart')
    describe('<shipping-calculator>: the checkout holds what the shopper sees chosen, nothing else', {
      timeout: AXE_TIMEOUT_MS,
    }, () => {
      const liveRegion = () => page.locator('shipping-calculator [role=status]');

      it('clears the options and the choice when every cart line is removed: rate: null and "adicione itens"', async () => {
        const front = await storefront();
        await page.goto(`${front.url}cart.html`);
        await recordSelections();
        await quote('30130-010');
        await expect.poll(() => options().count()).toBe(2);
        await options().first().click();
        await expect.poll(held).toMatchObject({ cep: '30130010', rate: { label: 'Correios PAC' } });
        await page.click('button[aria-label="Remover Camiseta Básica"]');
        await page.click('button[aria-label="Remover Boné"]');
        expect(await page.locator('#subtotal').textContent()).toBe(brl(0));
        // at once: no option left to see chosen, so the checkout holds nothing
        await expect.poll(held).toEqual({ cep: '30130010', rate: null });
        expect(await options().count()).toBe(0);
        expect(await checkedOption()).toBeUndefined();
        expect(await results().innerText()).toContain('Adicione itens ao carrinho para calcular o frete.');
        expect(await liveRegion().textContent()).toContain('Adicione itens');
        expect(await page.locator('#chosen').textContent()).toBe('Frete: escolha uma opção acima');
        expect(await visibleText()).not.toContain(brl(21.5));
        // and nothing is asked of the platform for an empty cart
        const calls = await rateCalls();
        await page.waitForTimeout(600);
        expect(await rateCalls()).toBe(calls);
        await expectAccessible('cart-emptied');
        // a new line: quoted again for the CEP in the field, shown unchosen
        await page.click('#add-mug');
        await expect.poll(() => options().count()).toBe(2);
        expect(await checkedOption()).toBeUndefined();
        expect((await held())?.rate).toBeNull();
      });

      it('takes data-items="[]" as an empty cart too', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await recordSelections();
        await quote('20040-020');
        await expect.poll(() => options().count()).toBe(2);
        await options().nth(1).click();
        await expect.poll(held).toMatchObject({ rate: { label: 'Correios SEDEX' } });
        await page.locator('shipping-calculator').evaluate((el) => el.setAttribute('data-items', '[]'));
        await expect.poll(held).toEqual({ cep: '20040020', rate: null });
        expect(await results().innerText()).toContain('Adicione itens');
        expect(
          await page
            .locator('shipping-calculator')
            .evaluate((el) => (el as unknown as { items: unknown }).items),
        ).toEqual([]);
      });

      it('says why "Calcular" does nothing with no items: on screen, to screen readers, once in the console', async () => {
        const front = await storefront();
        await page.goto(`${front.url}cart.html`);
        await page.click('button[aria-label="Remover Camiseta Básica"]');
        await page.click('button[aria-label="Remover Boné"]');
        await quote('01001-000');
        await expect.poll(() => results().innerText()).toContain('Adicione itens ao carrinho');
        expect(await liveRegion().textContent()).toBe('Adicione itens ao carrinho para calcular o frete.');
        await page.locator('shipping-calculator .button').click();
        const said = warnings.filter((text) => text.includes('nothing to quote'));
        expect(said).toHaveLength(1);
        expect(said[0]).toContain('the cart is empty');
        expect(await rateCalls()).toBe(0);
        await expectAccessible('no-items');
      });

      it("hides the old CEP's options and clears the choice as soon as the CEP is edited, until the new quote", async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await recordSelections();
        await quote('69900-000'); // Acre
        await expect.poll(() => options().count()).toBe(2);
        expect(await results().innerText()).toContain('Entrega para AC');
        await options().first().click();
        await expect.poll(held).toMatchObject({ cep: '69900000', rate: { label: 'Correios PAC' } });
        await cepField().press('End');
        await cepField().press('Backspace'); // "69900-00": not a CEP any more
        await expect.poll(held).toEqual({ cep: '69900000', rate: null });
        expect(await options().count()).toBe(0);
        expect(await results().innerText()).not.toContain('Entrega para AC');
        expect(await page.locator('#chosen').textContent()).toBe('Frete: escolha uma opção acima');
        await expectAccessible('cep-edited');
        // an invalid CEP submitted: the field says so, and still no old option comes back
        await cepField().press('Enter');
        await expect
          .poll(() => page.locator('shipping-calculator .field-error').textContent())
          .toContain('CEP');
        expect(await options().count()).toBe(0);
        // another CEP: its own options, none chosen until the shopper chooses
        await quote('20040-020');
        await expect.poll(() => results().innerText()).toContain('Entrega para RJ');
        expect(await checkedOption()).toBeUndefined();
        expect((await held())?.rate).toBeNull();
      });

      it('takes a pasted CEP with a leading space, dots or dashes: cleaned before the 8-digit rule', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        for (const pasted of [' 01310-100', '01.310-100', ' 01310 100 ', 'CEP: 01310-100']) {
          await cepField().fill('');
          await cepField().focus();
          // insertText goes through the browser's editing, as a paste does (a maxlength would cut it here)
          await page.keyboard.insertText(pasted);
          // cleaned by Preact's handler, or when it adopts the field after the paste (a busy machine's second script)
          await expect.poll(() => cepField().inputValue(), { message: pasted }).toBe('01310-100');
        }
        await cepField().press('Enter');
        await expect.poll(() => options().count()).toBe(2);
        expect(await page.locator('shipping-calculator .field-error').textContent()).toBe('');
      });

      it('follows prefers-color-scheme, and data-theme overrides it either way', async () => {
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        const text = () =>
          page.evaluate(() => {
            const label = document.querySelector('shipping-calculator')?.shadowRoot?.querySelector('.label');
            return label ? getComputedStyle(label).color : '';
          });
        const light = 'rgb(31, 35, 40)';
        const dark = 'rgb(230, 237, 243)';
        await page.emulateMedia({ colorScheme: 'light' });
        expect(await text()).toBe(light);
        await page.emulateMedia({ colorScheme: 'dark' });
        expect(await text()).toBe(dark);
        await page.locator('shipping-calculator').evaluate((el) => el.setAttribute('data-theme', 'light'));
        expect(await text()).toBe(light);
        await page.emulateMedia({ colorScheme: 'light' });
        await page.locator('shipping-calculator').evaluate((el) => el.setAttribute('data-theme', 'dark'));
        expect(await text()).toBe(dark);
        // a store's own color wins in both themes
        await page.locator('shipping-calculator').evaluate((el) => {
          (el as HTMLElement).style.setProperty('--shipping-color-text', 'rgb(1, 2, 3)');
        });
        expect(await text()).toBe('rgb(1, 2, 3)');
      });
    });

  if (part === 'cart')
    describe('the README pictures (UPDATE_PICTURES=1 writes them to docs/)', {
      timeout: AXE_TIMEOUT_MS,
    }, () => {
      const target =
        process.env.UPDATE_PICTURES === '1' ? new URL('../../docs/', import.meta.url).pathname : undefined;

      it.each([
        ['light', 900, 'calculator'],
        ['dark', 900, 'calculator-dark'],
        ['light', 375, 'calculator-375'],
        ['dark', 375, 'calculator-375-dark'],
      ] as const)('free PAC chosen on a product page, %s, %i px wide', async (colorScheme, width, name) => {
        await page.clock.setFixedTime(new Date('2026-11-23T10:00:00-03:00'));
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        const front = await storefront();
        await page.goto(`${front.url}product.html`);
        await page.fill('#quantity', '4');
        await quote('20040-020');
        await expect.poll(async () => (await options().first().innerText()).includes('Grátis')).toBe(true);
        await options().first().click();
        await expect.poll(() => page.locator('#chosen').textContent()).toContain('Correios PAC');
        expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(
          false,
        );
        await screenshot(page, `readme-${name}`);
        if (target) await page.screenshot({ path: `${target}${name}.png`, fullPage: true });
      });
    });
}
