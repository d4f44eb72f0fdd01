import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';
import { renderTrackPage } from './track-page.ts';

let sandbox: RunningSandbox;
const bffs: RunningBff[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await Promise.all(bffs.map((bff) => bff.stop()));
  await sandbox?.close();
});

async function bffWith(env: Record<string, string>): Promise<RunningBff> {
  const bff = await startBff(sandbox.url, env);
  bffs.push(bff);
  return bff;
}

describe('the tracking page branding', () => {
  it('shows the store name, logo and a link back to the store, and lets the logo origin through the CSP', async () => {
    const bff = await bffWith({
      BFF_STORE_NAME: 'Loja da Ana',
      BFF_STORE_URL: 'https://loja-da-ana.example/',
      BFF_STORE_LOGO_URL: 'https://cdn.loja-da-ana.example/logo.png',
    });
    const res = await fetch(`${bff.url}/track`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Rastrear pedido — Loja da Ana</title>');
    expect(html).toContain('<a class="store-brand" href="https://loja-da-ana.example">');
    expect(html).toContain('src="https://cdn.loja-da-ana.example/logo.png" alt=""');
    expect(html).toContain('<span class="store-name">Loja da Ana</span>');
    expect(html).toContain('Voltar para a loja');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/img-src [^;]*https:\/\/cdn\.loja-da-ana\.example/);
    expect(csp).toMatch(/script-src 'self'/);
  });

  it('escapes a hostile store name: it is text, never markup', async () => {
    const bff = await bffWith({ BFF_STORE_NAME: '<script>alert(1)</script>"&\'' });
    const html = await (await fetch(`${bff.url}/track`)).text();
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#38;&#39;');
  });

  it('shows no store header without branding, and a logo alone gets an alt text', () => {
    const bare = renderTrackPage({ name: undefined, url: undefined, logoUrl: undefined });
    expect(bare).not.toContain('class="store"');
    expect(bare).toContain('<title>Rastrear pedido</title>');
    const logoOnly = renderTrackPage({ name: undefined, url: undefined, logoUrl: 'https://x.example/l.svg' });
    expect(logoOnly).toContain('alt="Logo da loja"');
    expect(logoOnly).not.toContain('Voltar para a loja');
  });

  it('keeps $ patterns in a store name as written', () => {
    const html = renderTrackPage({ name: "Loja $& $' $1", url: undefined, logoUrl: undefined });
    expect(html).toContain('Loja $&#38; $&#39; $1');
  });

  it('serves a favicon, so the page logs no 404', async () => {
    const bff = await bffWith({});
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const res = await fetch(`${bff.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('image/svg+xml');
      expect(await res.text()).toContain('<svg');
    }
    expect(await (await fetch(`${bff.url}/track`)).text()).toContain('<link rel="icon" href="/favicon.svg"');
  });
});
