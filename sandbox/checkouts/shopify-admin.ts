import express, { type Response, type Router } from 'express';
import { strictRouter } from '../http/router.ts';
import type { ShopifyShop } from './accounts.ts';
import { type CheckoutPlatforms, callableUrl, type ShopifyCarrierService } from './state.ts';

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
      const scopes = shop.tokens[req.get('x-shopify-access-token') ?? ''];
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
          'The sandbox emulates only carrierServices and carrierService mutations.',
        );
      const needs = field === 'carrierServices' ? ['read_shipping', 'write_shipping'] : ['write_shipping'];
      if (!needs.some((scope) => scopes.includes(scope)))
        return void accessDenied(res, field, needs.at(-1) ?? '');
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
] as const;
type Field = (typeof FIELDS)[number];

type Operation = (
  platforms: CheckoutPlatforms,
  shop: ShopifyShop,
  variables: Record<string, unknown>,
) => unknown;

const OPERATIONS: Record<Field, Operation> = {
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

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
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
