import { Router } from 'express';
import { ERROR_STATUS, ErrorBodySchema, type ErrorCode } from '../../shared/errors.ts';
import { MAX_CODES } from '../../shared/limits.ts';
import { jsonSchema } from '../../shared/openapi.ts';
import { OrderLookupRequestSchema, OrderLookupResponseSchema } from '../../shared/order-lookup.ts';
import { TrackingLookupRequestSchema, TrackingLookupResponseSchema } from '../../shared/tracking-lookup.ts';
import { methodNotAllowed } from '../http/errors.ts';

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

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request: fix it before retrying',
  405: 'Method not allowed',
  413: 'JSON body over 8 KB',
  429: 'Per-visitor limit (BFF_VISITOR_RATE_LIMIT) exceeded: wait Retry-After seconds',
  502: 'The platform could not answer and no earlier result is known: try again later',
};

function errorResponses(): JsonObject {
  const responses: JsonObject = {};
  const codes = Object.keys(ERRORS) as ErrorCode[];
  for (const status of [...new Set(codes.map((code) => ERROR_STATUS[code]))].sort((a, b) => a - b)) {
    const examples: JsonObject = {};
    for (const code of codes.filter((candidate) => ERROR_STATUS[candidate] === status)) {
      examples[code] = { value: { error: { code, message: ERRORS[code] } } };
    }
    responses[String(status)] = {
      description: STATUS_TEXT[status] ?? 'Error',
      ...(status === 429
        ? { headers: { 'Retry-After': { description: 'seconds', schema: { type: 'integer' } } } }
        : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' }, examples } },
    };
  }
  return responses;
}

const DELIVERED_EVENT = {
  code: 'BDE',
  type: '01',
  timestamp: '2026-11-10T14:32:00',
  description: 'Objeto entregue ao destinatário',
};

/**
 * The OpenAPI 3.1 document of the BFF's public API (`POST /api/tracking`, `POST /api/orders/lookup`), built from the same zod schemas the
 * route validates with. Served at `GET /openapi.json`.
 */
export function buildBffOpenApiDocument(publicUrl?: string): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'frete-kit BFF public API',
      version: '1.0.0',
      description:
        'Order tracking for the store\u2019s visitors. Public: no key; the BFF holds the platform\u2019s secret key. ' +
        'Cross-origin calls are allowed from the origins in BFF_ALLOWED_ORIGINS.',
    },
    ...(publicUrl ? { servers: [{ url: publicUrl }] } : {}),
    paths: {
      '/api/tracking': {
        post: {
          operationId: 'trackOrders',
          summary: 'Status and event history of each tracking code',
          description:
            'Codes are upper-cased, checked in the S10 form with their check digit, and folded when repeated; one ' +
            'result per distinct code comes back in request order. A result marked `stale: true` is the last ' +
            'known one, served while the platform does not answer.',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/TrackingLookupRequest' },
                example: { codes: ['DG049186226BR', 'QB123456785BR'] },
              },
            },
          },
          responses: {
            '200': {
              description: 'One result per distinct code, in request order',
              headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } },
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/TrackingLookupResponse' },
                  examples: {
                    delivered: {
                      value: {
                        results: [
                          {
                            code: 'DG049186226BR',
                            found: true,
                            delivered: true,
                            lastStatus: DELIVERED_EVENT,
                            events: [DELIVERED_EVENT],
                          },
                        ],
                      },
                    },
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
                    stale: {
                      value: {
                        results: [
                          {
                            code: 'DG049186226BR',
                            found: true,
                            delivered: true,
                            lastStatus: DELIVERED_EVENT,
                            events: [DELIVERED_EVENT],
                            stale: true,
                          },
                        ],
                      },
                    },
                  },
                },
              },
            },
            ...errorResponses(),
          },
        },
      },
      '/api/orders/lookup': {
        post: {
          operationId: 'lookupOrder',
          summary: 'The parcels of an order, by its number and the delivery CEP',
          description:
            'For shoppers without a tracking code. One result per volume of the order that has a label, in volume ' +
            'order. An unknown order and a wrong CEP get the same 404 body, no sooner than 150 ms after the request; ' +
            'failed attempts are limited per visitor (10) and per order number (5) in 15 minutes (429).',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/OrderLookupRequest' },
                example: { orderId: '1001', cep: '20040-020' },
              },
            },
          },
          responses: {
            '200': {
              description: "The order's parcels",
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/OrderLookupResponse' },
                  examples: {
                    delivered: {
                      value: {
                        orderId: '1001',
                        results: [
                          {
                            code: 'DG049186226BR',
                            found: true,
                            delivered: true,
                            lastStatus: DELIVERED_EVENT,
                            events: [DELIVERED_EVENT],
                          },
                        ],
                      },
                    },
                  },
                },
              },
            },
            '400': {
              description: 'Invalid request: fix it before retrying',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
            },
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
            '429': {
              description: 'Too many lookups, or too many failed ones: wait Retry-After seconds',
              headers: { 'Retry-After': { description: 'seconds', schema: { type: 'integer' } } },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
            },
            '502': {
              description: 'The platform could not answer: try again later',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
            },
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document',
          responses: {
            '200': { description: 'The OpenAPI 3.1 document', content: { 'application/json': {} } },
          },
        },
      },
    },
    components: {
      schemas: {
        TrackingLookupRequest: jsonSchema(TrackingLookupRequestSchema, 'input'),
        TrackingLookupResponse: jsonSchema(TrackingLookupResponseSchema, 'output'),
        OrderLookupRequest: jsonSchema(OrderLookupRequestSchema, 'input'),
        OrderLookupResponse: jsonSchema(OrderLookupResponseSchema, 'output'),
        ErrorBody: jsonSchema(ErrorBodySchema, 'output'),
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
