import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, SAMPLE_LABEL, startSandbox } from '../../sandbox/testing.ts';
import { seedDelivered } from '../promise/testing/seed.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { DESK_EN } from './messages/en.ts';
import { DESK_ES } from './messages/es.ts';
import { DESK_PT_BR } from './messages/pt-BR.ts';

const PASSWORD = 'senha-do-lojista-pages';
let sandbox: RunningSandbox;
let bff: RunningBff;

beforeAll(async () => {
  sandbox = await startSandbox({ labelPdfDelayMs: 0 });
  bff = await startBff(sandbox.url, {
    BFF_ADMIN_PASSWORD: PASSWORD,
    BFF_SERVICE_CODES: JSON.stringify({ 'correios-pac': '03298' }),
  });
}, 30_000);
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

/** The `name=value` pairs of a response's Set-Cookie headers. */
const cookiesOf = (response: Response) =>
  response.headers.getSetCookie().map((line) => line.split(';')[0] ?? '');

/** Opens a desk page without a session, posts the password on its login form; the login answer and the cookies. */
async function loginFrom(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ page: Response; html: string; login: Response; cookie: string }> {
  const page = await fetch(`${bff.url}${path}`, { headers });
  const html = await page.text();
  const jar = cookiesOf(page);
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const login = await fetch(`${bff.url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; '), ...headers },
    body: new URLSearchParams({ csrf, password: PASSWORD }),
  });
  const session = cookiesOf(login).find((c) => c.startsWith('admin_session=')) ?? '';
  return { page, html, login, cookie: session };
}

let merchant: string;
beforeAll(async () => {
  merchant = (await loginFrom('/admin/labels')).cookie;
});
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${bff.url}${path}`, { headers: { cookie: merchant, ...headers } });

describe('the desk’s pages', () => {
  it('shows the login form to a visit without a session, in the browser’s language, and comes back to that page after it', async () => {
    const { page, html, login } = await loginFrom('/admin/labels/new?lang=es', { 'accept-language': 'en' });
    expect(page.status).toBe(200);
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Contraseña del comerciante');
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/admin/labels/new?lang=es');
    // The remembered page is used once.
    expect(cookiesOf(login)).toContain('admin_return=');
  });

  it('shows the same login form on the stores and rules pages, and comes back to each after it', async () => {
    for (const path of ['/admin/stores?lang=en', '/admin/rules']) {
      const { page, html, login } = await loginFrom(path);
      expect(page.status).toBe(200);
      expect(html).toContain(path === '/admin/rules' ? 'Senha do lojista' : 'Merchant’s password');
      expect(login.status).toBe(303);
      expect(login.headers.get('location')).toBe(path);
    }
  });

  it('goes to /admin/agents after a login with no page, or with one that is not ours, remembered', async () => {
    const page = await fetch(`${bff.url}/admin/agents`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    for (const target of [
      '//evil.example/admin/x',
      '/\\evil.example',
      'https://evil.example/admin/',
      '/admin',
      '/demo/',
    ]) {
      const login = await fetch(`${bff.url}/admin/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: [...cookiesOf(page), `admin_return=${encodeURIComponent(target)}`].join('; '),
        },
        body: new URLSearchParams({ csrf, password: PASSWORD }),
      });
      expect([target, login.headers.get('location')]).toEqual([target, '/admin/agents']);
    }
  });

  it('speaks the browser’s language, or the one picked on the switch (kept in a cookie), pt-BR otherwise', async () => {
    const lang = async (headers: Record<string, string>) =>
      /<html lang="([^"]+)">/.exec(await (await get('/admin/labels', headers)).text())?.[1];
    expect(await lang({})).toBe('pt-BR');
    expect(await lang({ 'accept-language': 'fr-FR, es;q=0.8, en;q=0.5' })).toBe('es');
    expect(await lang({ 'accept-language': 'pt-PT' })).toBe('pt-BR');
    expect(await lang({ 'accept-language': 'de' })).toBe('pt-BR');
    const picked = await get('/admin/approvals?lang=en', { 'accept-language': 'es' });
    expect(await picked.text()).toContain('<h1>Approvals</h1>');
    const kept = cookiesOf(picked).find((c) => c.startsWith('desk_lang=')) ?? '';
    expect(kept).toBe('desk_lang=en');
    expect(await lang({ cookie: `${merchant}; ${kept}`, 'accept-language': 'es' })).toBe('en');
    // Anything else in ?lang= is ignored, not echoed.
    const odd = await get('/admin/labels?lang=%22%3E%3Cscript%3E', { 'accept-language': 'es' });
    expect(await odd.text()).toContain('<html lang="es">');
  });

  it('serves every page with a strict CSP: its script and stylesheet from this server, nothing inline', async () => {
    for (const path of [
      '/admin/labels',
      '/admin/labels/new',
      '/admin/approvals',
      '/admin/agents',
      '/admin/promise',
    ]) {
      const response = await get(path);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      const html = await response.text();
      expect(html).toContain('<script type="module" src="/admin/assets/desk.js"></script>');
      expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g) ?? []).toEqual([]);
      expect(html).not.toMatch(/\sstyle=|<style|\son[a-z]+=/);
      expect(html).toContain('<nav class="sections" aria-label="Administração">');
    }
    const css = await fetch(`${bff.url}/admin/assets/desk.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('prefers-color-scheme: dark');
  });

  it('shows hostile order data as text, never as markup', async () => {
    const session = (await (await get('/admin/api/session')).json()) as { csrfToken: string };
    const hostile = '"><img src=x onerror=alert(1)>';
    const issued = await fetch(`${bff.url}/admin/api/labels`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: merchant, 'x-csrf-token': session.csrfToken },
      body: JSON.stringify({ ...SAMPLE_LABEL, orderId: `PED-${hostile}`, volume: 1 }),
    });
    const { attemptId } = (await issued.json()) as { attemptId: string };
    for (const path of [
      '/admin/labels',
      `/admin/labels/${attemptId}`,
      `/admin/labels?q=${encodeURIComponent(hostile)}`,
    ]) {
      const html = await (await get(path)).text();
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&#34;&#62;&#60;img src=x onerror=alert(1)&#62;');
    }
  });

  it('answers 404 for an attempt it does not know, and the login form (not the data) without a session', async () => {
    const missing = await get('/admin/labels/00000000-0000-0000-0000-000000000000');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Esta etiqueta não existe.');
    expect((await get('/admin/labels/..%2F..%2Fetc')).status).toBe(404);
    const anonymous = await fetch(`${bff.url}/admin/labels`);
    const html = await anonymous.text();
    expect(html).toContain('Senha do lojista');
    expect(html).not.toContain('PED-');
    expect(html).not.toContain('csrf-token');
  });

  it('shows the promise kept per lane and service: share on time, median days early or late, deliveries', async () => {
    const empty = await (await get('/admin/promise')).text();
    expect(empty).toContain('Nenhuma entrega com prazo registrado ainda');
    const promise = { from: '2026-12-01', to: '2026-12-03', basis: 'history' as const, parcels: 40 };
    const now = Date.now();
    // Rio: 19 early (alternately 2 and 1 business days), 1 late; Feira de Santana: 3 late by 2.
    await seedDelivered(bff.backends, {
      name: 'rio',
      cep: '20040-020',
      count: 20,
      promise,
      transitDays: () => 6,
      lateDays: (i) => (i === 19 ? 1 : i % 2 === 0 ? -2 : -1),
      now,
    });
    await seedDelivered(bff.backends, {
      name: 'feira',
      cep: '44001-000',
      count: 3,
      promise,
      transitDays: () => 6,
      lateDays: () => 2,
      now,
    });
    // São Paulo: 12 parcels, every one 2 business days late.
    await seedDelivered(bff.backends, {
      name: 'sp',
      cep: '01310-100',
      count: 12,
      promise,
      transitDays: () => 6,
      lateDays: () => 2,
      now,
    });
    const html = await (await get('/admin/promise')).text();
    expect(html).toContain('54,3 % no prazo, em 35 entregas');
    // Which promise is scored: the learnt one and the platform's, side by side.
    expect(html).toContain(
      'Promessa aprendida: 54,3 % no prazo (35 entregas) · Prazo da plataforma: — no prazo (0 entregas)',
    );
    const rows = html.match(/<tr>\s*<th scope="row">[\s\S]*?<\/tr>/g) ?? [];
    // The late lane first, with what to do; then the lanes on time; the thin lane (3 deliveries) set apart, last.
    expect(html.indexOf('Rotas abaixo de 95 %: o que fazer')).toBeLessThan(html.indexOf('Rotas no prazo'));
    expect(rows[0]).toMatch(
      /SP <span class="muted">capital<\/span>[\s\S]*>PAC<[\s\S]*>12<[\s\S]*class="number warn">0 %</,
    );
    expect(rows[0]).toContain('Some 2 dias úteis: em Regras, uma regra de +2 para esta rota');
    expect(rows[1]).toMatch(
      /RJ <span class="muted">capital<\/span>[\s\S]*>PAC<[\s\S]*>20<[\s\S]*>95 %<[\s\S]*1,5 dias antes/,
    );
    expect(rows[1]).not.toContain('correios-pac');
    expect(html.indexOf('Rotas com poucas entregas para julgar (menos de 10)')).toBeLessThan(
      html.indexOf('BA <span'),
    );
    expect(rows[2]).toMatch(
      /BA <span class="muted">interior<\/span>[\s\S]*>3<[\s\S]*class="number warn">0 %<[\s\S]*2 dias depois/,
    );
    // Today's promise per lane, with its basis.
    expect(rows[1]).toMatch(/\((aprendida, \d+ entregas|prazo da plataforma)\)/);
    const en = await (await get('/admin/promise?lang=en')).text();
    expect(en).toContain('54.3 % on time, over 35 deliveries');
  });

  it('counts one delivery in the singular, in each language (the demo showed "100 % on time (1 deliveries)")', () => {
    expect(DESK_EN.promiseBasis('100 %', 1, '74.5 %', 560)).toBe(
      "Learnt promise: 100 % on time (1 delivery) · Platform's count: 74.5 % on time (560 deliveries)",
    );
    expect(DESK_PT_BR.promiseBasis('100 %', 1, '—', 0)).toContain(
      '(1 entrega) · Prazo da plataforma: — no prazo (0 entregas)',
    );
    expect(DESK_ES.promiseBasis('100 %', 1, '—', 2)).toContain(
      '(1 entrega) · Plazo de la plataforma: — a tiempo (2 entregas)',
    );
    expect(DESK_EN.todayLearnt('Dec 15–17', 1)).toBe('Dec 15–17 (learnt, 1 delivery)');
    expect(DESK_PT_BR.todayLearnt('15–17/12', 1)).toBe('15–17/12 (aprendida, 1 entrega)');
    expect(DESK_ES.todayLearnt('15–17/12', 55)).toBe('15–17/12 (aprendida, 55 entregas)');
  });
});
