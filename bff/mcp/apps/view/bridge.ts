import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import type { AppHost } from './model.ts';

/** The MCP Apps revision the views speak (SEP-1865, stable 2026-01-26). */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

const IdSchema = z.union([z.string(), z.number()]);
/** A JSON-RPC message from the host: a response to one of ours, a notification, or a request. */
const MessageSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.optional(IdSchema),
  method: z.optional(z.string()),
  params: z.optional(z.record(z.string(), z.unknown())),
  result: z.optional(z.record(z.string(), z.unknown())),
  error: z.optional(z.looseObject({ code: z.number(), message: z.string() })),
});
const ToolResultSchema = z.looseObject({
  content: z.optional(z.array(z.unknown())),
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
  isError: z.optional(z.boolean()),
  _meta: z.optional(z.record(z.string(), z.unknown())),
});
const InitializeResultSchema = z.looseObject({
  protocolVersion: z.string(),
  hostCapabilities: z.optional(z.looseObject({ downloadFile: z.optional(z.object({})) })),
  hostContext: z.optional(z.looseObject({ theme: z.optional(z.string()), locale: z.optional(z.string()) })),
});
export type HostContext = z.infer<NonNullable<typeof InitializeResultSchema.shape.hostContext>>;

export interface BridgeEvents {
  toolInput(args: Record<string, unknown> | undefined): void;
  toolResult(result: CallToolResult): void;
  hostContext(context: HostContext | undefined): void;
}

/**
 * The view's side of the MCP Apps bridge: JSON-RPC 2.0 over `postMessage` with the window that embeds it, as
 * SEP-1865 "Transport Layer" describes (no SDK needed to speak it). Written here rather than ext-apps' `App`, which
 * brings the MCP SDK's protocol class and two zod builds into every document (600 KB a page, measured with
 * `vite build --mode apps`, against 100 KB, 29 KB gzipped, with this one). Only messages from the parent window are read, each
 * parsed before use; the host's own requests other than `ping` and `ui/resource-teardown` are answered "not found".
 */
export class Bridge implements AppHost {
  download: AppHost['download'];
  private nextId = 1;
  private readonly pending = new Map<
    string | number,
    { resolve(value: unknown): void; reject(e: Error): void }
  >();
  private readonly host: Window;
  private readonly events: BridgeEvents;

  constructor(host: Window, events: BridgeEvents) {
    this.host = host;
    this.events = events;
  }

  /** `ui/initialize`, then `ui/notifications/initialized`; listens before asking, so nothing sent after is missed. */
  async connect(appInfo: { name: string; version: string }): Promise<void> {
    window.addEventListener('message', (event) => {
      if (event.source === this.host) this.receive(event.data);
    });
    const result = InitializeResultSchema.parse(
      await this.request('ui/initialize', {
        appInfo,
        appCapabilities: {},
        protocolVersion: APPS_PROTOCOL_VERSION,
      }),
    );
    this.events.hostContext(result.hostContext);
    if (result.hostCapabilities?.downloadFile) {
      this.download = async (name, mimeType, blob) => {
        await this.request('ui/download-file', {
          contents: [{ type: 'resource', resource: { uri: `file:///${name}`, mimeType, blob } }],
        });
      };
    }
    this.notify('ui/notifications/initialized', {});
    this.reportSize();
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return ToolResultSchema.parse(
      await this.request('tools/call', { name, arguments: args }),
    ) as CallToolResult;
  }

  private request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.host.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
    });
  }

  private notify(method: string, params: Record<string, unknown>): void {
    this.host.postMessage({ jsonrpc: '2.0', method, params }, '*');
  }

  private receive(data: unknown): void {
    const parsed = MessageSchema.safeParse(data);
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.method === undefined) {
      const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiting || message.id === undefined) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result ?? {});
      return;
    }
    if (message.id !== undefined) {
      this.answer(message.id, message.method);
      return;
    }
    const params = message.params ?? {};
    if (message.method === 'ui/notifications/tool-input') {
      const args = params.arguments;
      this.events.toolInput(args && typeof args === 'object' ? (args as Record<string, unknown>) : undefined);
    } else if (message.method === 'ui/notifications/tool-result') {
      const result = ToolResultSchema.safeParse(params);
      if (result.success) this.events.toolResult(result.data as CallToolResult);
    } else if (message.method === 'ui/notifications/host-context-changed') {
      this.events.hostContext(params as HostContext);
    }
  }

  /** The host's requests: `ping` and `ui/resource-teardown` are acknowledged; any other is not ours to serve. */
  private answer(id: string | number, method: string): void {
    const known = method === 'ping' || method === 'ui/resource-teardown';
    this.host.postMessage(
      known
        ? { jsonrpc: '2.0', id, result: {} }
        : { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } },
      '*',
    );
  }

  /** `ui/notifications/size-changed` whenever the page's size changes, so a host fits its frame to it. */
  private reportSize(): void {
    let last = '';
    const report = () => {
      const width = Math.ceil(document.documentElement.scrollWidth);
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (`${width}x${height}` === last) return;
      last = `${width}x${height}`;
      this.notify('ui/notifications/size-changed', { width, height });
    };
    new ResizeObserver(report).observe(document.body);
    report();
  }
}
