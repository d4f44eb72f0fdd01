import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { LABEL_TOOL_NAMES } from '../../shared/tools.ts';
import { type Logger, messageOf } from '../logger.ts';

/**
 * Whether a failed platform call may have run the tool: `not_sent` when the request never reached the tool
 * (connection refused, DNS, TLS, an HTTP error status, a failed MCP handshake), `unknown` when it was sent and the
 * answer was lost (reset, closed socket, timeout, a truncated answer). Only `unknown` can hide a pre-posting (spec 3.4).
 */
export type PlatformCallFailure = 'not_sent' | 'unknown';

/** A platform MCP call without a usable answer. Its message carries no key. */
export class PlatformCallError extends Error {
  override readonly name = 'PlatformCallError';
  readonly failure: PlatformCallFailure;

  constructor(failure: PlatformCallFailure, message: string) {
    super(message);
    this.failure = failure;
  }
}

export function isPlatformCallError(error: unknown): error is PlatformCallError {
  return error instanceof Error && error.name === 'PlatformCallError';
}

/** Socket-level codes that mean the request never left this machine, or never reached a server that could run it. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function causeCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether an HTTP error's body is the MCP server's own JSON-RPC refusal of the request (not an internal error). */
function jsonRpcRefusal(message: string): boolean {
  const start = message.indexOf('{');
  if (start === -1) return false;
  try {
    const body = JSON.parse(message.slice(start)) as { jsonrpc?: unknown; error?: { code?: unknown } };
    return body.jsonrpc === '2.0' && typeof body.error?.code === 'number' && body.error.code !== -32603;
  } catch {
    return false;
  }
}

/**
 * Classifies a failure of the `tools/call` request itself. A 4xx is the platform refusing the request (401, 429…), so
 * nothing ran (408 aside). A 5xx is ambiguous — a gateway (502, 503, 504, a CDN's 52x) may answer after the tool ran
 * (spec 3.4) — unless its body is the MCP server's own JSON-RPC refusal of the request, as the sandbox's 502 is: then
 * the server answered instead of running the tool. Anything ambiguous is `unknown`: reconciled, never resent blind.
 */
export function classifyCallFailure(error: unknown): PlatformCallFailure {
  if (error instanceof StreamableHTTPError) {
    const status = error.code ?? -1;
    if (status >= 400 && status < 500 && status !== 408) return 'not_sent';
    if (status >= 500 && status !== 504 && jsonRpcRefusal(error.message)) return 'not_sent';
    return 'unknown';
  }
  const code = causeCode(error);
  if (code && (NOT_SENT_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL')))
    return 'not_sent';
  return 'unknown';
}

/** The failure's message with its socket-level code, for the error a caller sees. */
function failureText(error: unknown): string {
  const code = causeCode(error);
  const message = messageOf(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** How long the catalog look (handshake, then tools/list) may take before label tools are withheld for now. */
const CATALOG_TIMEOUT_MS = 3_000;

export interface PlatformMcpOptions {
  url: string;
  secretKey: string;
  logger: Logger;
  now?: () => number;
  catalogTtlMs?: number;
  /** The catalog shared by every instance (Redis), beside this instance's own copy. */
  sharedCatalog?: SharedCatalogStore | undefined;
}

/** Where instances share the platform's tool catalog for its TTL. */
export interface SharedCatalogStore {
  get(): Promise<string[] | undefined>;
  set(tools: string[], ttlMs: number): Promise<void>;
  clear(): Promise<void>;
}

/**
 * What the label capability needs of the platform's MCP server: a tool call, and a read-only one. `PlatformMcp` is
 * the real one; tests script the platform's answers with a plain object of this shape.
 */
export interface PlatformPort {
  /** Calls a tool once; throws `PlatformCallError` (`not_sent` or `unknown`) when no answer came back. */
  call(name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<CallToolResult>;
  /** A read-only tool, called again once on any failure. */
  read(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/**
 * The platform's MCP server through the SDK's client with Bearer `mk_`. One connection per call: a call opens its
 * own client, calls, and closes it, so a dropped answer on one call never fails, or marks unknown, any other call.
 */
export class PlatformMcp implements PlatformPort {
  private catalog: { at: number; tools: string[] } | undefined;
  private looking: Promise<string[]> | undefined;
  private readonly open = new Set<Client>();
  private readonly options: Required<Omit<PlatformMcpOptions, 'sharedCatalog'>>;
  private readonly shared: SharedCatalogStore | undefined;

  constructor(options: PlatformMcpOptions) {
    const { sharedCatalog, ...rest } = options;
    this.options = { now: Date.now, catalogTtlMs: 5 * 60_000, ...rest };
    this.shared = sharedCatalog;
  }

  /** A new client for one call; a failed handshake means nothing was sent (`not_sent`). */
  private async connect(timeoutMs = 15_000): Promise<Client> {
    const client = new Client({ name: 'frete-kit-bff', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(this.options.url), {
      requestInit: { headers: { authorization: `Bearer ${this.options.secretKey}` } },
    });
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new PlatformCallError('not_sent', `platform MCP handshake failed: ${failureText(error)}`);
    }
    this.open.add(client);
    return client;
  }

  private async release(client: Client): Promise<void> {
    this.open.delete(client);
    await client.close().catch(() => undefined);
  }

  /**
   * Calls a platform tool once on its own connection. Throws `PlatformCallError`: `not_sent` when the tool cannot
   * have run, `unknown` when the answer was lost after sending (for `generate_label`, spec 3.4).
   */
  async call(name: string, args: Record<string, unknown>, timeoutMs = 60_000): Promise<CallToolResult> {
    const client = await this.connect();
    try {
      return CallToolResultSchema.parse(
        await client.callTool({ name, arguments: args }, CallToolResultSchema, { timeout: timeoutMs }),
      );
    } catch (error) {
      // What the platform offered is asked again once it answers: never "label tools offered" from before an outage.
      this.catalog = undefined;
      void this.shared?.clear();
      throw new PlatformCallError(
        classifyCallFailure(error),
        `platform MCP ${name} failed: ${failureText(error)}`,
      );
    } finally {
      await this.release(client);
    }
  }

  /** A read-only tool, called again once on any failure (reading twice is harmless). */
  async read(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    try {
      return await this.call(name, args, 30_000);
    } catch (error) {
      this.options.logger.warn({ tool: name, error: messageOf(error) }, 'platform MCP: retrying once');
      return this.call(name, args, 30_000);
    }
  }

  /** The tools the platform offers this key (cached for a few minutes). */
  async tools(): Promise<string[]> {
    const { now, catalogTtlMs } = this.options;
    if (this.catalog && now() - this.catalog.at < catalogTtlMs) return this.catalog.tools;
    const shared = await this.shared?.get();
    if (shared) {
      this.catalog = { at: now(), tools: shared };
      return shared;
    }
    // One look at a time, and a short one: every agent request waits on it (the tools it is offered).
    this.looking ??= this.lookUpTools().finally(() => {
      this.looking = undefined;
    });
    return this.looking;
  }

  private async lookUpTools(): Promise<string[]> {
    const { now, catalogTtlMs } = this.options;
    const client = await this.connect(CATALOG_TIMEOUT_MS);
    try {
      const { tools } = await client.listTools(undefined, { timeout: CATALOG_TIMEOUT_MS });
      this.catalog = { at: now(), tools: tools.map((tool) => tool.name) };
      await this.shared?.set(this.catalog.tools, catalogTtlMs);
      return this.catalog.tools;
    } finally {
      await this.release(client);
    }
  }

  /** Whether the platform grants this store the label tools, and why not. */
  async labelAvailability(): Promise<{ available: boolean; why?: string }> {
    let tools: string[];
    try {
      tools = await this.tools();
    } catch (error) {
      // The upstream's own words go to the log, never to agents or the public: they are not ours to show.
      this.options.logger.warn(
        { error: messageOf(error) },
        'platform MCP: the tool catalog could not be read',
      );
      return {
        available: false,
        why: "the platform's MCP server is not answering; asked again on the next request",
      };
    }
    if (LABEL_TOOL_NAMES.every((name) => tools.includes(name))) return { available: true };
    return {
      available: false,
      why: 'the platform does not offer label tools to this key: label integration is off for the store, or the key has no merchant permission',
    };
  }

  /** Closes the connections of calls still in flight (at shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.open].map((client) => this.release(client)));
  }
}
