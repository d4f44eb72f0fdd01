import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/receivers.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { Clocks, issueLabel, orderLabel, WEBHOOK_SECRET } from './testing/harness.ts';

const PASSWORD = 'senha-do-lojista-admin';
let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let bff: RunningBff;
let clocks: Clocks;
let cookie = '';

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  receiver.answer = () => 500;
  clocks = new Clocks(sandbox);
  bff = await startBff(
    sandbox.url,
    { BFF_ADMIN_PASSWORD: PASSWORD, BFF_WEBHOOK_URL: receiver.url, BFF_WEBHOOK_SECRET: WEBHOOK_SECRET },
    { now: clocks.now, notifications: { timers: false } },
  );
  // A webhook that fails: the log has a line in `retrying`.
  await issueLabel(bff.url, orderLabel('PED-DESK-1'));
  await bff.notifications.tick();
  await clocks.advance(30);
  await bff.notifications.tick();
  const page = await fetch(`${bff.url}/admin/agents`);
  const csrfCookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const login = await fetch(`${bff.url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ csrf, password: PASSWORD }),
  });
  cookie = login.headers
    .getSetCookie()
    .map((set) => set.split(';')[0] ?? '')
    .join('; ');
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await receiver?.close();
  await sandbox?.close();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${bff.url}/admin/api/notifications${path}`, init);
/** The session's CSRF token, as the log page carries it in its forms. */
async function sessionCsrf(): Promise<string> {
  const page = await (await fetch(`${bff.url}/admin/notifications`, { headers: { cookie } })).text();
  return /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
}

describe('the notification log (the desk)', () => {
  it('lists every delivery with its state, only to the merchant', async () => {
    expect((await api('')).status).toBe(401);
    const res = await api('?state=retrying', { headers: { cookie } });
    expect(res.status).toBe(200);
    const { notifications } = (await res.json()) as { notifications: Record<string, unknown>[] };
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      channel: 'webhook',
      state: 'retrying',
      tries: 1,
      orderId: 'PED-DESK-1',
      lastError: 'the endpoint answered HTTP 500',
      type: 'shipment.status_changed',
    });
    expect((await api('?state=lost', { headers: { cookie } })).status).toBe(400);
  });

  it('sends again only with the session, its CSRF token and an Origin of our own', async () => {
    const [entry] = (
      (await (await api('', { headers: { cookie } })).json()) as { notifications: { id: string }[] }
    ).notifications;
    const csrf = await sessionCsrf();
    expect(csrf.length).toBeGreaterThan(40);
    const resend = (headers: Record<string, string>) =>
      api(`/${entry?.id}/resend`, { method: 'POST', headers: { cookie, ...headers } });
    expect((await api(`/${entry?.id}/resend`, { method: 'POST' })).status).toBe(401);
    expect((await resend({})).status).toBe(403);
    expect((await resend({ 'x-csrf-token': 'x'.repeat(43) })).status).toBe(403);
    const foreign = await resend({ 'x-csrf-token': csrf, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { code: 'forbidden_origin' } });
    const tried = receiver.received.length;

    receiver.answer = () => 200;
    const ok = await resend({ 'x-csrf-token': csrf, origin: bff.url });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ notification: { id: entry?.id, state: 'pending' } });
    await bff.notifications.dispatcher.drain();
    expect(receiver.received.length).toBe(tried + 1);
    expect(receiver.received.at(-1)?.answered).toBe(200);
    expect(
      (
        await api(`/ntf_${'0'.repeat(32)}/resend`, {
          method: 'POST',
          headers: { cookie, 'x-csrf-token': csrf },
        })
      ).status,
    ).toBe(404);
  });

  it('shows the log as a page, with "send again" as a form', async () => {
    expect((await fetch(`${bff.url}/admin/notifications`, { redirect: 'manual' })).status).toBe(303);
    const res = await fetch(`${bff.url}/admin/notifications`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<h1>Notificações</h1>');
    expect(html).toContain('PED-DESK-1');
    expect(html).toContain('enviada');
    expect(html).toContain('Enviar de novo');
    const id = /action="\/admin\/notifications\/(ntf_\w+)\/resend"/.exec(html)?.[1];
    const post = (headers: Record<string, string>, csrf: string) =>
      fetch(`${bff.url}/admin/notifications/${id}/resend`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
        body: new URLSearchParams({ csrf }),
      });
    const foreign = await post({ origin: 'https://evil.example' }, await sessionCsrf());
    expect(foreign.status).toBe(403);
    // The admin pages' refusal (bff/admin/session.ts), word for word.
    expect(await foreign.text()).toContain(
      'O pedido veio de outra página, não desta administração; nada foi feito.',
    );
    expect((await post({ origin: bff.url }, await sessionCsrf())).status).toBe(303);
  });

  it('speaks the merchant’s language, as the desk’s other pages (?lang=, then the browser’s)', async () => {
    const page = async (query: string, headers: Record<string, string> = {}) =>
      (await fetch(`${bff.url}/admin/notifications${query}`, { headers: { cookie, ...headers } })).text();
    const english = await page('?lang=en');
    expect(english).toContain('lang="en"');
    expect(english).toContain('<h1>Notifications</h1>');
    expect(english).toContain('When (Brasília time)');
    expect(english).toMatch(/>(queued|trying again|sent|failed)( \(\d+ tries\))?</);
    expect(english).toContain('Send again');
    expect(english).not.toMatch(/Notificações|Enviar de novo|enviada|Situação/);
    const spanish = await page('', { 'accept-language': 'es-AR,es;q=0.9' });
    expect(spanish).toContain('<h1>Notificaciones</h1>');
    expect(spanish).toContain('Enviar de nuevo');
    expect(spanish).not.toMatch(/Notificações|Enviar de novo|Situação/);
    expect(await page('')).toContain('Quando (horário de Brasília)');
    // The language the merchant picked on another desk page (its cookie) holds here, over the browser's.
    const picked = await page('', { cookie: `${cookie}; desk_lang=es`, 'accept-language': 'en' });
    expect(picked).toContain('<h1>Notificaciones</h1>');
    expect(picked).toContain('Cuándo (hora de Brasilia)');
  });
});
