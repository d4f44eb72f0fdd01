import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { type RunningBff, startBff } from '../testing.ts';

/**
 * The MCP conformance suite (@modelcontextprotocol/conformance) against the BFF. The suite sends no credentials, so
 * a proxy on loopback adds the agent token and forwards everything else as sent (Host and Origin included: the
 * dns-rebinding scenario tests the BFF's own guard, not the proxy's).
 *
 * Applicable scenarios, which must pass: below. Not applicable (they need tools, resources, prompts or capabilities
 * the BFF does not have, by design): logging-set-level, completion-complete, tools-call-image, tools-call-audio,
 * tools-call-embedded-resource, tools-call-mixed-content, tools-call-with-logging, tools-call-with-progress,
 * tools-call-sampling, tools-call-elicitation, elicitation-sep1034-defaults, elicitation-sep1330-enums,
 * resources-*, prompts-*, json-schema-2020-12 (its test tool), server-sse-polling and server-sse-multiple-streams
 * (the BFF is stateless: no sessions, no SSE streams). tools-call-simple-text and tools-call-error "pass" against
 * any server (a missing test tool is an error result), so they prove nothing here and are not counted.
 */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

const cli = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

let sandbox: RunningSandbox;
let bff: RunningBff;
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url);
  const target = new URL(bff.url);
  proxy = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, authorization: 'Bearer agent-all-scopes-0001' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.listen(0, '127.0.0.1');
  await new Promise((resolve) => proxy.once('listening', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
}, 60_000);

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await bff.stop();
  await sandbox.close();
});

type Check = { id: string; status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO'; details?: unknown };

async function scenario(name: string): Promise<Check[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [cli, 'server', '--url', proxyUrl, '--scenario', name, '--verbose'],
    { timeout: 120_000 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const start = stdout.indexOf('[');
  const end = stdout.lastIndexOf(']');
  return JSON.parse(stdout.slice(start, end + 1)) as Check[];
}

describe('the MCP conformance suite against the BFF', () => {
  it.each(APPLICABLE)(
    'passes %s',
    async (name) => {
      const checks = await scenario(name);
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.filter((check) => check.status !== 'SUCCESS')).toEqual([]);
    },
    150_000,
  );
});
