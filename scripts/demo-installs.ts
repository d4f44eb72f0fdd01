import { SANDBOX_NUVEMSHOP_APP_ID, SANDBOX_SHOPIFY_APP_SECRET } from '../sandbox/checkouts/accounts.ts';
import { shopifyQueryHmac } from '../shared/checkouts/store-oauth.ts';

/** The emulated shop `npm start` installs the app in. */
export const DEMO_SHOP = 'loja-demo.myshopify.com';

/**
 * `npm start`'s stores connected as a merchant connects them (docs/checkout/connect.md): the Shopify app's install link
 * opened (the app URL signed as Shopify's admin signs it), the emulated Shopify's approval, the BFF's callback; then
 * the Nuvemshop app's authorize link and the BFF's redirect URL. Each install registers the carrier and the webhooks.
 * Answers what went wrong, one line each; nothing when both stores are connected.
 */
export async function installDemoStores(bffUrl: string, sandboxUrl: string): Promise<string[]> {
  const problems: string[] = [];
  const params = { shop: DEMO_SHOP, timestamp: String(Math.floor(Date.now() / 1000)) };
  const appUrl = `${bffUrl}/stores/shopify/install?${new URLSearchParams({ ...params, hmac: shopifyQueryHmac(SANDBOX_SHOPIFY_APP_SECRET, params) })}`;
  const authorize = `${sandboxUrl}/nuvemshop/apps/${SANDBOX_NUVEMSHOP_APP_ID}/authorize?redirect_uri=${encodeURIComponent(`${bffUrl}/stores/nuvemshop/callback`)}`;
  for (const [platform, start] of [
    ['Shopify', appUrl],
    ['Nuvemshop', authorize],
  ] as const) {
    const landed = await follow(start);
    if (landed !== `${bffUrl}/admin/stores`)
      problems.push(`[stores] ${platform} was not installed: ${landed}`);
  }
  return problems;
}

/** Follows redirects as the merchant's browser does; answers where it landed, or the refusal it met. */
async function follow(url: string): Promise<string> {
  let at = url;
  for (let hop = 0; hop < 5; hop += 1) {
    const res = await fetch(at, { redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) return `${res.status} ${(await res.text()).slice(0, 200)}`;
    at = new URL(location, at).toString();
    if (new URL(at).pathname === '/admin/stores') return at;
  }
  return `too many redirects from ${url}`;
}
