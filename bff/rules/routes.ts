import express, { type Request, Router } from 'express';
import * as z from 'zod/mini';
import { CepSchema } from '../../shared/cep-schema.ts';
import { ApiError } from '../../shared/errors.ts';
import { parseInput } from '../../shared/issues.ts';
import { centavos } from '../../shared/money.ts';
import { MAX_ITEMS } from '../../shared/platform-limits.ts';
import { QuoteItemSchema } from '../../shared/quote.ts';
import { parseRules, type Rule, rulesProblemText, rulesWarnings } from '../../shared/shipping-rules.ts';
import { requireAdminSession } from '../admin/gate.ts';
import type { AdminSessions } from '../admin/session.ts';
import { jsonOnly, methodNotAllowed, rateLimited } from '../http/errors.ts';
import type { Logger } from '../logger.ts';
import { DESK_CALLER, isQuoteShareSpent } from '../rates/quote-share.ts';
import { quoteShareMessage } from '../rates/routes.ts';
import type { RatesService } from '../rates/service.ts';
import { cors } from '../tracking/routes.ts';
import { RULES_CACHE_MS, type ShippingRulesStore } from './rules-store.ts';

/** A rules document of `MAX_RULES` rules with long lists stays far under this. */
const BODY_LIMIT = '64kb';

/**
 * `GET /api/shipping-rules` → `{version, rules}`: public (the calculator reads it from any store's page, through its
 * `rules-url`), cacheable for the cache period, and holding nothing secret — the rules are what the shopper is shown.
 */
export function shippingRulesRoutes(deps: { store: Pick<ShippingRulesStore, 'current'> }): Router {
  const router = Router();
  router.use('/api/shipping-rules', cors('*'));
  router.get('/api/shipping-rules', async (_req, res) => {
    const rules = await deps.store.current();
    res.setHeader('Cache-Control', `public, max-age=${RULES_CACHE_MS / 1000}`);
    res.json(rules);
  });
  router.all('/api/shipping-rules', methodNotAllowed('GET'));
  return router;
}

export interface ShippingRulesAdminDeps {
  sessions: Pick<AdminSessions, 'current' | 'refusal'>;
  store: Pick<ShippingRulesStore, 'current' | 'write' | 'changes'>;
  rates: Pick<RatesService, 'quote' | 'shopperQuote'>;
  /** The services the store labels with (`BFF_SERVICE_CODES`' serviceIds), for the desk's warnings. */
  services: readonly string[];
  logger: Logger;
}

/** `POST /admin/api/shipping-rules/preview`: a cart and a CEP, and the rules to try (those in force without). */
const PreviewSchema = /* @__PURE__ */ z.strictObject({
  cep: CepSchema,
  items: z.array(QuoteItemSchema).check(z.minLength(1), z.maxLength(MAX_ITEMS)),
  rules: z.optional(z.unknown()),
  skus: z.optional(z.array(z.string().check(z.maxLength(200))).check(z.maxLength(MAX_ITEMS))),
});

/**
 * The merchant's side, behind the admin gate (session; CSRF and Origin for a write):
 * - `PUT /admin/api/shipping-rules` `{rules}` → `{version}`; an invalid document → `400 invalid_body` naming the rule
 *   and the field (`details.rule`, `details.field`), and the rules in force are kept. Every change is logged (who,
 *   when, before and after) and kept as a version (`GET /admin/api/shipping-rules/changes`).
 * - `POST /admin/api/shipping-rules/preview` → each option before and after the rules, through the quote core, with
 *   the platform's price (what the label costs) and the difference the store keeps or pays per order.
 */
export function shippingRulesAdminRoutes(deps: ShippingRulesAdminDeps): Router {
  const router = Router();
  const json = express.json({ limit: BODY_LIMIT, type: () => true });
  router.use('/admin/api/shipping-rules', requireAdminSession(deps.sessions, 'api'));

  router.get('/admin/api/shipping-rules', async (_req, res) => {
    const current = await deps.store.current();
    res.json({ ...current, warnings: rulesWarnings(current.rules, deps.services) });
  });

  router.put('/admin/api/shipping-rules', jsonOnly, json, async (req, res) => {
    const parsed = parseRules(req.body);
    if ('problem' in parsed) {
      const { rule, field } = parsed.problem;
      throw new ApiError('invalid_body', rulesProblemText(parsed.problem), undefined, {
        ...(rule ? { rule } : {}),
        field,
      });
    }
    const before = await deps.store.current().catch(() => undefined);
    const changedBy = whoOf(req);
    const version = await deps.store.write(parsed.rules, changedBy);
    deps.logger.info(
      { version, changedBy, before: before?.rules ?? null, after: parsed.rules },
      'shipping rules: changed',
    );
    res.json({ version, warnings: rulesWarnings(parsed.rules, deps.services) });
  });

  router.get('/admin/api/shipping-rules/changes', async (_req, res) => {
    res.json({ changes: await deps.store.changes() });
  });

  router.post('/admin/api/shipping-rules/preview', jsonOnly, json, async (req, res) => {
    const { cep, items, skus, rules: asked } = parseInput(PreviewSchema, req.body);
    let rules: Rule[] | undefined;
    if (asked !== undefined) {
      const tried = parseRules({ rules: asked });
      if ('problem' in tried) {
        const { rule, field } = tried.problem;
        throw new ApiError('invalid_body', rulesProblemText(tried.problem), undefined, {
          ...(rule ? { rule } : {}),
          field,
        });
      }
      rules = tried.rules;
    }
    const request = { destinationCep: cep, items, skus };
    try {
      const before = await deps.rates.quote(request, DESK_CALLER);
      const after = await deps.rates.shopperQuote(request, DESK_CALLER, rules);
      res.json({
        ...(before.reason ? { reason: before.reason } : {}),
        options: before.rates.map((rate) => {
          const charged = after.rates.find((candidate) => candidate.serviceId === rate.serviceId);
          const platformPrice = after.platformPrices?.[rate.serviceId] ?? rate.price;
          return {
            serviceId: rate.serviceId,
            before: rate,
            after: charged ?? null,
            platformPrice,
            // What the store keeps (positive: its shipping margin) or pays (negative: its subsidy) on this order.
            difference: charged ? (centavos(charged.price) - centavos(platformPrice)) / 100 : null,
          };
        }),
        warnings: rulesWarnings(rules ?? (await deps.store.current()).rules, deps.services),
      });
    } catch (error) {
      if (!isQuoteShareSpent(error)) throw error;
      throw rateLimited(res, error.retryAfterSeconds, quoteShareMessage(error.retryAfterSeconds));
    }
  });

  router.all('/admin/api/shipping-rules', methodNotAllowed('GET, PUT'));
  return router;
}

/** Who changed the rules, for the log: the desk's one account, and where from. */
function whoOf(req: Request): string {
  return `admin (${req.ip ?? 'unknown address'})`;
}
