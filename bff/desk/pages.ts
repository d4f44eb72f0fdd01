import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Request, type Response, Router } from 'express';
import { saoPauloDay } from '../../shared/business-days.ts';
import type { DeliveryPromise, DeliveryPromises } from '../../shared/delivery-promise.ts';
import { type Html, html } from '../../shared/html.ts';
import { GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import type { Party } from '../../shared/labels/party.ts';
import type { Locale } from '../../shared/locale.ts';
import { serviceName } from '../../shared/service-name.ts';
import type { AdminSession, AdminSessions } from '../admin/session.ts';
import type { OperatorDecisions } from '../labels/decisions.ts';
import type { LedgerAttempt } from '../labels/ledger.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';
import type { LabelService } from '../labels/service.ts';
import type { ServiceCodes } from '../labels/service-codes.ts';
import type { OrderDesk } from '../orders/order-desk.ts';
import type { ApprovalStore } from '../policies/approval-store.ts';
import type { TransitHistory } from '../promise/history-store.ts';
import type { LaneKept } from '../promise/kept.ts';
import { promiseKept } from '../promise/kept.ts';
import { historyOf, ListQuerySchema, labelPage } from './api.ts';
import { approvalsBody } from './approvals-page.ts';
import { attemptBody } from './attempt-page.ts';
import { issueBody } from './issue-page.ts';
import { labelsBody } from './labels-page.ts';
import { pickLanguage } from './language.ts';
import {
  DESK_CSS_PATH,
  type DeskPageOptions,
  type DeskSection,
  sendDeskPage,
  sendLoginPage,
} from './layout.ts';
import { MESSAGES, type Messages } from './messages.ts';
import { ORDER_MESSAGES } from './order-messages.ts';
import { ORDER_PAGE_FILTERS, orderReviewBody, ordersBody } from './orders-page.ts';
import { promiseBody } from './promise-page.ts';
import { readStored } from './view-parts.ts';

/** Where `npm run build` writes the desk's script (`vite build --mode desk`). */
export const DESK_SCRIPT_DIR = new URL('../../dist/desk/', import.meta.url).pathname;
const CSS = readFileSync(new URL('./desk.css', import.meta.url), 'utf8');
const ATTEMPT_ID = /^[0-9a-f-]{36}$/;

export interface DeskPagesDeps {
  sessions: AdminSessions;
  ledger: LedgerStore;
  decisions: Pick<OperatorDecisions, 'evidence'>;
  approvals: ApprovalStore;
  /** What each pending approval's agent may still issue today. */
  labels: Pick<LabelService, 'approvalLimits'>;
  serviceCodes: ServiceCodes;
  /** The BFF's public URL: its cookies are `Secure` when it is https. */
  publicUrl: string;
  /** The orders to ship (`/admin/orders`); absent: no orders page. */
  orders?: OrderDesk | undefined;
  /** Where the built script is (default `dist/desk/`), for tests. */
  scriptDir?: string;
  /** The delivery promise's history (bff/promise/), for the promise kept. */
  transits: Pick<TransitHistory, 'scored'>;
  /** The clock of the promise's scores (the sandbox's under `BFF_TEST_CLOCK`). */
  workNow?: () => number;
  /** The promise a quote gets today on each lane (bff/promise/), shown beside its scores. */
  promises?: Pick<DeliveryPromises, 'promiseFor'> | undefined;
}

/** How far back the desk's promise kept reaches. */
const PROMISE_DAYS = 90;

/** What a page handler has: the merchant's session, language and words. */
interface Visit {
  session: AdminSession;
  lang: Locale;
  t: Messages;
}

/** A page's own part: its title, what the script does there, its section in the navigation, its content. */
interface PageContent {
  status?: number;
  title: string;
  page: string;
  section: DeskSection;
  body: Html;
}

/**
 * The label desk's pages behind the merchant's /admin login (docs/architecture.md, "Labels"):
 * `/admin/labels` (the ledger, searched, printed), `/admin/labels/new` (an order's labels from its items),
 * `/admin/labels/<attemptId>` (one attempt beside the platform's history, and the decision on an unknown one) and
 * `/admin/approvals`. Everything that can be is rendered here; actions go through the desk's JSON API
 * (`deskApiRoutes`) from one ES module, `/admin/assets/desk.js`. A visit without a session shows the login form and
 * comes back to the page after it.
 */
export function deskPageRoutes(deps: DeskPagesDeps): Router {
  const router = Router();
  const secure = deps.publicUrl.startsWith('https:');
  const scriptDir = deps.scriptDir ?? DESK_SCRIPT_DIR;
  // A contract code as the merchant knows it: the quote's service, then the code itself.
  const serviceNameOf = (serviceCode: string | null): Html | string => {
    if (serviceCode === null) return '—';
    const id = deps.serviceCodes.idOf(serviceCode);
    return id ? html`${serviceName(id)} <span class="muted code">${serviceCode}</span>` : serviceCode;
  };

  router.get(DESK_CSS_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('css').send(CSS);
  });
  router.use(
    '/admin/assets',
    express.static(scriptDir, {
      index: false,
      setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache'),
    }),
  );

  const send = (req: Request, res: Response, options: Omit<DeskPageOptions, 'here'>, status = 200) =>
    sendDeskPage(res, status, { ...options, here: req.originalUrl });

  /** The visit's session and language; without a session, the login form (and undefined). */
  const visit = async (req: Request, res: Response): Promise<Visit | undefined> => {
    const lang = pickLanguage(req, res, secure);
    const t = MESSAGES[lang];
    const session = await deps.sessions.current(req);
    if (session) return { session, lang, t };
    sendLoginPage(req, res, { lang, sessions: deps.sessions, secure });
    return undefined;
  };

  const show =
    (handler: (visit: Visit, req: Request) => Promise<PageContent>) =>
    async (req: Request, res: Response) => {
      const current = await visit(req, res);
      if (!current) return;
      const { status, ...content } = await handler(current, req);
      const { lang, session } = current;
      const pendingApprovals = (await deps.approvals.list({ state: 'pending' })).length;
      const scriptMissing = !existsSync(join(scriptDir, 'desk.js'));
      send(req, res, { ...content, lang, session, pendingApprovals, scriptMissing }, status);
    };

  router.get(
    '/admin/labels',
    show(async ({ t, lang }, req) => {
      const parsed = ListQuerySchema.safeParse(req.query);
      const query = parsed.success ? parsed.data : {};
      const { attempts, next } = await labelPage(deps.ledger, query);
      return {
        title: t.labelsTitle,
        page: 'labels',
        section: 'labels',
        body: labelsBody({ t, lang, query, attempts, next, serviceName: serviceNameOf }),
      };
    }),
  );

  const orderDesk = deps.orders;
  if (orderDesk) {
    router.get(
      '/admin/orders',
      show(async ({ t, lang }, req) => {
        const filter = ORDER_PAGE_FILTERS.find((f) => f === req.query.state) ?? 'to_ship';
        const orders = await orderDesk.list({ state: filter === 'all' ? undefined : filter, price: true });
        const o = ORDER_MESSAGES[lang];
        return {
          title: o.ordersTitle,
          page: 'orders',
          section: 'orders',
          body: ordersBody({
            t,
            o,
            lang,
            orders,
            filter,
            sender: await lastSender(deps.ledger),
            presets: await orderDesk.presets(),
            printable: await printableToday(orderDesk),
          }),
        };
      }),
    );
    router.get(
      '/admin/orders/:orderId',
      show(async ({ t, lang }, req) => {
        const o = ORDER_MESSAGES[lang];
        const order = await orderDesk.view(String(req.params.orderId));
        if (!order)
          return {
            status: 404,
            title: o.orderNotFound,
            page: 'order',
            section: 'orders',
            body: html`<p class="back"><a href="/admin/orders">${o.back}</a></p><h1>${o.orderNotFound}</h1>`,
          };
        return {
          title: o.reviewTitle(order.orderId),
          page: 'order',
          section: 'orders',
          body: orderReviewBody({ t, o, order, done: req.query.done === 'saved' }),
        };
      }),
    );
  }

  router.get(
    '/admin/labels/new',
    show(async ({ t }) => ({
      title: t.issueTitle,
      page: 'issue',
      section: 'labels',
      body: issueBody({ t, sender: await lastSender(deps.ledger) }),
    })),
  );

  router.get(
    '/admin/labels/:attemptId',
    show(async ({ t, lang }, req) => {
      const id = typeof req.params.attemptId === 'string' ? req.params.attemptId : '';
      const attempt = ATTEMPT_ID.test(id) ? await deps.ledger.get(id) : undefined;
      if (!attempt) return notFound(t);
      const history =
        attempt.state === 'unknown' ? (await historyOf(deps.decisions, attempt.id)).history : undefined;
      const done = attemptNotice(t, attempt, req.query.done);
      return {
        title:
          attempt.orderId === null
            ? t.attemptNoOrder
            : t.attemptTitle(attempt.orderId, String(attempt.volume ?? 1)),
        page: 'attempt',
        section: 'labels',
        body: attemptBody({ t, lang, attempt, history, serviceName: serviceNameOf, done }),
      };
    }),
  );

  router.get(
    '/admin/approvals',
    show(async ({ t, lang }, req) => {
      // Every pending approval, however many were decided since; then the 50 most recent decided ones.
      const all = await deps.approvals.list({ limit: 50 });
      const pending = all.filter((approval) => approval.state === 'pending');
      const decided = all.filter((approval) => approval.state !== 'pending');
      const limits = new Map(
        await Promise.all(
          pending.map(async (approval) => [approval.id, await deps.labels.approvalLimits(approval)] as const),
        ),
      );
      const issued = new Map<string, LedgerAttempt>();
      for (const approval of decided) {
        const attempt = approval.attemptId ? await deps.ledger.get(approval.attemptId) : undefined;
        if (attempt) issued.set(approval.id, attempt);
      }
      const done = approvalNotice(t, req.query, issued);
      return {
        title: t.approvalsTitle,
        page: 'approvals',
        section: 'approvals',
        body: approvalsBody({ t, lang, pending, decided, issued, limits, serviceName: serviceNameOf, done }),
      };
    }),
  );

  router.get(
    '/admin/promise',
    show(async ({ t, lang }) => {
      const now = (deps.workNow ?? Date.now)();
      const today = saoPauloDay(now).day;
      const kept = promiseKept(await deps.transits.scored(today - PROMISE_DAYS));
      const { all } = kept;
      const lanes = await Promise.all(
        kept.lanes.map(async (lane) => ({ ...lane, today: await todayOf(deps.promises, lane, now) })),
      );
      return {
        title: t.promiseTitle,
        page: 'promise',
        section: 'promise',
        body: promiseBody({ t, lang, days: PROMISE_DAYS, all, lanes }),
      };
    }),
  );

  return router;
}

function notFound(t: Messages): PageContent {
  return {
    status: 404,
    title: t.attemptNotFound,
    page: 'attempt',
    section: 'labels',
    body: html`<p class="back"><a href="/admin/labels">${t.back}</a></p>
<h1>${t.attemptNotFound}</h1>`,
  };
}

/** What the attempt page says first after the script settled or resent it (`?done=`). */
function attemptNotice(t: Messages, attempt: LedgerAttempt, done: unknown): string | undefined {
  if (done === 'created' && attempt.state === 'created' && attempt.prepostagemId) {
    return t.resolvedCreated(attempt.prepostagemId);
  }
  if (done === 'not_created' && attempt.state === 'not_sent') return t.resolvedNotCreated;
  if (done === 'resent') return t.resent;
  return undefined;
}

/** What the approvals page says first after the script approved or rejected one (`?done=…&id=…`). */
function approvalNotice(
  t: Messages,
  query: Request['query'],
  issued: ReadonlyMap<string, LedgerAttempt>,
): string | undefined {
  if (query.done === 'rejected') return t.rejectedDone;
  if (query.done !== 'approved') return undefined;
  const attempt = typeof query.id === 'string' ? issued.get(query.id) : undefined;
  return attempt?.prepostagemId ? t.approvedDone(attempt.prepostagemId) : t.approvedOpen;
}

/** The sender of the newest label in the ledger: the store's usual origin, the issue form's starting point. */
async function lastSender(ledger: LedgerStore): Promise<Party | undefined> {
  const [newest] = await ledger.list({ limit: 1 });
  return newest && readStored(GenerateLabelInputSchema, newest.request)?.sender;
}

/** The most labels the print link of the orders page names (its URL stays short). */
const PRINT_TODAY_MAX = 200;

/** Today's created labels of orders (São Paulo day), oldest first: what the orders page's print link prints. */
async function printableToday(orderDesk: Pick<OrderDesk, 'labelsOfDay'>): Promise<string[]> {
  const { labels } = await orderDesk.labelsOfDay(undefined);
  return labels
    .filter((label) => label.state === 'created' && label.prepostagemId && label.orderId)
    .slice(-PRINT_TODAY_MAX)
    .map((label) => label.id);
}

/**
 * The promise a quote on this lane gets now: asked for the lane's latest destination (its CEP prefix) and the platform's
 * count that parcel was quoted; undefined when it cannot be asked.
 */
async function todayOf(
  promises: Pick<DeliveryPromises, 'promiseFor'> | undefined,
  lane: LaneKept,
  at: number,
): Promise<DeliveryPromise | undefined> {
  const { destPrefix, platformDays } = lane.latest;
  if (!promises || platformDays === null || !/^\d{3}$/.test(destPrefix)) return undefined;
  return promises
    .promiseFor({
      destinationCep: `${destPrefix}00000`,
      serviceId: lane.serviceId,
      deliveryDays: platformDays,
      at,
    })
    .catch(() => undefined);
}
