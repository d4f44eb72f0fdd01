import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ClientRequestSchema,
  ErrorCode,
  type InitializeRequest,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';

/**
 * The SDK's `isInitializeRequest`, asked only of a message whose method is `initialize` (its schema's literal): it
 * parses the whole message against the initialize schema, which cost 7 % of the BFF's own work on a `tools/call`,
 * asked three times a call (profiled for bench figure 5, 2026-12-06: 90 of 1,269 samples).
 */
export function isInitialize(message: unknown): message is InitializeRequest {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === 'initialize' &&
    isInitializeRequest(message)
  );
}

/** The SDK's batch limit (server/requestBody.js). */
const MAX_BATCH = 100;

/** The SDK's schema of each request a client may send, by method (`tools/call` → `CallToolRequestSchema`). */
const REQUEST_SCHEMAS = new Map<string, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

/**
 * A request whose params do not fit its method's schema (e.g. `tools/call` with `arguments: null`), answered here
 * as JSON-RPC -32602 with the first problem in a line: the SDK would parse it inside its handler and answer -32603
 * "Internal error" with the whole validation dump.
 */
export function invalidParams(request: JSONRPCRequest): JSONRPCMessage | undefined {
  const parsed = REQUEST_SCHEMAS.get(request.method)?.safeParse(request);
  if (!parsed || parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue?.path.join('.') || 'params';
  const message = `Invalid params: ${where}: ${issue?.message ?? 'invalid'}`.slice(0, 200);
  return { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InvalidParams, message } };
}

function rpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * Streamable HTTP, stateless, answered as one JSON body (the SDK transport's `enableJsonResponse` mode, which is all
 * the BFF uses), without converting each request to a WHATWG Request and back through Hono: that conversion was a
 * large share of the BFF's own cost per MCP call (bench figure 5). The checks are the SDK transport's, in its words:
 * Accept (406), Content-Type (415), JSON-RPC shape and batch size (400), MCP-Protocol-Version (400); notifications
 * alone get 202.
 */
export class JsonExchange implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly waiting = new Map<RequestId, (message: JSONRPCMessage) => void>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    // A request still waiting (the client went away) is settled, so its handler returns instead of hanging.
    for (const [id, settle] of this.waiting) {
      settle({ jsonrpc: '2.0', id, error: { code: -32000, message: 'Connection closed' } });
    }
    this.waiting.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Server-to-client notifications and requests have no stream to go to in JSON mode (as in the SDK): dropped.
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    const id = message.id;
    if (id === undefined) return;
    this.waiting.get(id)?.(message);
    this.waiting.delete(id);
  }

  /** Checks the HTTP exchange, hands the messages to the server and answers. `body` is the parsed JSON body. */
  async handle(req: Request, res: Response, body: unknown): Promise<void> {
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return rpcError(
        res,
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    }
    if (!req.is('application/json')) {
      return rpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    if (Array.isArray(body) && body.length > MAX_BATCH) {
      return rpcError(res, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
    }
    const parsed = (Array.isArray(body) ? body : [body]).map((raw) => JSONRPCMessageSchema.safeParse(raw));
    if (parsed.some((result) => !result.success)) {
      return rpcError(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
    }
    const messages = parsed.map((result) => result.data as JSONRPCMessage);
    const initializing = messages.some(isInitialize);
    if (initializing && messages.length > 1) {
      return rpcError(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
    }
    const version = req.headers['mcp-protocol-version'];
    if (!initializing && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return rpcError(
        res,
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
    const requests = messages.filter(isJSONRPCRequest);
    if (new Set(requests.map((request) => request.id)).size !== requests.length) {
      // Two requests with one id could not both be answered: refuse the batch rather than hang on it.
      return rpcError(res, 400, -32600, 'Invalid Request: request ids in a batch must be unique');
    }
    const refused = new Map(requests.map((request) => [request.id, invalidParams(request)] as const));
    const answers = requests.map(
      (request) =>
        refused.get(request.id) ??
        new Promise<JSONRPCMessage>((resolve) => this.waiting.set(request.id, resolve)),
    );
    for (const message of messages) {
      if (isJSONRPCRequest(message) && refused.get(message.id)) continue;
      this.onmessage?.(message);
    }
    if (requests.length === 0) {
      res.status(202).end();
      return;
    }
    const replies = await Promise.all(answers);
    if (res.writableEnded || res.destroyed) return;
    res.status(200).json(Array.isArray(body) ? replies : replies[0]);
  }
}
