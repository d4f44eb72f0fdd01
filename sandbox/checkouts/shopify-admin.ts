import express, { type Response, type Router } from 'express';
import { strictRouter } from '../http/router.ts';
import type { ShopifyShop } from './accounts.ts';
import { type CheckoutPlatforms, callableUrl, objectOf, type ShopifyCarrierService } from './state.ts';
import { SHOP_LOCATION } from './store-order-bodies.ts';
import { afterFulfillment, fulfillmentOrdersOf } from './store-order-life.ts';

/**
 * The part of Shopify's Admin GraphQL API that registers a carrier (docs/checkout/shopify.md cites its pages), at
 * `/shopify/<shop domain>/admin/api/<version>/graphql.json` with `X-Shopify-Access-Token`: the `carrierServices`
 * query and the `carrierServiceCreate`, `carrierServiceUpdate` and `carrierServiceDelete` mutations. A document asks
 * one of these fields, its arguments in `variables`; every field of the objects is answered whatever the selection
 * (sandbox/README.md says so). Errors in Shopify's shapes: 401 `{"errors": "…"}` for a bad token, top-level
 * `errors` with `ACCESS_DENIED` for a missing scope, `userErrors` for a refusal.
 */
export function shopifyAdminRoutes(platforms: CheckoutPlatforms): Router {
  const router = strictRouter();
  router.post(
    '/shopify/:shop/admin/api/:version/graphql.json',
    express.json({ limit: 100_000, type: () => true }),
    (req, res) => {
      const shop = platforms.shops.get(String(req.params.shop));
      if (!shop) return void res.status(404).json({ errors: 'Not Found' });
      const scopes = platforms.scopesOf('shopify', shop.domain, req.get('x-shopify-access-token') ?? '');
      if (!scopes)
        return void res
          .status(401)
          .json({ errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
      const body = req.body as { query?: unknown; variables?: unknown } | undefined;
      const query = typeof body?.query === 'string' ? body.query : '';
      const variables = (typeof body?.variables === 'object' && body.variables) || {};
      const field = FIELDS.find((name) => new RegExp(`\\b${name}\\s*[({]`).test(query));
      if (!field)
        return void graphqlError(
          res,
          'The sandbox emulates only carrierServices, carrierService mutations, webhook subscriptions, locations, order and fulfillmentCreate.',
        );
      const needs = NEEDS[field];
      if (!needs.some((scope) => scopes.includes(scope)))
        return void accessDenied(res, field, needs.at(-1) ?? '');
      // A test's fault: the next fulfillment calls fail as a Shopify outage does (500, retried by the caller).
      if (field === 'fulfillmentCreate' && platforms.orders.failing('shopify'))
        return void res.status(500).json({ errors: 'Internal Server Error' });
      res.json({
        data: { [field]: OPERATIONS[field](platforms, shop, variables as Record<string, unknown>) },
      });
    },
  );
  return router;
}

/** The fields emulated, longest first (a name is the prefix of the next). */
const FIELDS = [
  'carrierServiceCreate',
  'carrierServiceUpdate',
  'carrierServiceDelete',
  'carrierServices',
  'webhookSubscriptionCreate',
  'webhookSubscriptions',
  'fulfillmentCreate',
  'locations',
  'order',
] as const;
type Field = (typeof FIELDS)[number];

/** The scopes that reach each field (any of them; the last is the one an ACCESS_DENIED names). */
const NEEDS: Record<Field, readonly string[]> = {
  carrierServices: ['read_shipping', 'write_shipping'],
  carrierServiceCreate: ['write_shipping'],
  carrierServiceUpdate: ['write_shipping'],
  carrierServiceDelete: ['write_shipping'],
  webhookSubscriptionCreate: ['read_orders'],
  webhookSubscriptions: ['read_orders'],
  order: ['read_orders', 'read_merchant_managed_fulfillment_orders'],
  locations: ['read_locations'],
  fulfillmentCreate: ['write_merchant_managed_fulfillment_orders'],
};

/** The webhook topics the sandbox sends, as the GraphQL enum names them. */
const TOPICS: Record<string, string> = {
  ORDERS_PAID: 'orders/paid',
  ORDERS_UPDATED: 'orders/updated',
  APP_UNINSTALLED: 'app/uninstalled',
  ORDERS_CANCELLED: 'orders/cancelled',
  FULFILLMENT_ORDERS_HOLD_RELEASED: 'fulfillment_orders/hold_released',
  FULFILLMENT_ORDERS_SCHEDULED_FULFILLMENT_ORDER_READY:
    'fulfillment_orders/scheduled_fulfillment_order_ready',
};

type Operation = (
  platforms: CheckoutPlatforms,
  shop: ShopifyShop,
  variables: Record<string, unknown>,
) => unknown;

const OPERATIONS: Record<Field, Operation> = {
  ...orderOperations(),
  carrierServices: (platforms, shop) => {
    const nodes = platforms.carrierServices.get(shop.domain) ?? [];
    return {
      nodes,
      edges: nodes.map((node) => ({ node, cursor: node.id })),
      pageInfo: { hasNextPage: false, hasPreviousPage: false },
    };
  },
  carrierServiceCreate: (platforms, shop, variables) => {
    const input = objectOf(variables.input);
    const invalid = invalidInput(input, true);
    if (invalid) return { carrierService: null, userErrors: [invalid] };
    if (shop.plan === 'basic') {
      return {
        carrierService: null,
        userErrors: [
          userError(
            'Carrier calculated shipping is not available on this shop’s plan (Basic). It needs the Advanced plan or higher, the Shopify plan billed yearly, or the feature added by Shopify Support.',
          ),
        ],
      };
    }
    const services = platforms.carrierServices.get(shop.domain) ?? [];
    if (services.some((service) => service.name === input.name))
      return {
        carrierService: null,
        userErrors: [userError('Name has already been taken', ['input', 'name'])],
      };
    const service: ShopifyCarrierService = {
      id: `gid://shopify/DeliveryCarrierService/${platforms.nextId()}`,
      name: String(input.name),
      callbackUrl: String(input.callbackUrl),
      active: input.active === true,
      supportsServiceDiscovery: input.supportsServiceDiscovery === true,
    };
    platforms.carrierServices.set(shop.domain, [...services, service]);
    return { carrierService: service, userErrors: [] };
  },
  carrierServiceUpdate: (platforms, shop, variables) => {
    const input = objectOf(variables.input);
    const service = (platforms.carrierServices.get(shop.domain) ?? []).find((s) => s.id === input.id);
    if (!service)
      return { carrierService: null, userErrors: [userError('The carrier or app could not be found.')] };
    const invalid = invalidInput(input, false);
    if (invalid) return { carrierService: null, userErrors: [invalid] };
    if (typeof input.name === 'string') service.name = input.name;
    if (typeof input.callbackUrl === 'string') service.callbackUrl = input.callbackUrl;
    if (typeof input.active === 'boolean') service.active = input.active;
    if (typeof input.supportsServiceDiscovery === 'boolean')
      service.supportsServiceDiscovery = input.supportsServiceDiscovery;
    return { carrierService: service, userErrors: [] };
  },
  carrierServiceDelete: (platforms, shop, variables) => {
    const services = platforms.carrierServices.get(shop.domain) ?? [];
    const kept = services.filter((service) => service.id !== variables.id);
    if (kept.length === services.length)
      return { deletedId: null, userErrors: [userError('The carrier or app could not be found.')] };
    platforms.carrierServices.set(shop.domain, kept);
    return { deletedId: variables.id, userErrors: [] };
  },
};

/** Webhook subscriptions, an order's fulfillment orders, and a fulfillment with tracking (sandbox/checkouts/store-orders.ts). */
function orderOperations(): Pick<
  Record<Field, Operation>,
  'webhookSubscriptionCreate' | 'webhookSubscriptions' | 'order' | 'fulfillmentCreate' | 'locations'
> {
  const topicOf = (name: string) => Object.entries(TOPICS).find(([, topic]) => topic === name)?.[0] ?? name;
  return {
    webhookSubscriptionCreate: (platforms, shop, variables) => {
      const topic = TOPICS[String(variables.topic)];
      const input = objectOf(variables.webhookSubscription);
      const uri = input.uri ?? input.callbackUrl;
      if (!topic)
        return {
          webhookSubscription: null,
          userErrors: [userError('Topic is not supported by the sandbox', ['topic'])],
        };
      if (!callableUrl(uri))
        return {
          webhookSubscription: null,
          userErrors: [userError('Address must be a public https URL', ['webhookSubscription', 'uri'])],
        };
      const subscription = platforms.orders.subscribe('shopify', shop.domain, topic, uri);
      return {
        webhookSubscription: {
          id: `gid://shopify/WebhookSubscription/${subscription.id}`,
          topic: variables.topic,
          uri,
        },
        userErrors: [],
      };
    },
    webhookSubscriptions: (platforms, shop) => {
      const nodes = (platforms.orders.subscriptions.get(`shopify ${shop.domain}`) ?? []).map((s) => ({
        id: `gid://shopify/WebhookSubscription/${s.id}`,
        topic: topicOf(s.topic),
        uri: s.url,
      }));
      return { nodes, edges: nodes.map((node) => ({ node, cursor: node.id })) };
    },
    // The shop's locations: its own, and any an order's fulfillment orders were put at (a split order).
    locations: (platforms, shop) => {
      const ids = new Set([SHOP_LOCATION]);
      for (const o of platforms.orders.orders.values())
        if (o.platform === 'shopify' && o.store === shop.domain)
          for (const fo of fulfillmentOrdersOf(o)) ids.add(fo.location);
      const nodes = [...ids].map((id) => ({
        id,
        name: id === SHOP_LOCATION ? 'Depósito' : `Local ${id.split('/').at(-1)}`,
      }));
      return { nodes, edges: nodes.map((node) => ({ node, cursor: node.id })) };
    },
    order: (platforms, shop, variables) => {
      const id = /^gid:\/\/shopify\/Order\/(\d+)$/.exec(String(variables.id))?.[1];
      const order = id
        ? platforms.orders.orders.get(platforms.orders.key('shopify', shop.domain, id))
        : undefined;
      if (!order) return null;
      return {
        id: order.body.admin_graphql_api_id,
        name: order.body.name,
        fulfillmentOrders: {
          nodes: fulfillmentOrdersOf(order).map((fo) => ({
            id: fo.id,
            status: fo.status,
            fulfillAt: fo.fulfillAt,
            assignedLocation: { location: { id: fo.location } },
          })),
        },
      };
    },
    // shopify.dev fulfillmentCreate: the fulfillment orders of one location, each fulfillable (OPEN or IN_PROGRESS);
    // a held or scheduled one is refused. Afterwards Shopify sends orders/updated, as after any change of the order.
    fulfillmentCreate: (platforms, shop, variables) => {
      const input = objectOf(variables.fulfillment);
      const pairs = Array.isArray(input.lineItemsByFulfillmentOrder) ? input.lineItemsByFulfillmentOrder : [];
      const ids = pairs.map((pair) => String(objectOf(pair).fulfillmentOrderId));
      const order = [...platforms.orders.orders.values()].find(
        (o) =>
          o.platform === 'shopify' &&
          o.store === shop.domain &&
          fulfillmentOrdersOf(o).some((fo) => ids.includes(fo.id)),
      );
      const chosen = order ? fulfillmentOrdersOf(order).filter((fo) => ids.includes(fo.id)) : [];
      if (!order || ids.length === 0 || chosen.length !== ids.length)
        return {
          fulfillment: null,
          userErrors: [userError('Fulfillment order does not exist.', ['fulfillment'])],
        };
      if (new Set(chosen.map((fo) => fo.location)).size > 1)
        return {
          fulfillment: null,
          userErrors: [
            userError('All fulfillment orders must be assigned to the same location.', ['fulfillment']),
          ],
        };
      if (chosen.some((fo) => fo.status !== 'OPEN' && fo.status !== 'IN_PROGRESS'))
        return {
          fulfillment: null,
          userErrors: [userError('Fulfillment order is not in an open state.', ['fulfillment'])],
        };
      const tracking = objectOf(input.trackingInfo);
      const list = (value: unknown, one: unknown) =>
        (Array.isArray(value) ? value : one === undefined ? [] : [one]).map(String);
      for (const fo of chosen) fo.status = 'CLOSED';
      order.fulfillments.push({
        company: String(tracking.company ?? ''),
        numbers: list(tracking.numbers, tracking.number),
        urls: list(tracking.urls, tracking.url),
        at: new Date(platforms.now()).toISOString(),
        fulfillmentOrders: chosen.map((fo) => fo.id),
        notifyCustomer: input.notifyCustomer === true,
      });
      afterFulfillment(platforms.orders, order, platforms.now());
      return {
        fulfillment: {
          id: `gid://shopify/Fulfillment/${order.id}${order.fulfillments.length}`,
          status: 'SUCCESS',
        },
        userErrors: [],
      };
    },
  };
}

function userError(message: string, field: string[] | null = null) {
  return { field, message, code: 'CARRIER_SERVICE_CREATE_FAILED' };
}

/** The input's fields as Shopify types them (`String!`, `URL!`, `Boolean!` when creating); a callback Shopify can call. */
function invalidInput(input: Record<string, unknown>, creating: boolean) {
  const need = (name: string, type: 'string' | 'boolean') =>
    creating ? typeof input[name] === type : input[name] === undefined || typeof input[name] === type;
  for (const [name, type] of [
    ['name', 'string'],
    ['callbackUrl', 'string'],
    ['active', 'boolean'],
    ['supportsServiceDiscovery', 'boolean'],
  ] as const) {
    if (!need(name, type)) return userError(`${name} is required and must be a ${type}`, ['input', name]);
  }
  if (input.name === '') return userError("Name can't be blank", ['input', 'name']);
  if (input.callbackUrl !== undefined && !callableUrl(input.callbackUrl))
    return userError('Callback url must be a public https URL', ['input', 'callbackUrl']);
  return undefined;
}

function graphqlError(res: Response, message: string): void {
  res.json({ errors: [{ message, extensions: { code: 'UNSUPPORTED' } }] });
}

/** Shopify's answer to a field the token's scopes do not reach (since 2022-01). */
function accessDenied(res: Response, field: Field, scope: string): void {
  res.json({
    errors: [
      {
        message: `Access denied for ${field} field. Required access: \`${scope}\` access scope.`,
        extensions: {
          code: 'ACCESS_DENIED',
          documentation: 'https://shopify.dev/api/usage/access-scopes',
          requiredAccess: `\`${scope}\` access scope.`,
        },
      },
    ],
    data: { [field]: null },
  });
}
