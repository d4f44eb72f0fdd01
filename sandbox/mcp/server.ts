import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response, Router } from 'express';
import type * as z from 'zod/mini';
import { ABOUT_PAGE_HEADERS, aboutPageHtml, wantsPage } from '../../shared/about-page.ts';
import { reasonText } from '../../shared/agent-texts.ts';
import { isApiError } from '../../shared/errors.ts';
import { rebindingGuard } from '../../shared/security/rebinding.ts';
import { PARTNER_TOOLS, TOOL_NAMES, TOOLS, type ToolDefinition, type ToolName } from '../../shared/tools.ts';
import { applyFault } from '../faults/apply.ts';
import { authenticateMcp, type McpCaller, type MerchantAccess } from '../http/auth.ts';
import { readJsonBody } from '../http/body.ts';
import { jsonRpcError, sandboxMethodNotAllowed } from '../http/errors.ts';
import { strictRouter } from '../http/router.ts';
import type { SandboxState } from '../state.ts';
import { MERCHANT_TOOLS, result } from './tools.ts';

const MCP_BODY_LIMIT = 1_000_000;

/** The store the local mode picks when `instanceId` is omitted (sandbox/README.md "Local unauthenticated MCP"). */
const LOCAL_DEFAULT_STORE = 'loja-demo';

/** Spec 1 rule 4: label tools only where the store has label integration and the key merchant permission. */
function catalog(access: MerchantAccess): ToolName[] {
  return TOOL_NAMES.filter((name) => mayIssueLabels(access) || !TOOLS[name].labels);
}

function mayIssueLabels(access: MerchantAccess): boolean {
  return access.store.labelIntegration && access.merchantPermission;
}

/** What each tool answers when no store can be resolved: its output schema's shape with only a `reason`. */
const EMPTY_OUTPUT: Record<ToolName, Record<string, unknown>> = {
  get_shipping_rates: { rates: [] },
  track_shipment: { results: [] },
  generate_label: {},
  get_label_pdf: {},
  diagnose_label_issue: { attempts: [] },
};

function merchantNotFound(tool: ToolName, instanceId: string): CallToolResult {
  const text = `No store with instanceId "${instanceId.slice(0, 80)}" on this server.\nreason: merchant_not_found`;
  return result(text, { ...EMPTY_OUTPUT[tool], reason: 'merchant_not_found' });
}

/**
 * The local mode resolves every call by its `instanceId` and offers the whole catalog, so a store without label
 * integration answers the label tools with a reason instead of missing from a catalog that cannot depend on it.
 */
function labelsDisabled(state: SandboxState, tool: ToolName, access: MerchantAccess): CallToolResult {
  const actionUrl = state.registry.actionUrl(access.store, 'labels');
  return result(
    `Label integration is off for this store${reasonText({ reason: 'label_integration_disabled', actionUrl })}.`,
    { ...EMPTY_OUTPUT[tool], reason: 'label_integration_disabled', actionUrl },
  );
}

/** The store of a local-mode call (spec 4.4: `instanceId` is used only on local or unauthenticated servers). */
function localAccess(state: SandboxState, instanceId: string | undefined): MerchantAccess | undefined {
  const store = state.registry.byId(instanceId ?? LOCAL_DEFAULT_STORE);
  if (!store || store.deleted) return undefined;
  return { store, kind: 'secret', merchantPermission: true };
}

const INSTRUCTIONS =
  'Shipping platform (sandbox). Always inspect reason and actionUrl in results. Labels are real, billable pre-postings.';
const PARTNER_INSTRUCTIONS =
  'Shipping platform (sandbox), platform scope. Create merchants and send each to its onboardingUrl; follow with get_merchant_status.';

/** The platform's MCP server as clients see it in `initialize`: one name for both scopes, their own instructions. */
function sandboxServer(instructions: string): McpServer {
  return new McpServer({ name: 'shipping-platform-sandbox', version: '1.0.0' }, { instructions });
}

/** The merchant tools `offered`, each run for the store `resolve` gives for the call's `instanceId`. */
function merchantServer(
  state: SandboxState,
  offered: readonly ToolName[],
  resolve: (instanceId: string | undefined) => MerchantAccess | undefined,
): McpServer {
  const server = sandboxServer(INSTRUCTIONS);
  for (const tool of offered) {
    // `tool` is one name at a time: the SDK parses the input with `TOOLS[tool].inputSchema`, which is exactly what
    // `MERCHANT_TOOLS[tool]` takes, but TypeScript sees the union of every tool's schema and input.
    const config = TOOLS[tool] as ToolDefinition<z.ZodMiniType<{ instanceId?: string | undefined }>>;
    server.registerTool(tool, config, (input) => {
      const access = resolve(input.instanceId);
      if (!access) return merchantNotFound(tool, input.instanceId ?? LOCAL_DEFAULT_STORE);
      if (TOOLS[tool].labels && !mayIssueLabels(access)) return labelsDisabled(state, tool, access);
      return MERCHANT_TOOLS[tool](input as never, state, access);
    });
  }
  return server;
}

/** Spec 4.4.6: a platform key sees exactly the partner tools, for the merchants it created. */
function partnerServer(state: SandboxState, partnerId: string, baseUrl: string): McpServer {
  const server = sandboxServer(PARTNER_INSTRUCTIONS);
  server.registerTool('create_merchant', PARTNER_TOOLS.create_merchant, (input) => {
    const output = state.partners.create(partnerId, input, baseUrl);
    const text = output.reason
      ? `No merchant was created.\nreason: ${output.reason}`
      : `Merchant ${output.merchantId} is ${output.status}. Send the merchant to ${output.onboardingUrl} to finish the configuration and receive the keys.`;
    return result(text, output);
  });
  server.registerTool('get_merchant_status', PARTNER_TOOLS.get_merchant_status, (input) => {
    const output = state.partners.status(partnerId, input.merchantId);
    if (output.reason)
      return result(`No merchant ${input.merchantId} for this partner.\nreason: ${output.reason}`, output);
    const steps = Object.entries(output.steps ?? {})
      .map(([step, done]) => `${done ? '✓' : '·'} ${step}`)
      .join(', ');
    return result(
      `Merchant ${output.merchantId}: ${output.status} (${steps})${output.publicKey ? `\npublicKey: ${output.publicKey}` : ''}`,
      output,
    );
  });
  return server;
}

function buildServer(state: SandboxState, caller: McpCaller, baseUrl: string): McpServer {
  switch (caller.kind) {
    case 'partner':
      return partnerServer(state, caller.partnerId, baseUrl);
    case 'local':
      return merchantServer(state, TOOL_NAMES, (id) => localAccess(state, id));
    case 'merchant':
      // Spec 1 rule 1: the store comes from the key; `instanceId` is ignored.
      return merchantServer(state, catalog(caller.access), () => caller.access);
  }
}

/** The tool a JSON-RPC message calls, if it is a `tools/call`, with its `instanceId` argument. */
function calledTool(message: unknown): { name: string; instanceId: unknown } | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params } = message as {
    method?: unknown;
    params?: { name?: unknown; arguments?: { instanceId?: unknown } };
  };
  if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
  return { name: params.name, instanceId: params.arguments?.instanceId };
}

/** The store a call is counted for in `/_sandbox/stats`, if any (partners act on no store). */
function countedStore(state: SandboxState, caller: McpCaller, instanceId: unknown): string | undefined {
  if (caller.kind === 'merchant') return caller.access.store.id;
  if (caller.kind === 'local')
    return localAccess(state, typeof instanceId === 'string' ? instanceId : undefined)?.store.id;
  return undefined;
}

/**
 * Spec 4.4, 5.2: Streamable HTTP, stateless (one server and transport per request). Host/Origin checked first in
 * every mode; then the caller: a store key, a platform key, or — with `SANDBOX_AUTH=off` — no credential at all.
 */
const SANDBOX_MCP_PAGE = {
  title: 'frete-kit sandbox: MCP endpoint',
  lead: 'The emulated shipping platform’s MCP server (spec 4.4). Agents call it with POST (Streamable HTTP), not a browser.',
  lines: [
    {
      text: 'Connect an MCP client with a sandbox key (sandbox/README.md, "Stores and keys"):',
      code: 'Authorization: Bearer mk_test_demo',
    },
    { text: 'Or try it with the MCP Inspector:', code: 'npx @modelcontextprotocol/inspector' },
    { text: 'What the sandbox is:', code: '/' },
  ],
};

export function mcpRoutes(state: SandboxState): Router {
  const router = strictRouter();

  // This server's own loopback address, or its public URL: the platform has no other page that calls /mcp.
  router.all('/mcp', rebindingGuard({ publicUrl: state.publicUrl, loopback: 'this-port' }));
  router.post('/mcp', async (req: Request, res: Response) => {
    let caller: McpCaller;
    try {
      // Spec 5.2: an OAuth access token (sandbox/oauth/), else a key (or, with SANDBOX_AUTH=off, none at all).
      const oauth = await state.oauth.access(req);
      caller = oauth ? { kind: 'merchant', access: oauth } : authenticateMcp(req, state.registry, state.auth);
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        res.setHeader('WWW-Authenticate', state.oauth.challenge(req.headers.authorization));
      }
      throw error;
    }
    let body: unknown;
    try {
      body = await readJsonBody(req, MCP_BODY_LIMIT);
    } catch (error) {
      if (isApiError(error) && error.code === 'invalid_json')
        return jsonRpcError(res, 400, -32700, `Parse error: ${error.message}`);
      throw error;
    }
    const tool = (Array.isArray(body) ? body : [body]).map(calledTool).find(Boolean);
    if (tool) {
      const storeId = countedStore(state, caller, tool.instanceId);
      if (storeId) state.stats.count(storeId, `mcp:${tool.name}`);
      if (!(await applyFault(state, `mcp:${tool.name}`, req, res))) return;
    }
    if (res.locals.dropAfterCommit) {
      // The tool runs to the end; the answer never leaves (spec 3: the unknown network result).
      res.writeHead = (() => {
        res.socket?.destroy();
        return res;
      }) as typeof res.writeHead;
    }
    // The Host was checked above, so it names this server when no public URL is configured.
    const baseUrl = state.publicUrl ?? `http://${req.headers.host}`;
    const server = buildServer(state, caller, baseUrl);
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  // A browser opening /mcp reads what it is (shared/about-page.ts); MCP clients' GET keeps its 405.
  router.get('/mcp', (req: Request, res: Response, next) => {
    if (!wantsPage(req.headers.accept)) return next();
    res.writeHead(200, ABOUT_PAGE_HEADERS).end(aboutPageHtml(SANDBOX_MCP_PAGE));
  });
  router.all('/mcp', sandboxMethodNotAllowed('POST'));

  return router;
}
