import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserContext, Page } from 'playwright-core';
import { appContent, uiOfTool } from '../../bff/mcp/apps/testing.ts';

type Domains = string[] | undefined;
type Csp = {
  connectDomains?: Domains;
  resourceDomains?: Domains;
  frameDomains?: Domains;
  baseUriDomains?: Domains;
};

/**
 * The CSP a host builds from a resource's `_meta.ui.csp` (SEP-1865, "Content Security Policy Enforcement"), in its
 * strict reading: what is not declared is `'none'` (the spec's restrictive default for `connect-src`).
 */
export function cspOf(csp: Csp): string {
  const resources = (csp.resourceDomains ?? []).join(' ');
  const list = (domains: string[] | undefined, otherwise: string) =>
    domains && domains.length > 0 ? domains.join(' ') : otherwise;
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `style-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `img-src 'self' data: ${resources}`.trim(),
    `font-src 'self' ${resources}`.trim(),
    `media-src 'self' data: ${resources}`.trim(),
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
  ].join('; ');
}

/** A transport from the host (Node) to the view in the page's frame, through the page's relay. */
class FrameTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Every message the view sent, in order (a test replays one). */
  readonly fromView: JSONRPCMessage[] = [];
  private readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    await this.page.evaluate((m) => (window as unknown as { toView(m: unknown): void }).toView(m), message);
  }
  /** A message the view posted (or a test replays). */
  deliver(message: JSONRPCMessage): void {
    this.fromView.push(message);
    this.onmessage?.(message);
  }
}

/** What a test hands the host to render: the tool called by the model, with its input and result. */
export interface Rendering {
  tool: Tool;
  input: Record<string, unknown>;
  result: CallToolResult;
  theme: 'light' | 'dark';
  locale?: string;
  width: number;
}

export interface RenderedApp {
  page: Page;
  bridge: AppBridge;
  transport: FrameTransport;
  /** The view's frame, to click and read inside it. */
  frame: ReturnType<Page['frameLocator']>;
  /** The CSP the host enforced on the view. */
  csp: string;
  /** Files the view asked the host to download. */
  downloads: unknown[];
}

/**
 * A web host of MCP Apps for tests, as a chat client embeds an app (SEP-1865): the tool's `ui://` resource read
 * through the SDK's client, served from the host's sandbox origin (`localhost`, the host page being on `127.0.0.1`)
 * with the CSP built from the resource's `_meta.ui.csp`, in an `<iframe sandbox="allow-scripts">`; ext-apps'
 * `AppBridge` speaks for the host in Node, relayed by the page over postMessage; a view's `tools/call` goes to the
 * server only for a tool the server lists as visible to apps.
 */
export class AppsHost {
  /** Requests that reached the host's probe (`/probe…`): a page that respects its CSP makes none. */
  reached = 0;
  private server: Server | undefined;
  private port = 0;
  private readonly views = new Map<string, { html: string; csp: string }>();
  private next = 0;
  private readonly client: Client;

  constructor(client: Client) {
    this.client = client;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://host');
      if (url.pathname.startsWith('/probe')) {
        this.reached++;
        res.writeHead(200, { 'access-control-allow-origin': '*' }).end('reached');
        return;
      }
      const view = this.views.get(url.pathname.slice('/view/'.length));
      if (url.pathname.startsWith('/view/') && view) {
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': view.csp,
        });
        res.end(view.html);
        return;
      }
      const id = url.searchParams.get('view') ?? '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        hostPage(`http://localhost:${this.port}/view/${id}`, Number(url.searchParams.get('width') ?? 360)),
      );
    });
    this.server.listen(0, '127.0.0.1');
    await new Promise((resolve) => this.server?.once('listening', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /**
   * Where a page might try to reach: the host's own origin (fetch and image) and the view's origin (fetch: the CSP's
   * `img-src 'self'`, the spec's default, would let an image of its own origin load).
   */
  probes(): { fetch: string[]; image: string[] } {
    const hostOrigin = `http://127.0.0.1:${this.port}/probe-host`;
    return { fetch: [hostOrigin, `http://localhost:${this.port}/probe-view`], image: [`${hostOrigin}.png`] };
  }

  /** Renders the app of `tool` in a new page of `context`, drives the handshake and sends the tool's input and result. */
  async render(context: BrowserContext, rendering: Rendering): Promise<RenderedApp> {
    const uri = uiOfTool(rendering.tool).resourceUri;
    if (!uri) throw new Error(`${rendering.tool.name} has no app`);
    const content = appContent(await this.client.readResource({ uri }));
    const csp = cspOf(content.ui.csp ?? {});
    const id = String(++this.next);
    this.views.set(id, { html: content.text, csp });

    const page = await context.newPage();
    await page.setViewportSize({ width: rendering.width + 40, height: 900 });
    const transport = new FrameTransport(page);
    await page.exposeFunction('fromView', (message: JSONRPCMessage) => transport.deliver(message));
    const downloads: unknown[] = [];
    const bridge = new AppBridge(
      null,
      { name: 'frete-kit-test-host', version: '1.0.0' },
      { serverTools: {}, downloadFile: {} },
      {
        hostContext: {
          theme: rendering.theme,
          locale: rendering.locale ?? 'pt-BR',
          displayMode: 'inline',
          platform: 'web',
          containerDimensions: { width: rendering.width, maxHeight: 2000 },
        },
      },
    );
    const { tools } = await this.client.listTools();
    bridge.oncalltool = async (params) => {
      // SEP-1865 "Visibility": a view may call only this server's tools whose visibility includes "app".
      const tool = tools.find((candidate) => candidate.name === params.name);
      const visibility = tool ? (uiOfTool(tool).visibility ?? ['model', 'app']) : [];
      if (!visibility.includes('app')) throw new Error(`tool ${params.name} is not callable from an app`);
      return (await this.client.callTool(params)) as CallToolResult;
    };
    bridge.ondownloadfile = async (params) => {
      downloads.push(params);
      return {};
    };
    bridge.onsizechange = ({ height }) => {
      if (!height) return;
      // The host resizes the frame as a host does; an app may report a size as its page is being reloaded or closed
      // (the test's own reload), and then there is no frame left to resize: nothing to do.
      page
        .evaluate((h) => ((document.getElementById('view') as HTMLElement).style.height = `${h}px`), height)
        .catch((error: unknown) => {
          if (!page.isClosed() && !/has been closed|Execution context was destroyed/.test(String(error)))
            throw error;
        });
    };
    const initialized = new Promise<void>((resolve) => {
      bridge.oninitialized = () => resolve();
    });
    await bridge.connect(transport);
    await page.goto(`http://127.0.0.1:${this.port}/?view=${id}&width=${rendering.width}`);
    await initialized;
    await bridge.sendToolInput({ arguments: rendering.input });
    await bridge.sendToolResult(rendering.result);
    return { page, bridge, transport, frame: page.frameLocator('#view'), csp, downloads };
  }
}

/** The host page: the frame and the relay between it and the host's bridge (exposed `fromView`, `toView`). */
function hostPage(viewUrl: string, width: number): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Host</title>
<style>body{margin:20px;background:#eee;color:#111;font-family:sans-serif}h1{font-size:14px}iframe{border:0;width:${width}px;height:400px;display:block;background:transparent}</style></head>
<body><main aria-label="Conversa"><h1>Conversa com o agente</h1><iframe id="view" title="App" sandbox="allow-scripts" src="${viewUrl}"></iframe></main>
<script>
const frame = document.getElementById('view');
window.addEventListener('message', (event) => { if (event.source === frame.contentWindow) window.fromView(event.data); });
window.toView = (message) => frame.contentWindow.postMessage(message, '*');
</script></body></html>`;
}
