import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LABEL_TOOL_NAMES } from '../../shared/tools.ts';
import type { Logger } from '../logger.ts';

/** The platform's MCP server through the SDK's client with Bearer `mk_`: one connection reused, re-established on failure. */
export class PlatformMcp {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private catalog: { at: number; tools: string[] } | undefined;
  private readonly url: string;
  private readonly secretKey: string;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly catalogTtlMs: number;

  constructor(options: {
    url: string;
    secretKey: string;
    logger: Logger;
    now?: () => number;
    catalogTtlMs?: number;
  }) {
    this.url = options.url;
    this.secretKey = options.secretKey;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.catalogTtlMs = options.catalogTtlMs ?? 5 * 60_000;
  }

  private async connect(): Promise<Client> {
    if (this.client) return this.client;
    this.connecting ??= (async () => {
      const client = new Client({ name: 'frete-kit-bff', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(this.url), {
        requestInit: { headers: { authorization: `Bearer ${this.secretKey}` } },
      });
      try {
        await client.connect(transport);
      } catch (error) {
        this.connecting = undefined;
        throw error;
      }
      client.onclose = () => {
        if (this.client === client) this.client = undefined;
      };
      this.client = client;
      this.connecting = undefined;
      return client;
    })();
    return this.connecting;
  }

  /** Drops the connection so the next call makes a new one. */
  private async reset(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    // What the platform offered is asked again once it answers: never "label tools offered" from before an outage.
    this.catalog = undefined;
    await client?.close().catch(() => undefined);
  }

  /**
   * Calls a platform tool once. A transport failure resets the connection and is thrown: for a read-only tool the
   * caller may call again; for `generate_label` it is an unknown outcome (spec 3.4).
   */
  async call(name: string, args: Record<string, unknown>, timeoutMs = 60_000): Promise<CallToolResult> {
    const client = await this.connect();
    try {
      return (await client.callTool({ name, arguments: args }, undefined, {
        timeout: timeoutMs,
      })) as CallToolResult;
    } catch (error) {
      await this.reset();
      throw error;
    }
  }

  /** A read-only tool, called again once on a transport failure. */
  async read(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    try {
      return await this.call(name, args);
    } catch (error) {
      this.logger.warn(
        { tool: name, error: error instanceof Error ? error.message : String(error) },
        'platform MCP: retrying once',
      );
      return this.call(name, args);
    }
  }

  /** The tools the platform offers this key (cached for a few minutes). */
  async tools(): Promise<string[]> {
    if (this.catalog && this.now() - this.catalog.at < this.catalogTtlMs) return this.catalog.tools;
    const client = await this.connect();
    try {
      const { tools } = await client.listTools();
      this.catalog = { at: this.now(), tools: tools.map((tool) => tool.name) };
      return this.catalog.tools;
    } catch (error) {
      await this.reset();
      throw error;
    }
  }

  /** Whether the platform grants this store the label tools, and why not. */
  async labelAvailability(): Promise<{ available: boolean; why?: string }> {
    let tools: string[];
    try {
      tools = await this.tools();
    } catch (error) {
      // The upstream's own words go to the log, never to agents or the public: they are not ours to show.
      this.logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
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

  async close(): Promise<void> {
    await this.reset();
  }
}
