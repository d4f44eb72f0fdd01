import express, { type Router } from 'express';
import * as z from 'zod/mini';
import { NUVEMSHOP_ORDER_EVENTS } from '../../shared/checkouts/nuvemshop.ts';
import { ApiError } from '../../shared/errors.ts';
import { html } from '../../shared/html.ts';
import { parseInput } from '../../shared/issues.ts';
import { loopbackOnly } from '../http/loopback-only.ts';
import { strictRouter } from '../http/router.ts';
import { type EmulatedOrder, NewStoreOrderSchema } from './emulated-order.ts';
import { authenticateNuvemshop, fail, invalid, storeOf } from './nuvemshop-admin.ts';
import { type CheckoutPlatforms, callableUrl } from './state.ts';
import {
  afterFulfillment,
  cancelOrder,
  editOrder,
  refundOrder,
  releaseFulfillmentOrder,
} from './store-order-life.ts';

function platformOf(value: unknown): 'shopify' | 'nuvemshop' {
  if (value === 'shopify' || value === 'nuvemshop') return value;
  throw new ApiError('not_found', 'The sandbox plays the stores of shopify and nuvemshop.');
}

/**
 * The store platforms' orders (sandbox/README.md, "Store orders"): Nuvemshop's `GET /orders/<id>`,
 * `POST /orders/<id>/fulfill` and `/webhooks`, and the control API a test or the demo drives — a paid order made and
 * announced, changed after payment, a delivery sent again verbatim (a replay), the orders with what the store was told,
 * fulfillment calls made to fail — and a page that shows them.
 */
export function storeOrderRoutes(platforms: CheckoutPlatforms): Router {
  const router = strictRouter();
  const json = express.json({ limit: 200_000, type: () => true });
  const orders = platforms.orders;
  const nuvemshop = '/nuvemshop/v1/:store';
  const ordersScope = authenticateNuvemshop(platforms, { read: 'read_orders', write: 'write_orders' });

  router.get(`${nuvemshop}/orders/:id`, ordersScope, (req, res) => {
    const order = orders.orders.get(orders.key('nuvemshop', storeOf(res).id, String(req.params.id)));
    if (!order) return void fail(res, 404, 'Not Found', 'Order not found');
    res.json(order.body);
  });
  router.post(`${nuvemshop}/orders/:id/fulfill`, ordersScope, json, (req, res) => {
    const order = orders.orders.get(orders.key('nuvemshop', storeOf(res).id, String(req.params.id)));
    if (!order) return void fail(res, 404, 'Not Found', 'Order not found');
    if (orders.failing('nuvemshop')) return void fail(res, 500, 'Internal Server Error', 'Try again later');
    const body = (typeof req.body === 'object' && req.body) || {};
    const number = (body as Record<string, unknown>).shipping_tracking_number;
    const url = (body as Record<string, unknown>).shipping_tracking_url;
    if (order.body.shipping_status === 'shipped')
      return void invalid(res, { shipping_status: ['order is already fulfilled'] });
    order.body.shipping_status = 'shipped';
    order.body.shipping_tracking_number = typeof number === 'string' ? number : null;
    order.body.shipping_tracking_url = typeof url === 'string' ? url : null;
    // Orders API v1: `notify_customer` defaults to true.
    const notify = (body as Record<string, unknown>).notify_customer;
    order.fulfillments.push({
      company: 'Correios',
      numbers: typeof number === 'string' ? number.split(',').map((n) => n.trim()) : [],
      urls: typeof url === 'string' ? [url] : [],
      at: new Date(platforms.now()).toISOString(),
      notifyCustomer: notify !== false,
    });
    afterFulfillment(orders, order, platforms.now());
    res.json(order.body);
  });
  const webhooksScope = authenticateNuvemshop(platforms, { read: 'read_orders', write: 'write_orders' });
  router.post(`${nuvemshop}/webhooks`, webhooksScope, json, (req, res) => {
    const body = (typeof req.body === 'object' && req.body ? req.body : {}) as Record<string, unknown>;
    const errors: Record<string, string[]> = {};
    if (![...NUVEMSHOP_ORDER_EVENTS, 'app/uninstalled'].some((event) => event === body.event))
      errors.event = [
        `is not an event the sandbox sends (${[...NUVEMSHOP_ORDER_EVENTS, 'app/uninstalled'].join(', ')})`,
      ];
    if (!callableUrl(body.url)) errors.url = ['must be a valid HTTPS URL'];
    if (Object.keys(errors).length > 0) return void invalid(res, errors);
    const subscription = orders.subscribe('nuvemshop', storeOf(res).id, String(body.event), String(body.url));
    res.status(201).json({
      id: subscription.id,
      event: subscription.topic,
      url: subscription.url,
      created_at: subscription.created_at,
    });
  });
  router.get(`${nuvemshop}/webhooks`, webhooksScope, (_req, res) => {
    res.json(
      (orders.subscriptions.get(`nuvemshop ${storeOf(res).id}`) ?? []).map((s) => ({
        id: s.id,
        event: s.topic,
        url: s.url,
        created_at: s.created_at,
      })),
    );
  });

  // The control API: loopback only, like the rest of /_sandbox.
  router.use('/_sandbox/stores', loopbackOnly);
  const storeOfRequest = (platform: string, store: string) => {
    const known = platform === 'shopify' ? platforms.shops.has(store) : platforms.stores.has(store);
    if (!known) throw new ApiError('not_found', `The sandbox has no ${platform} store ${store}.`);
  };
  router.post('/_sandbox/stores/:platform/:store/orders', json, async (req, res) => {
    const platform = platformOf(req.params.platform);
    storeOfRequest(platform, String(req.params.store));
    const input = parseInput(NewStoreOrderSchema, req.body);
    const { order, sent } = await orders.create(platform, String(req.params.store), input);
    res.status(201).json({ order: view(order), sent: sent.map(sentView) });
  });
  router.get('/_sandbox/stores/:platform/:store/orders', (req, res) => {
    const platform = platformOf(req.params.platform);
    res.json({
      orders: [...orders.orders.values()]
        .filter((o) => o.platform === platform && o.store === req.params.store)
        .map(view),
    });
  });
  router.post('/_sandbox/stores/:platform/:store/orders/:id/update', json, async (req, res) => {
    const order = orders.orders.get(
      orders.key(String(req.params.platform), String(req.params.store), String(req.params.id)),
    );
    if (!order) throw new ApiError('not_found', 'no such order');
    const given = Object.fromEntries(Object.entries(req.body ?? {}).filter(([, v]) => typeof v === 'string'));
    res.json({ order: view(order), sent: (await orders.update(order, given)).map(sentView) });
  });
  const orderOf = (params: Record<string, string | undefined>) => {
    const order = orders.orders.get(
      orders.key(String(params.platform), String(params.store), String(params.id)),
    );
    if (!order) throw new ApiError('not_found', 'no such order');
    return order;
  };
  const parsed = <T>(schema: z.ZodMiniType<T>, body: unknown): T => parseInput(schema, body ?? {});
  router.post('/_sandbox/stores/:platform/:store/orders/:id/cancel', json, async (req, res) => {
    const order = orderOf(req.params);
    const input = parsed(
      z.strictObject({
        refund: z.optional(z.boolean()),
        reason: z.optional(z.enum(['customer', 'fraud', 'inventory', 'declined', 'other'])),
      }),
      req.body,
    );
    const sent = await cancelOrder(
      orders,
      order,
      { refund: input.refund ?? true, reason: input.reason ?? 'customer' },
      platforms.now(),
    );
    res.json({ order: view(order), sent: sent.map(sentView) });
  });
  router.post('/_sandbox/stores/:platform/:store/orders/:id/refund', json, async (req, res) => {
    const order = orderOf(req.params);
    res.json({ order: view(order), sent: (await refundOrder(orders, order, platforms.now())).map(sentView) });
  });
  router.post('/_sandbox/stores/:platform/:store/orders/:id/edit', json, async (req, res) => {
    const order = orderOf(req.params);
    const input = parsed(
      z.strictObject({
        items: z
          .array(
            z.strictObject({
              index: z.int().check(z.gte(0), z.lte(49)),
              quantity: z.int().check(z.gte(0), z.lte(999)),
            }),
          )
          .check(z.minLength(1)),
      }),
      req.body,
    );
    res.json({
      order: view(order),
      sent: (await editOrder(orders, order, input.items, platforms.now())).map(sentView),
    });
  });
  router.post(
    '/_sandbox/stores/:platform/:store/orders/:id/fulfillment-orders/:n/release',
    async (req, res) => {
      const order = orderOf(req.params);
      const sent = await releaseFulfillmentOrder(orders, order, Number(req.params.n));
      if (!sent) throw new ApiError('invalid_body', 'that fulfillment order is not on hold or scheduled');
      res.json({ order: view(order), sent: sent.map(sentView) });
    },
  );
  // The very same delivery again (same body, signature and webhook id): what a replay, or a platform's retry, sends.
  router.post('/_sandbox/stores/webhooks/:id/resend', async (req, res) => {
    const original = orders.sent.find((webhook) => webhook.id === req.params.id);
    if (!original) throw new ApiError('not_found', 'no such webhook');
    res.json({ sent: sentView(await orders.deliver(original)) });
  });
  router.post('/_sandbox/stores/:platform/faults', json, (req, res) => {
    const platform = platformOf(req.params.platform);
    const { failFulfillments } = parseInput(
      z.strictObject({ failFulfillments: z.int().check(z.gte(0), z.lte(100)) }),
      req.body,
    );
    orders.failNext.set(platform, failFulfillments);
    res.json({ platform, failFulfillments });
  });
  // The emulated stores' admin, for a person: each order with the tracking its store was given.
  router.get('/_sandbox/stores', (_req, res) => {
    const rows = [...orders.orders.values()].map(
      (o) =>
        html`<tr><td>${o.platform}</td><td>${o.store}</td><td>${String(o.body.name ?? o.body.number)}</td><td>${shopperOf(o)}</td><td>${
          o.fulfillments.length === 0 ? '—' : o.fulfillments.flatMap((f) => f.numbers).join(', ')
        }</td></tr>`,
    );
    res.type('html').send(
      html`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Lojas emuladas — pedidos</title></head><body>
<h1>Lojas emuladas: pedidos</h1>
<table><thead><tr><th>Plataforma</th><th>Loja</th><th>Pedido</th><th>Cliente</th><th>Rastreio</th></tr></thead><tbody>${rows}</tbody></table>
</body></html>`.text,
    );
  });
  return router;
}

function shopperOf(order: EmulatedOrder): string {
  const address = order.body.shipping_address as Record<string, unknown> | undefined;
  return String(address?.name ?? '');
}

/** An emulated order for tests: its id, its number as the store shows it, and what the store was told. */
function view(order: EmulatedOrder) {
  return {
    platform: order.platform,
    store: order.store,
    id: order.id,
    orderId: String(order.platform === 'shopify' ? order.body.name : order.body.number),
    body: order.body,
    fulfillments: order.fulfillments,
  };
}

function sentView(webhook: { id: string; url: string; topic: string; status: number | 'unreachable' }) {
  return { id: webhook.id, url: webhook.url, topic: webhook.topic, status: webhook.status };
}
