import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/**
 * The one set of MCP test helpers, for every suite that talks to an MCP server over HTTP: the sandbox's `/mcp` and
 * the BFF's `/mcp` alike. Everything goes through real clients (the SDK's, the Inspector's CLI); nothing is mocked.
 */

/** A real MCP SDK client connected to `url` (`…/mcp`) with the given headers (e.g. a Bearer key); close it after. */
export async function connectMcp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'frete-kit-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** Calls a tool and returns its result (the SDK types it loosely). */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  timeoutMs?: number,
): Promise<CallToolResult> {
  const options = timeoutMs === undefined ? undefined : { timeout: timeoutMs };
  return (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
}

/**
 * Clients of one suite, each with a Bearer token, closed together in `afterEach` (`closeAll`). `seen` keeps the text
 * content of every tool result called through `call`, for the suite's secret-leak test.
 */
export class McpClients {
  readonly seen: string[] = [];
  private readonly open: Client[] = [];

  async connect(url: string, token: string): Promise<Client> {
    const client = await connectMcp(url, { authorization: `Bearer ${token}` });
    this.open.push(client);
    return client;
  }

  async call(client: Client, name: string, args: Record<string, unknown>, timeoutMs?: number) {
    const result = await callTool(client, name, args, timeoutMs);
    this.seen.push(JSON.stringify(result.content));
    return result;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open.splice(0).map((client) => client.close()));
  }
}

/** A raw `tools/list` POST to an MCP endpoint, with or without an Authorization header. */
export function postToolsList(url: string, authorization?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
}

/**
 * Asserts that every Authorization value (`undefined`: none) is refused with 401 and a `WWW-Authenticate: Bearer`
 * challenge; returns the bodies, so the caller can check them (wire shape, no secret echoed).
 */
export async function expectEach401(url: string, authorizations: (string | undefined)[]): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (const authorization of authorizations) {
    const res = await postToolsList(url, authorization);
    expect(res.status, `${authorization ?? 'no Authorization'}`).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    bodies.push(await res.json());
  }
  return bodies;
}

/** The MCP Inspector's CLI (a real client that is not ours) against `url`, with a Bearer token; its JSON answer. */
export async function mcpInspector(url: string, token: string, ...args: string[]): Promise<unknown> {
  return JSON.parse((await mcpInspectorRun(url, token, ...args)).stdout);
}

/** The MCP Inspector's CLI run, with what it wrote to stderr too (e.g. its schema portability findings). */
export function mcpInspectorRun(
  url: string,
  token: string,
  ...args: string[]
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(
    'npx',
    [
      '--no-install',
      'mcp-inspector',
      '--cli',
      url,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${token}`,
      ...args,
    ],
    { timeout: 60_000 },
  );
}

/** The tool names `token` sees through the Inspector, sorted. */
export async function inspectorToolNames(url: string, token: string): Promise<string[]> {
  const { tools } = (await mcpInspector(url, token, '--method', 'tools/list')) as {
    tools: { name: string }[];
  };
  return tools.map((tool) => tool.name).sort();
}

/** A `tools/call` through the Inspector; `args` become `--tool-arg key=value` (values as the CLI reads them). */
export async function inspectorCall(
  url: string,
  token: string,
  tool: string,
  args: Record<string, string>,
): Promise<{ structuredContent?: unknown; isError?: boolean }> {
  const toolArgs = Object.entries(args).flatMap(([key, value]) => ['--tool-arg', `${key}=${value}`]);
  return (await mcpInspector(url, token, '--method', 'tools/call', '--tool-name', tool, ...toolArgs)) as {
    structuredContent?: unknown;
  };
}
