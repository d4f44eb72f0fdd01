import { describe, expect, it } from 'vitest';
import { html } from '../../shared/html.ts';
import { LOCALES } from '../../shared/locale.ts';
import { STORE_MESSAGES, storesBody } from './stores-page.ts';

const CONNECTED = {
  platform: 'shopify' as const,
  shop: 'loja.myshopify.com',
  connected: true,
  token: { kind: 'expiring' as const, expiresAt: '2026-12-06T15:00:00.000Z' },
  carrier: 'registered' as const,
  webhooks: ['orders/paid'],
  renewal: { error: 'Shopify could not be reached at https://loja.myshopify.com.', tries: 2 },
};
const view = (lang: (typeof LOCALES)[number], privacyRequests?: ReturnType<typeof html>) => ({
  s: STORE_MESSAGES[lang],
  lang,
  csrf: 'csrf-token',
  stores: [
    CONNECTED,
    { ...CONNECTED, platform: 'nuvemshop' as const, shop: '1001', connected: false, webhooks: [] },
  ],
  installs: { shopify: true, nuvemshop: 'https://www.tiendanube.com/apps/9001/authorize' },
  ...(privacyRequests ? { privacyRequests } : {}),
});

describe('the stores page', () => {
  it('says each store in the merchant’s language: the renewal that failed, disconnect, and how to reconnect', () => {
    const pt = storesBody(view('pt-BR')).text;
    expect(pt).toContain('renova antes de 06/12/2026, 12:00:00');
    expect(pt).toContain('Renovação falhou (2×)');
    expect(pt).toContain('name="csrf" value="csrf-token"');
    expect(pt).toContain('href="https://www.tiendanube.com/apps/9001/authorize"');
    for (const lang of LOCALES)
      expect(storesBody(view(lang)).text).toContain(STORE_MESSAGES[lang].disconnect);
  });

  it('puts "approve" and "reject" of a held install side by side, and a row’s action level with its text', () => {
    const pending = [
      { platform: 'shopify' as const, shop: 'nova.myshopify.com', installedAt: '2026-12-06T15:00:00.000Z' },
    ];
    const page = storesBody({ ...view('en'), pending }).text;
    expect(page).toMatch(
      /<td><div class="actions"><form[\s\S]*?approve[\s\S]*?<\/form> <form[\s\S]*?reject[\s\S]*?<\/form><\/div><\/td>/,
    );
    expect(page).toMatch(/<td><div class="actions"><p>To reconnect/);
  });

  it('sends a disconnected Shopify store to its install link, not to the Shopify admin its app was removed from', () => {
    const disconnected = { ...CONNECTED, connected: false, webhooks: [] };
    const text = (lang: (typeof LOCALES)[number]) =>
      storesBody({ ...view(lang), stores: [disconnected] }).text;
    expect(text('pt-BR')).toContain('instale o app de novo pelo link de instalação');
    expect(text('en')).toContain('install the app again from its install link');
    expect(text('es')).toContain('instale la app de nuevo desde su enlace de instalación');
    for (const lang of LOCALES) expect(text(lang)).not.toMatch(/admin/i);
  });

  it('renders the privacy requests section the privacy module supplies (its own heading), and nothing without it', () => {
    expect(storesBody(view('en')).text).not.toContain('privacy-requests');
    const page = storesBody(
      view('en', html`<section id="privacy-requests"><p>2 requests</p></section>`),
    ).text;
    expect(page).toContain('<section id="privacy-requests"><p>2 requests</p></section>');
    // one section, one id (the page's own wrapper would repeat both)
    expect(page.split('id="privacy-requests"').length).toBe(2);
  });
});
