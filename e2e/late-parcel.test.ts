import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clocks, issueLabel, orderLabel } from '../bff/notifications/testing/harness.ts';
import { type RunningBff, startBff, TEST_AGENTS } from '../bff/testing.ts';
import { McpClients } from '../sandbox/mcp/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { saoPauloDay } from '../shared/business-days.ts';
import { OrderLookupResponseSchema } from '../shared/order-lookup.ts';
import { SHIPMENT_EVENT_TYPES } from '../shared/shipment-events.ts';
import { TrackShipmentOutputSchema } from '../shared/tracking.ts';
import { TrackingLookupResponseSchema, TrackingLookupResultSchema } from '../shared/tracking-lookup.ts';
import { type SmtpServer, startSmtp } from '../testing/receivers.ts';
import { axeOn } from './support/axe.ts';
import { launchBrowser, screenshot } from './support/browser.ts';

/**
 * One parcel driven past its promise on the test clock (the BFF's and the sandbox's carrier's clocks moved together):
 * on the promise's last day it is on time everywhere; the day after, still on its way, it is late everywhere — the
 * tracking page ("Atrasado", with what to do), `POST /api/tracking`, `POST /api/orders/lookup`, MCP `track_shipment`,
 * and the next e-mail the shopper gets (ARCHITECTURE.md, "One story").
 */
const DAY_MS = 86_400_000;
const clients = new McpClients();
let sandbox: RunningSandbox;
let smtp: SmtpServer;
let bff: RunningBff;
let clocks: Clocks;
let browser: Browser;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  smtp = await startSmtp();
  clocks = new Clocks(sandbox);
  bff = await startBff(
    sandbox.url,
    {
      BFF_SMTP_URL: smtp.url,
      BFF_MAIL_FROM: 'Loja Demo <pedidos@loja-demo.example>',
      BFF_STORE_NAME: 'Loja Demo',
      BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298', 'correios-sedex': '03220' }),
      // Every event e-mails the shopper here, the stall too: the next one after the promise must say late.
      BFF_MAIL_EVENTS: SHIPMENT_EVENT_TYPES.join(','),
    },
    { now: clocks.now, notifications: { timers: false } },
  );
  browser = await launchBrowser();
}, 30_000);
afterAll(async () => {
  await clients.closeAll();
  await browser?.close();
  await bff?.stop();
  await smtp?.close();
  await sandbox?.close();
});

/** Moves both clocks to `instant` in one step, and lets the watcher look once. */
async function jumpTo(instant: number): Promise<void> {
  await clocks.advance((instant - clocks.now()) / 3_600_000);
  await bff.notifications.tick();
}

async function everySurface(code: string, page: Page) {
  const tracked = TrackingLookupResponseSchema.parse(await (await bff.track([code])).json()).results[0];
  const lookup = OrderLookupResponseSchema.parse(
    await (
      await fetch(`${bff.url}/api/orders/lookup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: 'LATE-1', cep: '20040-020' }),
      })
    ).json(),
  ).results[0];
  const client = await clients.connect(`${bff.url}/mcp`, TEST_AGENTS[0]?.token ?? '');
  const called = await clients.call(client, 'track_shipment', { codes: [code] });
  const mcp = TrackingLookupResultSchema.parse(
    TrackShipmentOutputSchema.parse(called.structuredContent).results[0],
  );
  const text = called.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  await page.goto(`${bff.url}/track?codes=${code}`);
  const card = page.locator('shipping-tracking .card').first();
  await expect.poll(() => card.count()).toBe(1);
  return {
    late: [tracked?.late, lookup?.late, mcp.late],
    text,
    badge: await card.locator('.badge').innerText(),
    next: await card.locator('.next').innerText(),
  };
}

describe('a parcel past its promise', () => {
  it('is on time on its last day and late the day after: page, API, order lookup, MCP and the next e-mail agree', async () => {
    const label = await issueLabel(bff.url, orderLabel('LATE-1'));
    const rowOf = async () =>
      (await bff.backends.transits.of([label.attemptId ?? ''])).get(label.attemptId ?? '');
    // The row starts at the first round whose rates call for the platform's count succeeds.
    await expect
      .poll(async () => {
        await bff.notifications.tick();
        return (await rowOf())?.promisedTo;
      })
      .toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await clocks.advance(30);
    await bff.notifications.tick();
    await smtp.waitFor(1); // posted
    // The carrier stops reporting: the parcel stays on its way.
    await sandbox.control(`tracking/${label.trackingCode}`, { scenario: 'stall' });
    const to = (await rowOf())?.promisedTo ?? '';
    const lastDay = Date.parse(`${to}T12:00:00Z`);

    const context = await browser.newContext({ viewport: { width: 375, height: 900 }, locale: 'pt-BR' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    try {
      // 23:00 of the last day, São Paulo: not late yet.
      await jumpTo(saoPauloDay(lastDay).start + 23 * 3_600_000);
      const onTime = await everySurface(label.trackingCode, page);
      expect(onTime.late).toEqual([undefined, undefined, undefined]);
      // On its way, not late: stalled by now (three business days without news), and the page says what the stall
      // e-mail said.
      expect(
        smtp.received.some((mail) => /está sem novidades há alguns dias$/.test(mail.subject ?? '')),
      ).toBe(true);
      expect(onTime.badge).toBe('Sem novidades');
      expect(onTime.next).toBe('A loja já foi avisada e está acompanhando com os Correios.');
      expect(onTime.text).not.toContain('LATE');
      const mailsBefore = smtp.received.length;

      // 01:00 of the next day: late, everywhere.
      await jumpTo(saoPauloDay(lastDay + DAY_MS).start + 3_600_000);
      const late = await everySurface(label.trackingCode, page);
      expect(late.late).toEqual([true, true, true]);
      expect(late.badge).toBe('Atrasado');
      expect(late.next).toContain('Passou da data prevista');
      expect(late.next).toContain('fale com ela');
      expect(late.text).toContain(
        `LATE, still on the way after the promised last day (${label.trackingCode}`,
      );
      const { violations } = await axeOn(page).analyze();
      expect(violations.map((v) => v.id)).toEqual([]);
      await screenshot(page, 'tracking-late-375');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.setViewportSize({ width: 1280, height: 900 });
      expect((await axeOn(page).analyze()).violations.map((v) => v.id)).toEqual([]);
      await screenshot(page, 'tracking-late-desktop-dark');

      // The next e-mail (the stall or the promise's own, whichever the watcher sends first) says late too.
      await bff.notifications.tick();
      const [next] = (await smtp.waitFor(mailsBefore + 1)).slice(mailsBefore);
      expect(next?.subject).toBe('Loja Demo: Seu pedido LATE-1 está atrasado');
      expect(next?.text).toContain('Passou da data prevista.');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
