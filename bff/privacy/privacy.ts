import { Router } from 'express';
import type { PrivacyRequest } from '../../shared/checkouts/privacy.ts';
import { ApiError } from '../../shared/errors.ts';
import { html } from '../../shared/html.ts';
import type { Sql } from '../../shared/sql/sql.ts';
import { requireAdminSession } from '../admin/gate.ts';
import { rememberReturn } from '../admin/return-to.ts';
import type { AdminSessions } from '../admin/session.ts';
import type { BffConfig } from '../config.ts';
import { pickLanguage } from '../desk/language.ts';
import { sendDeskPage } from '../desk/layout.ts';
import type { Logger } from '../logger.ts';
import { configuredShop } from '../stores/connections.ts';
import { Erasure, type ErasureCounts, storeNameKey } from './erasure.ts';
import { PrivacyRequests, type StoredPrivacyRequest } from './requests.ts';
import { PRIVACY_MESSAGES, privacyRequestsSection } from './requests-view.ts';

/**
 * The shoppers' privacy (docs/privacy.md): the stores' compliance and LGPD requests handled (the webhooks in
 * bff/stores/ call `handle`), and what the kit holds of a customer shown to the merchant
 * (`GET /admin/api/privacy/requests`, `…/<id>/export`).
 */
export { privacyRequestsSection } from './requests-view.ts';

export interface PrivacyDeps {
  sql: Sql;
  config: Pick<BffConfig, 'checkout'>;
  logger: Logger;
  now?: () => number;
  /** Whether this store was ever connected (an install, a grant; since uninstalled too: ConnectionStore.known). */
  known?: (platform: PrivacyRequest['platform'], store: string) => Promise<boolean>;
}

/** What handling a request came to (the platform only reads the `200`). */
export type PrivacyOutcome = 'recorded' | 'erased' | 'duplicate';

/** What the kit holds of a data request's customer, as exported to the merchant. */
export interface HeldData {
  request: StoredPrivacyRequest;
  orders: { orderId: string; externalId: string | null; order: unknown }[];
  labels: {
    attemptId: string;
    orderId: string;
    volume: number | null;
    state: string;
    trackingCode: string | null;
    recipient: unknown;
    createdAt: string;
  }[];
  emails: { attemptId: string; to: string; state: string; sentAt: string | null }[];
}

export class Privacy {
  readonly requests: PrivacyRequests;
  private readonly erasure: Erasure;
  private readonly sql: Sql;
  private readonly deps: PrivacyDeps;

  constructor(deps: PrivacyDeps) {
    this.deps = deps;
    this.sql = deps.sql;
    this.requests = new PrivacyRequests(deps.sql, deps.now ? { now: deps.now } : {});
    this.erasure = new Erasure(deps.sql);
  }

  /**
   * Whether the kit may hold this store's orders: the store of the platform's variables (`BFF_SHOPIFY_SHOP`,
   * `BFF_NUVEMSHOP_STORE_ID`), or any store ever connected (a former store's orders stay until its own redact). The
   * app's secret signs every store's requests, so one about a stranger's store (installed elsewhere, or held pending
   * and never approved) erases nothing here; and an erasure goes by the store each order came from.
   */
  async isOurs(request: Pick<PrivacyRequest, 'platform' | 'store'>): Promise<boolean> {
    const configured = configuredShop(this.deps.config.checkout, request.platform);
    const store = storeNameKey(request.store);
    if (configured !== undefined && configured === store) return true;
    return (await this.deps.known?.(request.platform, store)) ?? false;
  }

  /** A request handled: erased when it asks so (of our store), then kept; a retried delivery only answered. */
  async handle(request: PrivacyRequest, deliveryId?: string): Promise<PrivacyOutcome> {
    await this.requests.ready;
    if (deliveryId && (await this.requests.seen(deliveryId))) return 'duplicate';
    const ours = await this.isOurs(request);
    const none: ErasureCounts = { orders: 0, labels: 0, approvals: 0, emails: 0, requests: 0 };
    let erased: ErasureCounts | undefined;
    if (request.kind === 'customer_redact') erased = ours ? await this.erasure.eraseCustomer(request) : none;
    if (request.kind === 'store_redact')
      erased = ours ? await this.erasure.eraseStore(request.platform, request.store) : none;
    // Another store's request is kept as seen, without its shopper: the merchant holds nothing of that customer.
    await this.requests.record(ours ? request : { ...request, customer: {}, orders: [] }, {
      ...(deliveryId ? { deliveryId } : {}),
      ...(erased ? { erased } : {}),
    });
    this.deps.logger.info(
      { platform: request.platform, kind: request.kind, ours, ...(erased ? { erased } : {}) },
      'privacy: request handled',
    );
    return erased ? 'erased' : 'recorded';
  }

  /** What the kit holds now of a data request's customer (nothing when the request is not of our store). */
  async held(id: string): Promise<HeldData | undefined> {
    const request = await this.requests.get(id);
    if (!request) return undefined;
    if (!(await this.isOurs(request)) || request.kind !== 'data_request')
      return { request, orders: [], labels: [], emails: [] };
    const orders = await this.erasure.customerOrders(this.sql, request);
    const ids = orders.map((o) => o.orderId);
    const marks = ids.map(() => '?').join(', ');
    const attempts = ids.length
      ? await this.sql.all(
          `SELECT id, order_id, volume, state, tracking_code, request, created_at FROM label_attempts
           WHERE order_id IN (${marks}) ORDER BY created_at`,
          ids,
        )
      : [];
    const attemptIds = attempts.map((a) => String(a.id));
    const deliveries = attemptIds.length
      ? await this.sql.all(
          `SELECT attempt_id, target, state, sent_at FROM notification_deliveries
           WHERE channel = 'email' AND attempt_id IN (${attemptIds.map(() => '?').join(', ')}) ORDER BY created_at`,
          attemptIds,
        )
      : [];
    return {
      request,
      orders: orders.map((o) => ({ orderId: o.orderId, externalId: o.externalId, order: o.body })),
      labels: attempts.map((a) => ({
        attemptId: String(a.id),
        orderId: String(a.order_id),
        volume: a.volume === null ? null : Number(a.volume),
        state: String(a.state),
        trackingCode: a.tracking_code === null ? null : String(a.tracking_code),
        recipient: (JSON.parse(String(a.request)) as { recipient?: unknown }).recipient ?? null,
        createdAt: new Date(Number(a.created_at)).toISOString(),
      })),
      emails: deliveries.map((d) => ({
        attemptId: String(d.attempt_id),
        to: String(d.target),
        state: String(d.state),
        sentAt: d.sent_at === null ? null : new Date(Number(d.sent_at)).toISOString(),
      })),
    };
  }
}

/**
 * The merchant's side (admin session, through the desk's one gate): `GET /admin/api/privacy/requests` → `{ requests }`
 * (newest first); `GET /admin/api/privacy/requests/<id>/export` → what the kit holds of that customer, as a JSON file;
 * `GET /admin/privacy`, the requests as a page (the section the stores page includes).
 */
export function privacyRoutes(deps: { privacy: Privacy; sessions: AdminSessions; secure?: boolean }): Router {
  const router = Router();
  router.get('/admin/privacy', async (req, res) => {
    const session = await deps.sessions.current(req);
    if (!session) {
      rememberReturn(res, req.originalUrl, deps.secure ?? false);
      return res.redirect(303, '/admin/agents');
    }
    const lang = pickLanguage(req, res, deps.secure ?? false);
    sendDeskPage(res, 200, {
      lang,
      title: PRIVACY_MESSAGES[lang].title,
      session,
      here: '/admin/privacy',
      // The stores' requests: the stores page holds the same section, and its tab is this page's.
      section: 'stores',
      body: html`<h1>${PRIVACY_MESSAGES[lang].title}</h1>
${privacyRequestsSection({ requests: await deps.privacy.requests.list(), lang })}`,
    });
  });
  const api = requireAdminSession(deps.sessions);
  router.get('/admin/api/privacy/requests', api, async (_req, res) => {
    res.json({ requests: await deps.privacy.requests.list() });
  });
  router.get('/admin/api/privacy/requests/:id/export', api, async (req, res) => {
    const held = await deps.privacy.held(String(req.params.id));
    if (!held) throw new ApiError('not_found', 'No such privacy request.');
    res.setHeader('Content-Disposition', `attachment; filename="privacy-request-${held.request.id}.json"`);
    res.json(held);
  });
  return router;
}
