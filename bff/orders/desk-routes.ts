import express, { type Request, type Response, Router } from 'express';
import * as z from 'zod/mini';
import { CepSchema } from '../../shared/cep-schema.ts';
import { ApiError } from '../../shared/errors.ts';
import { parseInput } from '../../shared/issues.ts';
import { PartySchema } from '../../shared/labels/party.ts';
import { csvRefusal } from '../../shared/orders/csv-problem.ts';
import { OrderRecipientSchema, StoreOrderSchema } from '../../shared/orders/order.ts';
import type { Logger } from '../logger.ts';
import type { FulfillmentStore, TrackingBack } from '../stores/tracking-back.ts';
import type { CepLookup } from './cep-directory.ts';
import { CSV_TEMPLATE, CsvRefused, readOrdersCsv } from './csv-import.ts';
import { ORDER_LIST_STATES, type OrderDesk } from './order-desk.ts';
import { type OrderStore, PresetSchema } from './order-store.ts';
import type { ReviewDeps } from './review.ts';
import { reviewed } from './review.ts';

export interface OrderDeskRoutesDeps extends ReviewDeps {
  desk: OrderDesk;
  orders: OrderStore;
  cep: CepLookup;
  fulfillments: FulfillmentStore;
  trackingBack: Pick<TrackingBack, 'drain'>;
  logger: Logger;
  now?: () => number;
}

/** The most orders one batch issues. */
export const MAX_BATCH = 100;

const ListSchema = z.object({
  state: z.optional(z.enum(ORDER_LIST_STATES)),
  price: z.optional(z.enum(['0', '1'])),
});

const BatchSchema = z.strictObject({
  orderIds: z
    .array(z.string().check(z.minLength(1), z.maxLength(160)))
    .check(z.minLength(1), z.maxLength(MAX_BATCH)),
  sender: PartySchema,
});

const ReviewSchema = z.strictObject({
  recipient: OrderRecipientSchema,
  serviceId: z.optional(z.string().check(z.maxLength(60))),
  /** The operator keeps the address although the CEP service names another city or state. */
  confirm: z.optional(z.boolean()),
});

/**
 * The desk's orders API (docs/orders.md; ARCHITECTURE "Store orders"), mounted by `deskApiRoutes` behind the admin
 * gate (bff/admin/gate.ts: session, CSRF token, Origin): the orders to ship, the CSV import (with its preview and template), a batch of labels in one action,
 * an order's review, the tracking resent to the store, product presets and the address of a CEP.
 */
export function orderDeskRoutes(deps: OrderDeskRoutesDeps): Router {
  const router = Router();
  const json = express.json({ limit: '256kb' });
  const csv = express.text({ type: () => true, limit: '2mb' });

  router.get('/admin/api/orders', async (req, res) => {
    const query = parseInput(ListSchema, req.query);
    res.json({ orders: await deps.desk.list({ state: query.state, price: query.price === '1' }) });
  });

  router.get('/admin/api/orders/import/template', (_req, res) => {
    res
      .type('text/csv; charset=utf-8')
      .setHeader('Content-Disposition', 'attachment; filename="pedidos.csv"')
      .send(CSV_TEMPLATE);
  });

  router.post('/admin/api/orders/import', csv, async (req: Request, res: Response) => {
    const type = req.get('content-type') ?? '';
    if (!/^text\/(csv|plain)\b/i.test(type))
      throw new ApiError('invalid_body', 'Send the file as Content-Type: text/csv.');
    let read: Awaited<ReturnType<typeof readOrdersCsv>>;
    try {
      read = await readOrdersCsv(typeof req.body === 'string' ? req.body : '', deps);
    } catch (error) {
      if (error instanceof CsvRefused)
        throw new ApiError('invalid_body', error.message, undefined, {
          line: error.refusal.line,
          problem: error.refusal.problem,
        });
      throw error;
    }
    const refused = [...read.refused];
    if (req.query.preview === '1') {
      const taken = await deps.orders.taken(read.orders.map(({ order }) => order.orderId));
      const orders = [];
      for (const { order, lines } of read.orders) {
        if (taken.has(order.orderId))
          for (const line of lines)
            refused.push(csvRefusal(line, { code: 'exists', orderId: order.orderId }));
        else orders.push(order);
      }
      refused.sort((a, b) => a.line - b.line);
      return void res.json({ preview: true, orders, refused });
    }
    let imported = 0;
    for (const { order, lines } of read.orders) {
      const received = await deps.orders.receive(order);
      if (received === 'created') imported += 1;
      else
        for (const line of lines) refused.push(csvRefusal(line, { code: 'exists', orderId: order.orderId }));
    }
    refused.sort((a, b) => a.line - b.line);
    deps.logger.info({ imported, refused: refused.length }, 'orders: CSV imported');
    res.json({ imported, refused });
  });

  router.post('/admin/api/orders/labels', json, async (req, res) => {
    const batch = parseInput(BatchSchema, req.body);
    res.json({ results: await deps.desk.issue([...new Set(batch.orderIds)], batch.sender) });
  });

  router.get('/admin/api/orders/:orderId', async (req, res) => {
    const order = await deps.desk.view(String(req.params.orderId));
    if (!order) throw new ApiError('not_found', `no order ${req.params.orderId}`);
    res.json({ order });
  });

  router.post('/admin/api/orders/:orderId/review', json, async (req, res) => {
    const body = parseInput(ReviewSchema, req.body);
    const stored = await deps.orders.get(String(req.params.orderId));
    if (!stored) throw new ApiError('not_found', `no order ${req.params.orderId}`);
    const {
      receivedAt: _r,
      updatedAt: _u,
      plannedVolumes: _p,
      needsReview: _n,
      rawAddress: _raw,
      ...order
    } = stored;
    const checked = await reviewed(
      { ...order, recipient: body.recipient, ...(body.serviceId ? { serviceId: body.serviceId } : {}) },
      deps,
    );
    const kept = body.confirm
      ? checked.needsReview.filter(
          (r) => !['city_mismatch', 'uf_mismatch', 'cep_not_found'].includes(r.reason),
        )
      : checked.needsReview;
    // What the store sent beyond a label's bounds (its lines, quantities, weights, values) is not the recipient's to
    // correct here: it stays until the store sends the order again.
    const beyond = stored.needsReview.filter(
      (r) => r.reason === 'out_of_bounds' && !/^(recipient|serviceId)/.test(r.field),
    );
    const next = StoreOrderSchema.parse({ ...checked, needsReview: [...beyond, ...kept] });
    await deps.orders.replace(next);
    res.json({ order: await deps.desk.view(next.orderId) });
  });

  router.post('/admin/api/orders/:orderId/tracking/resend', async (req, res) => {
    const resent = await deps.fulfillments.resend(String(req.params.orderId), (deps.now ?? Date.now)());
    if (!resent) throw new ApiError('not_found', `no tracking to send for order ${req.params.orderId}`);
    void deps.trackingBack.drain().catch(() => undefined);
    res.json({ state: resent.state });
  });

  router.get('/admin/api/products', async (_req, res) => {
    res.json({ presets: await deps.orders.presets() });
  });

  router.post('/admin/api/products', json, async (req, res) => {
    res.json({ preset: await deps.orders.savePreset(parseInput(PresetSchema, req.body)) });
  });

  router.get('/admin/api/cep/:cep', async (req, res) => {
    const cep = CepSchema.safeParse(String(req.params.cep));
    if (!cep.success) throw new ApiError('invalid_destination_cep');
    const answer = await deps.cep.lookup(cep.data);
    res.json(answer);
  });

  return router;
}
