import express, { type Response, Router } from 'express';
import * as z from 'zod/mini';
import { CepSchema } from '../../shared/cep-schema.ts';
import { ApiError } from '../../shared/errors.ts';
import { AgentLabelInputSchema } from '../../shared/labels/agent-label.ts';
import { PlanShipmentInputSchema } from '../../shared/packing/plan.ts';
import { adminSessionOf, requireAdminSession } from '../admin/gate.ts';
import type { AdminSessions } from '../admin/session.ts';
import { rateLimited } from '../http/errors.ts';
import { describeAnswer } from '../labels/answer.ts';
import type { ApprovalLimits } from '../labels/approvals.ts';
import { chargedPrice, chargedQuote } from '../labels/charged-price.ts';
import { DecisionRefused, type HistoryEntry, type OperatorDecisions } from '../labels/decisions.ts';
import type { LabelIssuer } from '../labels/issuer.ts';
import { ATTEMPT_STATES, type AttemptState, type LedgerAttempt } from '../labels/ledger.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';
import type { LabelService } from '../labels/service.ts';
import type { ServiceCodes } from '../labels/service-codes.ts';
import type { Logger } from '../logger.ts';
import { type PrintJob, printLabels } from '../orders/print.ts';
import type { ShipmentPlans } from '../packing/packing.ts';
import { APPROVAL_STATES, type Approval, type ApprovalStore } from '../policies/approval-store.ts';
import { type AgentPolicy, AgentPolicySchema, DESK } from '../policies/policies.ts';
import { DESK_CALLER, isQuoteShareSpent } from '../rates/quote-share.ts';
import { quoteShareMessage } from '../rates/routes.ts';
import type { RatesService } from '../rates/service.ts';
import { pickLanguage } from './language.ts';
import { MESSAGES, stateName } from './messages.ts';
import { ORDER_MESSAGES } from './order-messages.ts';

/** Sends a label answer as the desk's HTTP answer: its status, and the tool's structured result as the body. */
function sendLabelAnswer(res: Response, answer: Parameters<typeof describeAnswer>[0]): void {
  const { status, structured } = describeAnswer(answer);
  res.status(status).json(structured);
}

export interface DeskApiDeps {
  sessions: Pick<AdminSessions, 'current' | 'refusal'>;
  ledger: Pick<LedgerStore, 'list' | 'get' | 'byOrder'>;
  labels: Pick<LabelService, 'generate' | 'preview' | 'approvalLimits' | 'approve' | 'reject'>;
  issuer: Pick<LabelIssuer, 'labelPdf'>;
  decisions: Pick<OperatorDecisions, 'resolve' | 'evidence'>;
  approvals: Pick<ApprovalStore, 'list' | 'get'>;
  rates: Pick<RatesService, 'quote'>;
  serviceCodes: ServiceCodes;
  /** The desk's plans: the merchant's boxes, packed off the event loop within a time budget. */
  plans: Pick<ShipmentPlans, 'plan'>;
  /** The orders to ship (bff/orders/desk-routes.ts), behind the same gate; and each order's planned volumes. */
  orders?: { routes: Router; plannedVolumes(orderId: string): Promise<number | null> } | undefined;
  /** Whether the desk's cookies are `Secure` (the language cookie of the print's report page). */
  secure?: boolean;
  /** Sets an OAuth client's policy (absent without OAuth). */
  setClientPolicy?: ((idHash: string, policy: AgentPolicy | null) => Promise<boolean>) | undefined;
  logger: Logger;
}

/** The most labels one print joins into one PDF. */
export const MAX_PRINT = 100;
/** The most rows a page of the list answers. */
const MAX_PAGE = 200;

/** One row of the desk's list (docs/architecture.md, "Labels"). */
export function labelRow(attempt: LedgerAttempt) {
  return {
    attemptId: attempt.id,
    orderId: attempt.orderId,
    volume: attempt.volume,
    state: attempt.state,
    prepostagemId: attempt.prepostagemId,
    trackingCode: attempt.trackingCode,
    serviceCode: attempt.serviceCode,
    recipient: attempt.recipient,
    issuedBy: attempt.issuedBy,
    createdAt: new Date(attempt.createdAt).toISOString(),
  };
}

export function approvalRow(approval: Approval, limits?: ApprovalLimits) {
  return {
    approvalId: approval.id,
    state: approval.state,
    request: JSON.parse(approval.request) as unknown,
    issuedBy: approval.issuedBy,
    ...(approval.quotedPriceCents === null ? {} : { quotedPrice: approval.quotedPriceCents / 100 }),
    declaredValue: approval.declaredValueCents / 100,
    ...(limits ? { limitsLeft: limits } : {}),
    ...(approval.overLimit ? { approvedOverLimit: true } : {}),
    attemptId: approval.attemptId,
    createdAt: new Date(approval.createdAt).toISOString(),
    expiresAt: new Date(approval.expiresAt).toISOString(),
  };
}

/** The desk's list: `GET /admin/api/labels` and the `/admin/labels` page. */
export const ListQuerySchema = z.object({
  state: z.optional(z.enum(ATTEMPT_STATES)),
  q: z.optional(z.string().check(z.maxLength(160))),
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_PAGE))),
  /** The cursor of the next page: `<createdAt ms>.<attemptId>`. */
  before: z.optional(z.string().check(z.regex(/^\d{1,16}\.[0-9a-f-]{36}$/))),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/** One page of the ledger, newest first, and the cursor of the page after it when there is one. */
export async function labelPage(
  ledger: Pick<LedgerStore, 'list'>,
  query: ListQuery,
): Promise<{ attempts: LedgerAttempt[]; next?: string }> {
  const [at, id] = query.before?.split('.') ?? [];
  const limit = query.limit ?? 50;
  const attempts = await ledger.list({
    state: query.state as AttemptState | undefined,
    q: query.q,
    limit: limit + 1,
    before: at && id ? { createdAt: Number(at), id } : undefined,
  });
  const page = attempts.slice(0, limit);
  const last = page.at(-1);
  return {
    attempts: page,
    ...(attempts.length > limit && last ? { next: `${last.createdAt}.${last.id}` } : {}),
  };
}

const ResolveSchema = z.union([
  z.strictObject({
    prepostagemId: z.string().check(z.minLength(1), z.maxLength(60)),
    trackingCode: z.optional(z.string().check(z.maxLength(20))),
    force: z.optional(z.string().check(z.maxLength(500))),
  }),
  z.strictObject({ notCreated: z.literal(true), force: z.optional(z.string().check(z.maxLength(500))) }),
]);

const QuoteSchema = z.strictObject({
  destinationCep: CepSchema,
  /** One line per volume the plan answered. */
  volumes: z
    .array(z.strictObject({ weightGrams: z.number().check(z.gt(0)) }))
    .check(z.minLength(1), z.maxLength(50)),
  /**
   * The order's declared value (BRL). Accepted and not quoted with: the desk shows what the labels cost the store, as
   * the carrier charges them, never a free-shipping price of the shopper's.
   */
  declaredValue: z.optional(z.number().check(z.minimum(0))),
});

/** `POST …/approve`: `overLimit: true` is the merchant's second confirmation of a label over the agent's limits. */
const ApproveSchema = z.optional(z.strictObject({ overLimit: z.optional(z.boolean()) }));

/** Parses a body with a schema, or throws the spec 7.1 `invalid_body` error naming the first problem. */
function parse<T>(schema: z.ZodMiniType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ApiError('invalid_body', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
}

/** The platform's history beside an unknown attempt; null, and why, when it cannot be read now. */
export async function historyOf(
  decisions: Pick<OperatorDecisions, 'evidence'>,
  attemptId: string,
): Promise<{ history: HistoryEntry[] } | { history: null; historyError: string }> {
  try {
    return { history: (await decisions.evidence(attemptId)).history };
  } catch (error) {
    if (error instanceof DecisionRefused) return { history: null, historyError: error.message };
    throw error;
  }
}

/** Throws the refusal of a decision on an approval that is not pending: 404 when there is none, else 409. */
function assertPending<T extends object>(
  approvalId: string | undefined,
  decided: T | { missing: true } | { notPending: string },
): asserts decided is T {
  if ('missing' in decided) throw new ApiError('not_found', `no approval ${approvalId}`);
  if ('notPending' in decided)
    throw new ApiError('approval_not_pending', `the approval is ${decided.notPending}`);
}

/**
 * The label desk's JSON API (docs/architecture.md, "Labels"), behind the merchant's /admin
 * session: the desk's pages use it, and so can a script (log in at `POST /admin/login`, then `GET /admin/api/session`
 * for the CSRF token, sent as `X-CSRF-Token` with every POST). Every label goes through the labels service as the
 * `desk` caller, with the same plausibility rules as an agent's.
 */
export function deskApiRoutes(deps: DeskApiDeps): Router {
  const router = Router();
  const json = express.json({ limit: '64kb' });

  // Every call needs a session; every POST also its CSRF token and an Origin of ours (bff/admin/gate.ts).
  router.use('/admin/api', requireAdminSession(deps.sessions));

  if (deps.orders) router.use(deps.orders.routes);

  router.get('/admin/api/session', (_req, res) => {
    res.json({ csrfToken: adminSessionOf(res).csrf });
  });

  router.get('/admin/api/labels', async (req, res) => {
    const { attempts, next } = await labelPage(deps.ledger, parse(ListQuerySchema, req.query));
    res.json({ labels: attempts.map(labelRow), ...(next ? { next } : {}) });
  });

  router.post('/admin/api/labels', json, async (req, res) => {
    const input = parse(AgentLabelInputSchema, req.body);
    sendLabelAnswer(res, await deps.labels.generate(input, DESK));
  });

  router.post('/admin/api/labels/preview', json, async (req, res) => {
    res.json(await deps.labels.preview(parse(AgentLabelInputSchema, req.body), DESK));
  });

  router.post('/admin/api/plan', json, async (req, res) => {
    const plan = await deps.plans.plan(parse(PlanShipmentInputSchema, req.body));
    if ('reason' in plan && plan.retryAfterSeconds)
      res.setHeader('Retry-After', String(plan.retryAfterSeconds));
    res.status(!('reason' in plan) ? 200 : plan.reason === 'planner_busy' ? 503 : 422).json(plan);
  });

  router.post('/admin/api/quote', json, async (req, res) => {
    const quote = parse(QuoteSchema, req.body);
    const response = await deps.rates
      .quote(chargedQuote(quote.destinationCep, quote.volumes), DESK_CALLER)
      .catch((error: unknown) => {
        // The desk's share of the quotes is spent: 429 with Retry-After (cached quotes are still answered).
        if (!isQuoteShareSpent(error)) throw error;
        throw rateLimited(res, error.retryAfterSeconds, quoteShareMessage(error.retryAfterSeconds));
      });
    // A rate the platform still marks free has no price the carrier charges to tell: it is left out, never shown as 0.
    const charged = response.rates.filter((rate) => chargedPrice(rate) !== undefined);
    res.json({ ...response, rates: deps.serviceCodes.withCodes(charged) });
  });

  // The labels as one PDF, each page stamped with its order and volume ("PED-2001 · 1/2"); a label that cannot be
  // printed does not stop the others: a last page says which and why, in the desk's language (docs/orders.md).
  router.get('/admin/api/labels/print', async (req, res) => {
    const ids = String(req.query.ids ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    if (ids.length === 0 || ids.length > MAX_PRINT) {
      throw new ApiError('invalid_body', `ids: 1 to ${MAX_PRINT} attempt ids, comma-separated`);
    }
    const lang = pickLanguage(req, res, deps.secure ?? false);
    const words = ORDER_MESSAGES[lang];
    const jobs: PrintJob[] = [];
    const volumesOf = new Map<string, number>();
    for (const id of ids) {
      const attempt = await deps.ledger.get(id);
      const orderId = attempt?.orderId ?? null;
      if (orderId !== null && !volumesOf.has(orderId)) {
        const labels = await deps.ledger.byOrder(orderId);
        const reached = labels.filter((a) => a.state !== 'rejected' && a.state !== 'not_sent');
        const planned = (await deps.orders?.plannedVolumes(orderId)) ?? 0;
        volumesOf.set(orderId, Math.max(planned, ...reached.map((a) => a.volume ?? 1)));
      }
      jobs.push({ id, attempt, of: orderId === null ? 1 : (volumesOf.get(orderId) ?? 1) });
    }
    const { pdf, printed } = await printLabels(
      jobs,
      async (attempt) => {
        try {
          const label = await deps.issuer.labelPdf(attempt.prepostagemId ?? '');
          return label.labelPdfBase64
            ? Buffer.from(label.labelPdfBase64, 'base64')
            : { why: words.whyNotReady(label.status ?? '') };
        } catch {
          return { why: words.whyNoAnswer };
        }
      },
      words,
      {
        notCreated: (state) => words.whyNotCreated(stateName(MESSAGES[lang], state)),
        missing: words.whyMissing,
        unreadable: words.whyUnreadable,
      },
    );
    if (printed === 0)
      throw new ApiError('label_not_printable', `no printable label among: ${ids.join(', ')}`);
    res
      .status(200)
      .type('application/pdf')
      .setHeader('Content-Disposition', `inline; filename="etiquetas-${ids.length}.pdf"`)
      .send(Buffer.from(pdf));
  });

  router.get('/admin/api/labels/:attemptId', async (req, res) => {
    const attempt = await deps.ledger.get(req.params.attemptId ?? '');
    if (!attempt) throw new ApiError('not_found', `no attempt ${req.params.attemptId}`);
    const detail = {
      ...labelRow(attempt),
      request: JSON.parse(attempt.request) as unknown,
      status: attempt.status,
      reason: attempt.reason,
      supportCode: attempt.supportCode,
      settledBy: attempt.settledBy,
      settledAt: attempt.settledAt === null ? null : new Date(attempt.settledAt).toISOString(),
      note: attempt.note,
      unknownWhy: attempt.unknownWhy,
    };
    // An unknown outcome: the platform's recent attempts beside it, each saying whether it is this very request.
    const history = attempt.state === 'unknown' ? await historyOf(deps.decisions, attempt.id) : {};
    res.json({ label: detail, ...history });
  });

  // An attempt that never reached the platform (`not_sent`, e.g. after "nothing was created") sent again as the same
  // intended label: its request, order, volume and key, so an agent asking again later gets this label.
  router.post('/admin/api/labels/:attemptId/resend', async (req, res) => {
    const attempt = await deps.ledger.get(req.params.attemptId ?? '');
    if (!attempt) throw new ApiError('not_found', `no attempt ${req.params.attemptId}`);
    if (attempt.state !== 'not_sent') {
      const message = `the attempt is ${attempt.state}; only an attempt that was not sent is sent again`;
      throw new ApiError('not_resendable', message);
    }
    const input = parse(AgentLabelInputSchema, {
      ...(JSON.parse(attempt.request) as object),
      ...(attempt.orderId === null ? {} : { orderId: attempt.orderId, volume: attempt.volume ?? 1 }),
      ...(attempt.idempotencyKey === null ? {} : { idempotencyKey: attempt.idempotencyKey }),
    });
    sendLabelAnswer(res, await deps.labels.generate(input, DESK));
  });

  router.post('/admin/api/labels/:attemptId/resolve', json, async (req, res) => {
    const body = parse(ResolveSchema, req.body);
    const decision =
      'notCreated' in body
        ? { notCreated: true as const }
        : { created: body.prepostagemId, trackingCode: body.trackingCode };
    try {
      const settled = await deps.decisions.resolve(req.params.attemptId ?? '', decision, {
        by: 'the merchant (desk)',
        force: body.force === undefined ? undefined : { reason: body.force },
      });
      res.json({ label: labelRow(settled) });
    } catch (error) {
      if (!(error instanceof DecisionRefused)) throw error;
      throw new ApiError(error.code, error.message);
    }
  });

  // Every pending approval (with what its agent may still issue today), then the most recent decided ones.
  router.get('/admin/api/approvals', async (req, res) => {
    const state = APPROVAL_STATES.find((known) => known === req.query.state);
    const approvals = await deps.approvals.list(state ? { state } : {});
    const rows = await Promise.all(
      approvals.map(async (approval) =>
        approvalRow(
          approval,
          approval.state === 'pending' ? await deps.labels.approvalLimits(approval) : undefined,
        ),
      ),
    );
    res.json({ approvals: rows });
  });

  router.post('/admin/api/approvals/:approvalId/approve', json, async (req, res) => {
    const confirm = parse(ApproveSchema, req.body) ?? {};
    const approved = await deps.labels.approve(req.params.approvalId ?? '', confirm);
    assertPending(req.params.approvalId, approved);
    if ('overLimit' in approved) {
      const { over, ...limitsLeft } = approved.overLimit;
      const message = `This label is over the agent's ${over === 'maxLabelsPerDay' ? 'labels per day' : 'declared value per day'} (${over}); nothing was sent. Approve it again with {"overLimit": true} to issue it anyway: it counts against the agent's day.`;
      throw new ApiError('agent_limit_reached', message, undefined, { limit: over, limitsLeft });
    }
    sendLabelAnswer(res, approved.answer);
  });

  router.post('/admin/api/approvals/:approvalId/reject', async (req, res) => {
    assertPending(req.params.approvalId, await deps.labels.reject(req.params.approvalId ?? ''));
    res.json({ approval: approvalRow((await deps.approvals.get(req.params.approvalId ?? '')) as Approval) });
  });

  router.post('/admin/api/agents/:clientId/policy', json, async (req, res) => {
    if (!deps.setClientPolicy) throw new ApiError('not_found', 'OAuth is off: agents are the static tokens');
    const body =
      req.body === null || (typeof req.body === 'object' && Object.keys(req.body).length === 0)
        ? null
        : parse(AgentPolicySchema, req.body);
    if (!(await deps.setClientPolicy(req.params.clientId ?? '', body))) {
      throw new ApiError('not_found', `no OAuth client ${req.params.clientId}`);
    }
    res.json({ policy: body });
  });

  return router;
}
