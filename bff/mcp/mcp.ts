import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import express, { type Request, type Response, Router } from 'express';
import { ABOUT_PAGE_HEADERS, aboutPageHtml, wantsPage } from '../../shared/about-page.ts';
import { agentInstructions } from '../../shared/agent-texts.ts';
import { ApiError } from '../../shared/errors.ts';
import { isLoopbackHostname } from '../../shared/security/loopback.ts';
import { rebindingGuard } from '../../shared/security/rebinding.ts';
import type { AgentScope } from '../agent-tokens.ts';
import type { BffConfig } from '../config.ts';
import { discardBody } from '../http/drain.ts';
import { methodNotAllowed } from '../http/errors.ts';
import type { ApprovalStore } from '../policies/approval-store.ts';
import type { PlatformMcp } from '../upstream/platform-mcp.ts';
import {
  type AgentAuth,
  type AgentIdentity,
  type AgentTokenSource,
  anyOf,
  staticTokenAuth,
} from './agent-auth.ts';
import { McpApps } from './apps/apps.ts';
import { JsonExchange } from './json-exchange.ts';
import { AGENT_TOOLS, type AgentToolDeps } from './tools.ts';

export interface AgentMcpDeps extends AgentToolDeps {
  config: BffConfig;
  platform: PlatformMcp;
  /** OAuth access tokens, consulted after the static agent tokens (absent without BFF_ADMIN_PASSWORD). */
  oauth?: AgentTokenSource | undefined;
  /** Who the caller is: static agent tokens, then OAuth, by default; tests may chain another source. */
  auth?: AgentAuth;
  /** The merchant's approvals, for the approvals app. */
  approvals: ApprovalStore;
  /** Where the apps' built documents are (default `dist/apps/`), for tests. */
  appsDir?: string | undefined;
}

/** The most an MCP request's body may hold (1 MB): parsed when authenticated, read and discarded when not. */
const MCP_BODY_LIMIT_BYTES = 1_048_576;

/** The tools a token may use: its scopes intersected with what the platform grants this store. */
export async function offeredTools(
  deps: AgentMcpDeps,
  scopes: readonly AgentScope[],
): Promise<{ tools: string[]; why?: string }> {
  const wanted = AGENT_TOOLS.filter((tool) => scopes.includes(tool.scope));
  // Only a token with the labels scope makes the BFF ask the platform whether label tools exist for this store.
  const labels = scopes.includes('labels') ? await deps.platform.labelAvailability() : { available: true };
  if (labels.available) return { tools: wanted.map((tool) => tool.name) };
  return {
    tools: wanted.filter((tool) => tool.scope !== 'labels').map((tool) => tool.name),
    ...(labels.why ? { why: labels.why } : {}),
  };
}

/**
 * One JSON Schema validator for every per-request server: the SDK otherwise builds a new Ajv instance (with its
 * formats) for each, about half a millisecond of every MCP call (profiled for bench figure 5). It holds no state of
 * a request.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * A server for one request, with the tools this token gets, registered from the table (tools.ts); for a connection
 * that negotiated MCP Apps, with the apps added (apps/apps.ts).
 */
function buildServer(
  deps: AgentMcpDeps,
  tools: readonly string[],
  why: string | undefined,
  identity: AgentIdentity,
  apps: McpApps | undefined,
): McpServer {
  const server = new McpServer(
    { name: 'frete-kit-bff', version: '1.0.0' },
    {
      instructions: agentInstructions(tools, why),
      jsonSchemaValidator: SCHEMA_VALIDATOR,
      ...(apps ? { capabilities: { extensions: McpApps.extensions } } : {}),
    },
  );
  const registered = new Map<string, RegisteredTool>();
  for (const tool of AGENT_TOOLS) {
    if (tools.includes(tool.name)) registered.set(tool.name, tool.register(server, deps, identity.caller));
  }
  apps?.attach(server, registered, identity);
  return server;
}

/**
 * `POST /mcp`: Streamable HTTP, stateless (a new server and transport per request), agent tokens with scopes. Order
 * matters: the Host/Origin check and the token come before the body is read, so an unauthenticated sender cannot
 * make the server parse a large body.
 */
const BFF_MCP_PAGE = {
  title: 'frete-kit: the store’s MCP server for agents',
  lead: 'Agents quote, track and issue labels here with POST (Streamable HTTP) and a token; this is not a page for browsers.',
  lines: [
    { text: 'How to connect an agent (Claude, ChatGPT, the MCP Inspector):', code: 'docs/agents/connect.md' },
    { text: 'With a static agent token (BFF_AGENT_TOKENS):', code: 'Authorization: Bearer <agent token>' },
    { text: 'Or through OAuth, consented on the desk:', code: '/.well-known/oauth-protected-resource' },
    { text: 'The merchant’s desk:', code: '/admin/labels' },
  ],
};

export function agentMcpRoutes(deps: AgentMcpDeps): Router {
  const router = Router();
  const oauth = deps.oauth;
  const auth =
    deps.auth ??
    anyOf(
      staticTokenAuth(deps.config.agentTokens),
      ...(oauth ? [(authorization: string | undefined) => oauth.identity(authorization)] : []),
    );
  // Bound to loopback, local tools and pages on any port may call (the MCP Inspector, a dev server).
  const guard = rebindingGuard({
    publicUrl: deps.config.publicUrl,
    allowedOrigins: deps.config.allowedOrigins,
    loopback: isLoopbackHostname(deps.config.host) ? 'any-port' : 'none',
  });
  router.use('/mcp', guard);
  router.post('/mcp', async (req: Request, res: Response, next) => {
    const identity = await auth(req.headers.authorization);
    if (!identity) {
      // RFC 6750 §3.1: no error code when the request carried no credentials at all.
      const sent = Boolean(req.headers.authorization?.trim());
      res.setHeader(
        'WWW-Authenticate',
        oauth?.challenge(req.headers.authorization) ??
          (sent ? 'Bearer realm="frete-kit-bff", error="invalid_token"' : 'Bearer realm="frete-kit-bff"'),
      );
      // The whole answer goes at once (its length declared, so a client reading while it sends has all of it), then
      // the body (never parsed) is read and discarded up to the route's limit, and only then does the answer end and
      // the connection close (Connection: close): closing on a body still coming would reset it under a client that
      // reads only once it has sent (EPIPE instead of the 401).
      const error = new ApiError('invalid_api_key', 'Send Authorization: Bearer <agent token>.');
      const body = JSON.stringify(error.toBody());
      res.writeHead(error.status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
        Connection: 'close',
      });
      res.write(body);
      await discardBody(req, { maxBytes: MCP_BODY_LIMIT_BYTES, maxMs: 10_000 });
      res.end();
      return;
    }
    res.locals.identity = identity;
    next();
  });
  const apps = new McpApps({
    labels: deps.labels,
    approvals: deps.approvals,
    secretKey: deps.config.secretKey,
    appsDir: deps.appsDir,
  });
  router.post('/mcp', express.json({ limit: MCP_BODY_LIMIT_BYTES }), async (req: Request, res: Response) => {
    const identity = res.locals.identity as AgentIdentity;
    const { tools, why } = await offeredTools(deps, identity.scopes);
    // Capability negotiation decides (SEP-1865): a client that declared MCP Apps gets a session id that says so.
    const ui = apps.negotiate(req.body, req.get('mcp-session-id'), identity.caller.issuedBy);
    if (ui.session) res.setHeader('Mcp-Session-Id', ui.session);
    const server = buildServer(deps, tools, why, identity, ui.apps ? apps : undefined);
    const exchange = new JsonExchange();
    res.on('close', () => {
      void server.close();
    });
    await server.connect(exchange);
    await exchange.handle(req, res, req.body);
  });
  // A browser opening /mcp reads what it is (shared/about-page.ts); MCP clients' GET keeps its 405.
  router.get('/mcp', (req: Request, res: Response, next) => {
    if (!wantsPage(req.headers.accept)) return next();
    res.writeHead(200, ABOUT_PAGE_HEADERS).end(aboutPageHtml(BFF_MCP_PAGE));
  });
  router.all('/mcp', methodNotAllowed('POST'));
  return router;
}
