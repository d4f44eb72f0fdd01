import { Router } from 'express';
import {
  FulfillmentOptionsRequestSchema,
  FulfillmentOptionsResponseSchema,
} from '../../shared/checkouts/agentic.ts';
import { ErrorBodySchema, type ErrorCode } from '../../shared/errors.ts';
import {
  DELIVERED_EXAMPLE,
  type ErrorResponsesOptions,
  errorResponses,
  jsonContent,
  jsonRequest,
  jsonSchema,
  openApiPath,
} from '../../shared/openapi.ts';
import { OrderLookupRequestSchema, OrderLookupResponseSchema } from '../../shared/order-lookup.ts';
import { MAX_CODES } from '../../shared/platform-limits.ts';
import { PromisesRequestSchema, PromisesResponseSchema } from '../../shared/promise-lookup.ts';
import { TrackingLookupRequestSchema, TrackingLookupResponseSchema } from '../../shared/tracking-lookup.ts';
import { RateVerifyRequestSchema, RateVerifyResponseSchema } from '../rates/verify.ts';
import { methodNotAllowed } from './errors.ts';

type JsonObject = Record<string, unknown>;

/** What `/api/tracking` answers for each error code, in the BFF's own words (examples of the document). */
const ERRORS: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'Send the body as JSON with Content-Type: application/json.',
  invalid_body:
    'codes.0: not a Correios tracking code (2 letters, 9 digits with a valid check digit, 2 letters)',
  too_many_codes: `codes: must have at most ${MAX_CODES} entries`,
  method_not_allowed: 'GET is not allowed here; use POST.',
  payload_too_large: 'The JSON body is too large.',
  rate_limited: 'Too many lookups; retry in 12 s.',
  track_failed: 'Tracking is temporarily unavailable; try again in a moment.',
};

const RETRY_AFTER: JsonObject = { 'Retry-After': { description: 'seconds', schema: { type: 'integer' } } };
const NO_STORE: JsonObject = { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } };

/** A response of the spec 7.1 error envelope without examples, with the headers it carries. */
function errorBody(description: string, headers?: JsonObject): JsonObject {
  return { description, ...(headers ? { headers } : {}), content: jsonContent('ErrorBody') };
}

const TRACKING_ERRORS: ErrorResponsesOptions = {
  statusText: {
    400: 'Invalid request: fix it before retrying',
    405: 'Method not allowed',
    413: 'JSON body over 8 KB',
    429: 'Per-visitor limit (BFF_VISITOR_RATE_LIMIT) exceeded: wait Retry-After seconds',
    502: 'The platform could not answer and no earlier result is known: try again later',
  },
  headers: { 429: RETRY_AFTER },
};

/** What `/api/rates/verify` answers for each error code (examples of the document). */
const VERIFY_ERRORS: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'Send the body as JSON with Content-Type: application/json.',
  invalid_body: 'serviceId: expected string',
  invalid_destination_cep: 'cep: must be a CEP of 8 digits (dashes and spaces are ignored)',
  too_many_items: 'items: must have at most 50 entries',
  missing_api_key: 'Send Authorization: Bearer <checkout token> (BFF_CHECKOUT_TOKENS).',
  invalid_api_key: 'The checkout token is not valid.',
  method_not_allowed: 'GET is not allowed here; use POST.',
  payload_too_large: 'The JSON body is too large.',
  rate_limited: 'The store\u2019s quota of quotes at the platform is spent; retry shortly.',
  quote_failed: 'The platform could not quote now; try again in a moment.',
};

const VERIFY_STATUS: ErrorResponsesOptions = {
  statusText: {
    400: 'Invalid request: fix it before retrying (nothing was quoted)',
    401: 'No checkout token, or not one of BFF_CHECKOUT_TOKENS',
    405: 'Method not allowed (a browser\u2019s preflight too: this route has no CORS)',
    413: 'JSON body over 32,000 bytes',
    429: 'The store\u2019s limit at the platform, or this checkout token\u2019s share of it, is spent: retry after Retry-After; do not charge meanwhile',
    502: 'The platform could not quote: do not charge, and do not tell the shopper the option is gone; retry',
  },
  headers: {
    401: {
      'WWW-Authenticate': {
        description: 'Bearer realm="frete-kit checkout" (with error="invalid_token" when a token was sent)',
        schema: { type: 'string' },
      },
    },
    429: RETRY_AFTER,
  },
};

const PAC = {
  code: 'PAC',
  serviceId: 'correios-pac',
  label: 'Correios PAC',
  deliveryDays: 6,
  price: 21.5,
  promise: { from: '2026-12-02', to: '2026-12-02', basis: 'platform', parcels: 0 },
};

const TOTALS = [
  { type: 'fulfillment', display_text: 'Frete', amount: 2150 },
  { type: 'total', display_text: 'Total', amount: 2150 },
];
const ACP_OPTION = {
  type: 'shipping',
  id: 'correios-pac',
  title: 'Correios PAC',
  carrier: 'Correios',
  earliest_delivery_time: '2026-12-02T00:00:00-03:00',
  latest_delivery_time: '2026-12-02T23:59:59-03:00',
  totals: TOTALS,
};
const UCP_OPTION = {
  id: 'correios-pac',
  title: 'Correios PAC',
  carrier: 'Correios',
  earliest_fulfillment_time: '2026-12-02T00:00:00-03:00',
  latest_fulfillment_time: '2026-12-02T23:59:59-03:00',
  totals: TOTALS,
};

/** What `/checkout/fulfillment-options` answers for each error code (its 503 is written beside). */
const OPTIONS_ERRORS: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'Send the body as JSON with Content-Type: application/json.',
  invalid_body: 'address.postal_code: must be a CEP of 8 digits (dashes and spaces are ignored)',
  too_many_items: 'items: Too big: expected array to have <=50 items',
  missing_api_key: 'Send Authorization: Bearer <checkout token> (BFF_CHECKOUT_TOKENS).',
  invalid_api_key: 'The checkout token is not valid.',
  method_not_allowed: 'GET is not allowed here; use POST.',
  payload_too_large: 'The JSON body is too large.',
  rate_limited:
    'This caller\u2019s share of the store\u2019s quotes is spent; cached quotes are still answered. Retry in 42 s.',
};

/** `/api/rates/verify`'s statuses and headers, but for its 405 and 429. */
const OPTIONS_STATUS: ErrorResponsesOptions = {
  ...VERIFY_STATUS,
  statusText: {
    ...VERIFY_STATUS.statusText,
    405: 'Method not allowed',
    429: 'This checkout token\u2019s share of the store\u2019s quotes is spent: retry after Retry-After',
  },
};

/**
 * The OpenAPI 3.1 document of the BFF's public API (`POST /api/tracking`, `/api/rates/verify`, `/api/orders/lookup`,
 * `/checkout/fulfillment-options`, `/api/promises`),
 * built from the same zod schemas the routes validate with. Served at `GET /openapi.json`.
 */
export function buildBffOpenApiDocument(publicUrl?: string): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'frete-kit BFF public API',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Order tracking for the store\u2019s visitors. Public: no key; the BFF holds the platform\u2019s secret key. ' +
        'Cross-origin calls are allowed from the origins in BFF_ALLOWED_ORIGINS. ' +
        'And, for the store\u2019s checkout server only (a checkout token, no CORS), the price of the shopper\u2019s ' +
        'choice as the platform quotes it now, and the shipping options of an agentic (ACP or UCP) checkout.',
    },
    ...(publicUrl ? { servers: [{ url: publicUrl }] } : {}),
    paths: {
      '/api/tracking': {
        post: {
          operationId: 'trackOrders',
          // Public: visitors send no credential (the BFF holds the platform's key).
          security: [],
          summary: 'Status and event history of each tracking code',
          description:
            'Codes are upper-cased, checked in the S10 form with their check digit, and folded when repeated; one ' +
            'result per distinct code comes back in request order. A result marked `stale: true` is the last ' +
            'known one, served while the platform does not answer.',
          requestBody: jsonRequest('TrackingLookupRequest', { codes: ['DG049186226BR', 'QB123456785BR'] }),
          responses: {
            '200': {
              description: 'One result per distinct code, in request order',
              headers: NO_STORE,
              content: jsonContent('TrackingLookupResponse', {
                examples: {
                  delivered: { value: { results: [DELIVERED_EXAMPLE] } },
                  noEventsYet: {
                    value: {
                      results: [{ code: 'QB123456785BR', found: true, delivered: false, events: [] }],
                    },
                  },
                  notFound: {
                    value: {
                      results: [
                        {
                          code: 'AA000000005BR',
                          found: false,
                          delivered: false,
                          events: [],
                          message: 'Object not found',
                        },
                      ],
                    },
                  },
                  stale: { value: { results: [{ ...DELIVERED_EXAMPLE, stale: true }] } },
                },
              }),
            },
            ...errorResponses(ERRORS, TRACKING_ERRORS),
          },
        },
      },
      '/api/rates/verify': {
        post: {
          operationId: 'verifyRate',
          summary:
            'The current price of the shopper\u2019s chosen service, asked by the checkout server before it charges',
          description:
            'The price in the calculator\u2019s `shipping-select` event comes from the shopper\u2019s browser and can be ' +
            'edited there. Before charging, the store\u2019s checkout server sends the CEP, the cart and the chosen ' +
            '`serviceId`; the BFF quotes them again with the secret key through its one quote core (an identical ' +
            'quote within five minutes is answered from its cache; an uncached one spends this token\u2019s share of ' +
            'the store\u2019s quotes) and answers the rate to charge with its delivery promise, or why the service ' +
            'cannot be charged. ' +
            'Server to server: `Authorization: Bearer` with one of BFF_CHECKOUT_TOKENS; no CORS.',
          security: [{ checkoutToken: [] }],
          requestBody: jsonRequest('RateVerifyRequest', {
            cep: '20040-020',
            items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 }],
            serviceId: 'correios-pac',
          }),
          responses: {
            '200': {
              description:
                'The rate to charge (`available: true`), or why the chosen service cannot be charged now',
              headers: NO_STORE,
              content: jsonContent('RateVerifyResponse', {
                examples: {
                  available: { value: { available: true, rate: PAC } },
                  free: { value: { available: true, rate: { ...PAC, price: 0, free: true } } },
                  serviceGone: { value: { available: false, reason: 'service_unavailable' } },
                  noCoverage: { value: { available: false, reason: 'no_coverage' } },
                },
              }),
            },
            ...errorResponses(VERIFY_ERRORS, VERIFY_STATUS),
          },
        },
      },
      '/api/orders/lookup': {
        post: {
          operationId: 'lookupOrder',
          // Public: the order number and its CEP are the shopper's proof.
          security: [],
          summary: 'The parcels of an order, by its number and the delivery CEP',
          description:
            'For shoppers without a tracking code. One result per volume of the order that has a label, in volume ' +
            'order. An unknown order and a wrong CEP get the same 404 body, no sooner than 150 ms after the request; ' +
            'failed attempts are limited per visitor (10) and per order number (5) in 15 minutes (429), guesses sent ' +
            'at once included. Looking up codes not in the cache takes from the visitor\u2019s share, as on ' +
            '/api/tracking (429).',
          requestBody: jsonRequest('OrderLookupRequest', { orderId: '1001', cep: '20040-020' }),
          responses: {
            '200': {
              description: "The order's parcels",
              content: jsonContent('OrderLookupResponse', {
                examples: {
                  delivered: { value: { orderId: '1001', results: [DELIVERED_EXAMPLE] } },
                },
              }),
            },
            '400': errorBody('Invalid request: fix it before retrying'),
            '404': {
              description:
                'No order with this number and CEP (the same answer for an unknown order and a wrong CEP)',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['error'],
                    properties: {
                      error: {
                        type: 'object',
                        required: ['code', 'message'],
                        properties: { code: { const: 'order_not_found' }, message: { type: 'string' } },
                      },
                    },
                  },
                  example: {
                    error: {
                      code: 'order_not_found',
                      message: 'No order with this number and CEP. Check both and try again.',
                    },
                  },
                },
              },
            },
            '429': errorBody(
              'Too many lookups, too many failed ones, or the visitor\u2019s share of uncached lookups spent: wait ' +
                'Retry-After seconds',
              RETRY_AFTER,
            ),
            '502': errorBody('The platform could not answer: try again later'),
          },
        },
      },
      '/checkout/fulfillment-options': {
        post: {
          operationId: 'fulfillmentOptions',
          summary: 'The shipping options of a cart and an address, as an ACP or UCP checkout writes them',
          description:
            'For the merchant\u2019s agentic checkout server (docs/checkout/agentic.md): the quote core\u2019s rates ' +
            'as ACP `FulfillmentOptionShipping` objects or UCP fulfillment options, `id` = the rate\u2019s serviceId, ' +
            'amounts in centavos (zero only for free: true), the delivery window of its promise. Each checkout token ' +
            'spends its own share of the store\u2019s quotes; answered within BFF_CHECKOUT_DEADLINE_MS.',
          security: [{ checkoutToken: [] }],
          requestBody: jsonRequest('FulfillmentOptionsRequest', {
            protocol: 'acp',
            items: [{ name: 'Camiseta', quantity: 1, unitPriceBRL: 79.9, weightKg: 0.3 }],
            address: { postal_code: '20040-020', country: 'BR' },
          }),
          responses: {
            '200': {
              description: 'The options, or an empty list with its reason (never free shipping)',
              headers: NO_STORE,
              content: jsonContent('FulfillmentOptionsResponse', {
                examples: {
                  acp: { value: { fulfillment_options: [ACP_OPTION] } },
                  ucp: { value: { options: [UCP_OPTION] } },
                  noCoverage: { value: { options: [], reason: 'no_coverage' } },
                },
              }),
            },
            ...errorResponses(OPTIONS_ERRORS, OPTIONS_STATUS),
            '503': {
              description:
                'No price in time: the platform failed, refused the store or was slower than the deadline; retry',
              content: jsonContent('ErrorBody', {
                examples: {
                  quote_failed: {
                    value: {
                      error: {
                        code: 'quote_failed',
                        message:
                          'No price can be given now; show the store\u2019s backup rates and ask again shortly.',
                      },
                    },
                  },
                },
              }),
            },
          },
        },
      },
      '/api/promises': {
        post: {
          operationId: 'deliveryPromises',
          // Public: dates anyone may read; no platform call is made.
          security: [],
          summary: 'The delivery promise of each rate the calculator got from the platform',
          description:
            'The calculator quotes the platform from the shopper\u2019s browser; it sends the CEP and each rate\u2019s ' +
            '`serviceId` and `deliveryDays` here and shows the date the store keeps: learnt from the store\u2019s own ' +
            'delivered parcels on that lane (`basis: "history"`, with the parcels it rests on), or the platform\u2019s ' +
            'count when the lane\u2019s history is thin (`basis: "platform"`). São Paulo dates, the store\u2019s ' +
            'handling days and cut-off included; `from` equals `to` for one date. No platform call is made. CORS ' +
            'for any origin; limited per visitor (BFF_VISITOR_RATE_LIMIT).',
          requestBody: jsonRequest('PromisesRequest', {
            cep: '20040-020',
            rates: [
              { serviceId: 'correios-pac', deliveryDays: 6 },
              { serviceId: 'correios-sedex', deliveryDays: 2 },
            ],
          }),
          responses: {
            '200': {
              description: 'One promise per rate, in the order asked',
              content: jsonContent('PromisesResponse', {
                examples: {
                  learnt: {
                    value: {
                      promises: [
                        {
                          serviceId: 'correios-pac',
                          promise: { from: '2026-12-01', to: '2026-12-03', basis: 'history', parcels: 214 },
                        },
                        {
                          serviceId: 'correios-sedex',
                          promise: { from: '2026-11-26', to: '2026-11-26', basis: 'platform', parcels: 0 },
                        },
                      ],
                    },
                  },
                },
              }),
            },
            '400': errorBody('Invalid request: fix it before retrying'),
            '405': errorBody('Method not allowed'),
            '429': errorBody(
              'Per-visitor limit (BFF_VISITOR_RATE_LIMIT) exceeded: wait Retry-After seconds',
              RETRY_AFTER,
            ),
          },
        },
      },
      '/openapi.json': openApiPath({ statusText: { 405: 'Method not allowed' } }),
    },
    components: {
      schemas: {
        TrackingLookupRequest: jsonSchema(TrackingLookupRequestSchema, 'input'),
        TrackingLookupResponse: jsonSchema(TrackingLookupResponseSchema, 'output'),
        RateVerifyRequest: jsonSchema(RateVerifyRequestSchema, 'input'),
        RateVerifyResponse: jsonSchema(RateVerifyResponseSchema, 'output'),
        FulfillmentOptionsRequest: jsonSchema(FulfillmentOptionsRequestSchema, 'input'),
        FulfillmentOptionsResponse: jsonSchema(FulfillmentOptionsResponseSchema, 'output'),
        OrderLookupRequest: jsonSchema(OrderLookupRequestSchema, 'input'),
        OrderLookupResponse: jsonSchema(OrderLookupResponseSchema, 'output'),
        PromisesRequest: jsonSchema(PromisesRequestSchema, 'input'),
        PromisesResponse: jsonSchema(PromisesResponseSchema, 'output'),
        ErrorBody: jsonSchema(ErrorBodySchema, 'output'),
      },
      securitySchemes: {
        checkoutToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'One of BFF_CHECKOUT_TOKENS: the store\u2019s checkout server, never a browser.',
        },
      },
    },
  };
}

/** `GET /openapi.json`: the document above, with `BFF_PUBLIC_URL` as its server; readable from any origin. */
export function openApiRoutes(publicUrl: string): Router {
  const body = JSON.stringify(buildBffOpenApiDocument(publicUrl));
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('application/json').send(body);
  });
  router.all('/openapi.json', methodNotAllowed('GET'));
  return router;
}
