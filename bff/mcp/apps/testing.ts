import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import * as z from 'zod/mini';
import type { OAuthStore } from '../../../shared/oauth/store.ts';
import { approvedTokens } from '../../../shared/oauth/testing/suite.ts';
import { sha256Hex } from '../../../shared/security/hash.ts';
import type { AgentPolicy } from '../../policies/policies.ts';

/**
 * A tool's `_meta.ui` (SEP-1865, "Resource Discovery"). Written here because ext-apps 1.7.5's type declarations
 * re-export its schemas through extensionless paths that TypeScript's `nodenext` resolution does not follow.
 */
const ToolUiSchema = z.strictObject({
  resourceUri: z.optional(z.string().check(z.startsWith('ui://'))),
  visibility: z.optional(z.array(z.enum(['model', 'app']))),
});
const DomainsSchema = z.optional(z.array(z.string()));
/** A `ui://` resource's `_meta.ui` (SEP-1865, "UI Resource Format"). */
const ResourceUiSchema = z.looseObject({
  csp: z.optional(
    z.strictObject({
      connectDomains: DomainsSchema,
      resourceDomains: DomainsSchema,
      frameDomains: DomainsSchema,
      baseUriDomains: DomainsSchema,
    }),
  ),
  prefersBorder: z.optional(z.boolean()),
});

/** The capabilities of a host that renders MCP Apps (SEP-1865, "Client (Host) Capabilities"). */
export const APPS_HOST_CAPABILITIES = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };

export interface HostOptions {
  /** Whether the client declares MCP Apps (default true). */
  apps?: boolean;
  /**
   * The protocol revision the client asks for in `initialize` (default: the SDK's latest). The SDK's client always
   * asks for its latest; the transport rewrites that one field, so an older client is played by the real one.
   */
  protocolVersion?: string;
}

/** The SDK's real client, connected to a BFF's `/mcp` with a Bearer token, as a host with (or without) MCP Apps. */
export async function connectHost(
  url: string,
  token: string,
  options: HostOptions = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client(
    { name: 'frete-kit-test-host', version: '1.0.0' },
    { capabilities: options.apps === false ? {} : APPS_HOST_CAPABILITIES },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const version = options.protocolVersion;
  if (version) {
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, sendOptions) =>
      send(
        isInitializeRequest(message)
          ? { ...message, params: { ...message.params, protocolVersion: version } }
          : message,
        sendOptions,
      );
  }
  await client.connect(transport);
  return { client, transport };
}

/** A tool's `_meta.ui` (resourceUri, visibility), parsed with the extension's own schema; `{}` when it has none. */
export function uiOfTool(tool: {
  _meta?: Record<string, unknown> | undefined;
}): z.infer<typeof ToolUiSchema> {
  return ToolUiSchema.parse(tool._meta?.ui ?? {});
}

/**
 * The tools only an app calls (`visibility: ["app"]`, registered in apps.ts): hidden from the model by the host,
 * refused without a grant.
 */
export const APP_ONLY_TOOLS = ['app_issue_label', 'app_decide_approval'] as const;

/** The tools a host hands its model: those whose visibility includes "model" (SEP-1865, "Visibility"). */
export function modelTools<Tool extends { _meta?: Record<string, unknown> | undefined }>(
  tools: Tool[],
): Tool[] {
  return tools.filter((tool) => uiOfTool(tool).visibility?.includes('model') ?? true);
}

/** The one text document of a `ui://` resource read, and its `_meta.ui`, parsed with the schema above. */
export function appContent(read: { contents: unknown[] }): {
  mimeType: string;
  text: string;
  ui: z.infer<typeof ResourceUiSchema>;
} {
  expect(read.contents).toHaveLength(1);
  const content = read.contents[0] as { mimeType?: unknown; text?: unknown; _meta?: { ui?: unknown } };
  return {
    mimeType: String(content.mimeType),
    text: String(content.text),
    ui: ResourceUiSchema.parse(content._meta?.ui ?? {}),
  };
}

/** An OAuth access token the merchant granted (login with `password`, the `labels` scope): their own connection. */
export async function merchantToken(
  origin: string,
  password: string,
  /** The policy the merchant then sets on /admin/agents for this connection (as the desk's form stores it). */
  policy?: { store: OAuthStore; set: AgentPolicy },
  /** The scopes the merchant consents to (default: labels only). */
  scopes: string[] = ['labels'],
): Promise<string> {
  const tokens = await approvedTokens({
    origin: () => origin,
    credentials: { password },
    wrongCredentials: { password: 'x' },
    consentScopes: scopes,
    scopesSupported: ['rates', 'tracking', 'labels'],
    advance: () => {},
  });
  if (policy) await policy.store.setPolicy(sha256Hex(tokens.clientId), JSON.stringify(policy.set));
  return tokens.access;
}
