import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type Request, type Response, Router } from 'express';
import { isApiError } from '../../shared/errors.ts';
import { TOOLS, type ToolName } from '../../shared/tools.ts';
import { applyFault } from '../faults/apply.ts';
import { authenticate, type MerchantAccess } from '../http/auth.ts';
import { readJsonBody } from '../http/body.ts';
import { methodNotAllowed } from '../http/errors.ts';
import type { SandboxState } from '../state.ts';
import { SandboxTools } from './tools.ts';

const MCP_BODY_LIMIT = 1_000_000;

/** Spec 1 rule 4: label tools only where the store has label integration and the key merchant permission. */
export function catalog(access: MerchantAccess): ToolName[] {
  const labels = access.store.labelIntegration && access.merchantPermission;
  return (Object.keys(TOOLS) as ToolName[]).filter((name) => labels || !TOOLS[name].labels);
}

function buildServer(state: SandboxState, access: MerchantAccess): McpServer {
  const server = new McpServer(
    { name: 'shipping-platform-sandbox', version: '1.0.0' },
    {
      instructions:
        'Shipping platform (sandbox). Always inspect reason and actionUrl in results. Labels are real, billable pre-postings.',
    },
  );
  const tools = new SandboxTools(state, access);
  const offered = new Set(catalog(access));
  server.registerTool('get_shipping_rates', TOOLS.get_shipping_rates, (input) =>
    tools.getShippingRates(input),
  );
  server.registerTool('track_shipment', TOOLS.track_shipment, (input) => tools.trackShipment(input.codes));
  if (offered.has('generate_label')) {
    server.registerTool('generate_label', TOOLS.generate_label, (input) => tools.generateLabel(input));
    server.registerTool('get_label_pdf', TOOLS.get_label_pdf, (input) =>
      tools.getLabelPdf(input.prepostagemId),
    );
    server.registerTool('diagnose_label_issue', TOOLS.diagnose_label_issue, (input) =>
      tools.diagnose(state.labels.diagnose(access.store, input), input.supportCode !== undefined),
    );
  }
  return server;
}

function jsonRpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  id: unknown = null,
): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id });
}

/** The tool a JSON-RPC message calls, if it is a `tools/call`. */
function calledTool(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
}

/** Spec 4.4, 5.2: Streamable HTTP, stateless (one server and transport per request), Bearer `mk_`. */
export function mcpRoutes(state: SandboxState): Router {
  const router = Router();

  router.post('/mcp', async (req: Request, res: Response) => {
    let access: MerchantAccess;
    try {
      // Spec 5.2: an OAuth access token (sandbox/oauth/) or the store's mk_ key.
      access = (await state.oauth.access(req)) ?? authenticate(req, state.registry, 'mcp');
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        res.setHeader('WWW-Authenticate', state.oauth.challenge(req));
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
      state.stats.count(access.store.id, `mcp:${tool}`);
      if (!(await applyFault(state, `mcp:${tool}`, req, res))) return;
    }
    if (res.locals.dropAfterCommit) {
      // The tool runs to the end; the answer never leaves (spec 3: the unknown network result).
      res.writeHead = (() => {
        res.socket?.destroy();
        return res;
      }) as typeof res.writeHead;
    }
    const server = buildServer(state, access);
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  router.all('/mcp', methodNotAllowed('POST'));

  return router;
}
