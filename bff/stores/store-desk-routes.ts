import express, { type Request, type Response, Router } from 'express';
import * as z from 'zod/mini';
import { ApiError } from '../../shared/errors.ts';
import type { Html } from '../../shared/html.ts';
import { parseInput } from '../../shared/issues.ts';
import type { Locale } from '../../shared/locale.ts';
import { requireAdminSession } from '../admin/gate.ts';
import type { AdminSessions } from '../admin/session.ts';
import type { BffConfig } from '../config.ts';
import { pickLanguage } from '../desk/language.ts';
import { sendDeskPage, sendLoginPage } from '../desk/layout.ts';
import type { ConnectionStore, StorePlatform } from './connection-store.ts';
import type { StoreConnections } from './connections.ts';
import {
  type PendingView,
  STORE_MESSAGES,
  StoresAnswerSchema,
  type StoreView,
  storesBody,
} from './stores-page.ts';

export interface StoreDeskDeps {
  sessions: AdminSessions;
  store: ConnectionStore;
  connections: Pick<StoreConnections, 'disconnectFromDesk' | 'approve' | 'reject'>;
  now?: () => number;
  config: Pick<BffConfig, 'checkout' | 'publicUrl'>;
  /**
   * The page's "privacy requests" section (customers/data_request and redactions), in the merchant's language: the
   * privacy module's to supply; absent, the page has no such section.
   */
  privacyRequests?: ((lang: Locale) => Promise<Html>) | undefined;
}

/** The store an action on the desk names (disconnect, approve, reject): `{platform, shop}`. */
const StoreRefSchema = z.object({
  platform: z.enum(['shopify', 'nuvemshop']),
  shop: z.string().check(z.minLength(1), z.maxLength(200)),
});

/** The store a page's form names, or undefined when it names none. */
const formStore = (req: Request) => StoreRefSchema.safeParse(req.body).data;

/** Back to the page after a disconnect or a reject, which says when the revoke at the platform failed. */
function revoked(res: Response, done: { revoke: string } | undefined): void {
  res.redirect(303, done?.revoke === 'failed' ? '/admin/stores?revoke=failed' : '/admin/stores');
}

/**
 * The stores on the desk (docs/checkout/connect.md): `GET /admin/api/stores` (the contract's JSON), `/admin/stores`
 * (the same, as a page in the merchant's language, with "disconnect", and "approve" / "reject" beside each install
 * held for approval) and those actions, each as an API call (`X-CSRF-Token`) or the page's form (`csrf` field), all
 * through the admin gate.
 */
export function storeDeskRoutes(deps: StoreDeskDeps): Router {
  const router = Router();
  const secure = deps.config.publicUrl.startsWith('https:');
  const api = requireAdminSession(deps.sessions, 'api');
  const form = [
    express.urlencoded({ extended: false, limit: '4kb' }),
    requireAdminSession(deps.sessions, 'form'),
  ];

  router.get('/admin/api/stores', api, async (_req, res) => {
    res.json(StoresAnswerSchema.parse({ stores: await storesOf(deps), pending: await pendingOf(deps) }));
  });
  router.post('/admin/api/stores/disconnect', api, express.json({ limit: '4kb' }), async (req, res) => {
    const { platform, shop } = parseInput(StoreRefSchema, req.body);
    res.json(await deps.connections.disconnectFromDesk(platform, shop));
  });
  router.post('/admin/stores/disconnect', ...form, async (req: Request, res: Response) => {
    const ref = formStore(req);
    revoked(res, ref && (await deps.connections.disconnectFromDesk(ref.platform, ref.shop)));
  });
  router.post('/admin/api/stores/approve', api, express.json({ limit: '4kb' }), async (req, res) => {
    const { platform, shop } = parseInput(StoreRefSchema, req.body);
    const outcome = await deps.connections.approve(platform, shop);
    if (outcome === 'not_found')
      throw new ApiError('not_found', 'No install of this store waits for approval.');
    if (outcome === 'other_connected')
      throw new ApiError(
        'invalid_body',
        'Another store of this platform is connected (disconnect it first) or named by BFF_SHOPIFY_SHOP / BFF_NUVEMSHOP_STORE_ID.',
      );
    res.json({ approved: true });
  });
  router.post('/admin/api/stores/reject', api, express.json({ limit: '4kb' }), async (req, res) => {
    const { platform, shop } = parseInput(StoreRefSchema, req.body);
    res.json(await deps.connections.reject(platform, shop));
  });
  router.post('/admin/stores/approve', ...form, async (req: Request, res: Response) => {
    const ref = formStore(req);
    const outcome = ref ? await deps.connections.approve(ref.platform, ref.shop) : 'not_found';
    // A refusal is said on the page it lands on, as a failed revoke is.
    res.redirect(303, outcome === 'approved' ? '/admin/stores' : `/admin/stores?approve=${outcome}`);
  });
  router.post('/admin/stores/reject', ...form, async (req: Request, res: Response) => {
    const ref = formStore(req);
    revoked(res, ref && (await deps.connections.reject(ref.platform, ref.shop)));
  });
  router.get('/admin/stores', async (req, res) => {
    const lang = pickLanguage(req, res, secure);
    const session = await deps.sessions.current(req);
    if (!session) return void sendLoginPage(req, res, { lang, sessions: deps.sessions, secure });
    const s = STORE_MESSAGES[lang];
    const privacyRequests = await deps.privacyRequests?.(lang);
    sendDeskPage(res, 200, {
      lang,
      title: s.storesTitle,
      section: 'stores',
      session,
      here: req.originalUrl,
      body: storesBody({
        s,
        lang,
        csrf: session.csrf,
        stores: await storesOf(deps),
        pending: await pendingOf(deps),
        installs: installLinks(deps.config),
        revokeFailed: req.query.revoke === 'failed',
        approveRefused:
          req.query.approve === 'other_connected' || req.query.approve === 'not_found'
            ? req.query.approve
            : undefined,
        ...(privacyRequests ? { privacyRequests } : {}),
      }),
    });
  });
  return router;
}

/** Every store the kit knows: connected by install or grant (the table), and the static tokens of the variables. */
async function storesOf(deps: StoreDeskDeps): Promise<StoreView[]> {
  const rows = await deps.store.list();
  const stores: StoreView[] = rows.map((row) => ({
    platform: row.platform,
    shop: row.shop,
    connected: row.token !== null,
    token: {
      kind: row.kind,
      ...(row.expires_at === null || row.token === null
        ? {}
        : { expiresAt: new Date(row.expires_at).toISOString() }),
    },
    carrier: row.carrier,
    webhooks: z.array(z.string()).parse(JSON.parse(row.webhooks)),
    ...(row.renew_error ? { renewal: { error: row.renew_error, tries: row.renew_tries } } : {}),
  }));
  const { shopify, nuvemshop } = deps.config.checkout;
  const variables = (platform: StorePlatform, shop: string, kind: StoreView['token']['kind']) => {
    if (stores.some((s) => s.platform === platform && s.shop === shop)) return;
    stores.push({ platform, shop, connected: true, token: { kind }, carrier: 'missing', webhooks: [] });
  };
  if (shopify.token && shopify.shop) variables('shopify', shopify.shop, 'static');
  if (nuvemshop.token && nuvemshop.storeId) variables('nuvemshop', nuvemshop.storeId, 'nuvemshop');
  return stores;
}

/** The installs waiting for the merchant's approval (no token shown: only the store and when it installed). */
async function pendingOf(deps: StoreDeskDeps): Promise<PendingView[]> {
  const held = await deps.store.pending((deps.now ?? Date.now)());
  return held.map((h) => ({
    platform: h.platform,
    shop: h.shop,
    installedAt: new Date(h.createdAt).toISOString(),
  }));
}

/** Where the merchant (re)installs: the app's page on each platform the BFF has an app for. */
function installLinks(config: StoreDeskDeps['config']): { shopify: boolean; nuvemshop: string | undefined } {
  const { shopify, nuvemshop } = config.checkout;
  return {
    shopify: Boolean(shopify.clientId),
    nuvemshop: nuvemshop.appId ? `${nuvemshop.authUrl}/apps/${nuvemshop.appId}/authorize` : undefined,
  };
}
