import * as z from 'zod/mini';
import { ERROR_MESSAGES, ERROR_STATUS, ErrorBodySchema, type ErrorCode } from './errors.ts';
import { MAX_BODY_TEXT, RATE_LIMIT } from './platform-limits.ts';
import { RatesRequestSchema, RatesResponseSchema } from './quote.ts';
import { TrackingRequestSchema, TrackingResponseSchema } from './tracking.ts';

type JsonObject = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), without `$schema`. */
export function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonObject {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as JsonObject;
  return rest;
}

/** How a document describes the error responses of its routes. */
export interface ErrorResponsesOptions {
  /** What each status means (its description; `Error` for a status not listed). */
  statusText: Record<number, string>;
  /** The headers a status carries (e.g. `Retry-After` on 429). */
  headers?: Partial<Record<number, JsonObject>>;
  /** Whether a status's description ends with its codes: `(invalid_json, invalid_body)`. */
  listCodes?: boolean;
}

/** The `content` of a JSON body of the component `schema`, with its `example` or named `examples` (or none). */
export function jsonContent(schema: string, sample: JsonObject = {}): JsonObject {
  return { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` }, ...sample } };
}

/** A required JSON request body of the component `schema`, with an example. */
export function jsonRequest(schema: string, example: unknown): JsonObject {
  return { required: true, content: jsonContent(schema, { example }) };
}

/**
 * The 4xx/5xx responses of one route, grouped by status: per status, its description, any header it carries, and an
 * example per code (the message the route answers with), every body the spec 7.1 envelope.
 */
export function errorResponses(
  messages: Partial<Record<ErrorCode, string>>,
  options: ErrorResponsesOptions,
): JsonObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of Object.keys(messages) as ErrorCode[]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: JsonObject = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const examples: JsonObject = {};
    for (const code of statusCodes) {
      const error: JsonObject = { code, message: messages[code] };
      if (code === 'subscription_required') error.actionUrl = 'https://app.example/billing';
      examples[code] = { value: { error } };
    }
    const text = options.statusText[status] ?? 'Error';
    const header = options.headers?.[status];
    responses[String(status)] = {
      description: options.listCodes ? `${text} (${statusCodes.join(', ')})` : text,
      ...(header ? { headers: header } : {}),
      content: jsonContent('ErrorBody', { examples }),
    };
  }
  return responses;
}

/** The path `GET /openapi.json`: the document itself, public; any other method is answered 405. */
export function openApiPath(errors: ErrorResponsesOptions): JsonObject {
  return {
    get: {
      operationId: 'getOpenApi',
      summary: 'This document',
      security: [],
      responses: {
        '200': { description: 'The OpenAPI 3.1 document', content: { 'application/json': {} } },
        ...errorResponses({ method_not_allowed: 'Use GET.' }, errors),
      },
    },
  };
}

/** The platform's statuses, with the codes of each, and the `Retry-After` of every 429. */
const PLATFORM_ERRORS: ErrorResponsesOptions = {
  statusText: {
    400: 'Invalid request: fix the request',
    401: 'Missing or invalid API key',
    402: 'Subscription required: check plan access and actionUrl',
    403: 'Credential of the wrong scope',
    404: 'Store bound to the credential not found',
    405: 'Method not allowed: use the documented method',
    413: `JSON body over ${MAX_BODY_TEXT} bytes`,
    429: `Rate limit exceeded (${RATE_LIMIT.calls} calls per ${RATE_LIMIT.seconds} s per store and route): wait before retrying`,
    502: 'Temporary failure querying the carrier',
  },
  headers: {
    429: {
      'Retry-After': {
        description: 'Seconds to wait before retrying (every 429, the magic 00000-429 included)',
        schema: { type: 'integer', minimum: 1 },
      },
    },
  },
  listCodes: true,
};

/** The example message of each code: its default (shared/errors.ts), and a field error for `invalid_body`. */
const EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  ...ERROR_MESSAGES,
  invalid_body: 'items.0.quantity: expected int',
};

/**
 * The platform's error responses for `codes`, one example per code. `messages` replaces the default example message
 * where a route has its own (the tracking body error is about `codes`, not `items`).
 */
function platformErrors(
  codes: readonly ErrorCode[],
  messages: Partial<Record<ErrorCode, string>> = {},
): JsonObject {
  const examples = Object.fromEntries(codes.map((code) => [code, messages[code] ?? EXAMPLE_MESSAGES[code]]));
  return errorResponses(examples, PLATFORM_ERRORS);
}

const COMMON_ERRORS: ErrorCode[] = [
  'invalid_json',
  'invalid_body',
  'missing_api_key',
  'invalid_api_key',
  'subscription_required',
  'wrong_key_scope',
  'merchant_not_found',
  'method_not_allowed',
  'payload_too_large',
  'rate_limited',
];

const ITEM_EXAMPLE = { name: 'Camiseta', quantity: 2, unitPriceBRL: 79.9, weightKg: 0.3 };

const DELIVERED_EVENT = {
  code: 'BDE',
  type: '01',
  timestamp: '2026-11-10T14:32:00',
  description: 'Objeto entregue ao destinatário',
};

/** A delivered parcel's tracking result: the example of both documents (the platform's and the BFF's). */
export const DELIVERED_EXAMPLE = {
  code: 'DG049186226BR',
  found: true,
  delivered: true,
  lastStatus: DELIVERED_EVENT,
  events: [DELIVERED_EVENT],
};

/**
 * The OpenAPI 3.1 document of the REST routes (spec 4.1–4.3), built from the shared schemas. `serverUrl` is the
 * {base_url}; without it the server is `/` (the origin the document was fetched from), never an empty list.
 */
export function buildOpenApiDocument(serverUrl?: string): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Shipping platform REST API',
      version: '1.0.0',
      description:
        'Quotes and tracking for Brazilian online stores (Correios). Labels exist only as MCP tools.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl ?? '/', description: 'The platform ({base_url})' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/v1/rates': {
        post: {
          operationId: 'getRates',
          summary: 'Quote every enabled service for a destination CEP',
          description:
            'Public (pk_) or secret (mk_) key. CORS enabled. A 200 may carry `rates: []` with a `reason`: no quote ' +
            'is available, and free shipping must not be presented.',
          requestBody: jsonRequest('RatesRequest', { destinationCep: '20040-020', items: [ITEM_EXAMPLE] }),
          responses: {
            '200': {
              description: 'The options, or an empty list with a reason',
              content: jsonContent('RatesResponse', {
                examples: {
                  quote: {
                    value: {
                      // spec 2.2: a rate's code is for display, not the contract product code (03298).
                      rates: [
                        {
                          code: 'PAC',
                          serviceId: 'correios-pac',
                          label: 'Correios PAC',
                          deliveryDays: 6,
                          price: 24.9,
                        },
                        {
                          code: 'SEDEX',
                          serviceId: 'correios-sedex',
                          label: 'Correios SEDEX',
                          deliveryDays: 2,
                          price: 42.5,
                        },
                      ],
                    },
                  },
                  noCoverage: { value: { rates: [], reason: 'no_coverage' } },
                  noServices: {
                    value: {
                      rates: [],
                      reason: 'no_services_enabled',
                      actionUrl: 'https://app.example/settings',
                    },
                  },
                },
              }),
            },
            ...platformErrors([
              ...COMMON_ERRORS,
              'invalid_destination_cep',
              'too_many_items',
              'quote_failed',
            ]),
          },
        },
      },
      '/v1/tracking': {
        post: {
          operationId: 'trackShipments',
          summary: 'Event history and current status of each code',
          description: 'Secret key (mk_) only, from a backend. CORS is not enabled.',
          requestBody: jsonRequest('TrackingRequest', { codes: ['DG049186226BR'] }),
          responses: {
            '200': {
              description: 'One result per code; a code not found is reported on its own result',
              content: jsonContent('TrackingResponse', {
                example: { results: [DELIVERED_EXAMPLE] },
              }),
            },
            ...platformErrors([...COMMON_ERRORS, 'too_many_codes', 'secret_key_required', 'track_failed'], {
              invalid_body: 'codes.0: expected string',
            }),
          },
        },
      },
      '/openapi.json': openApiPath(PLATFORM_ERRORS),
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer pk_… (rates only) or mk_… (rates and tracking, backend only)',
        },
      },
      schemas: {
        RatesRequest: jsonSchema(RatesRequestSchema, 'input'),
        RatesResponse: jsonSchema(RatesResponseSchema, 'output'),
        TrackingRequest: jsonSchema(TrackingRequestSchema, 'input'),
        TrackingResponse: jsonSchema(TrackingResponseSchema, 'output'),
        ErrorBody: jsonSchema(ErrorBodySchema, 'output'),
      },
    },
  };
}
