import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../sandbox/app.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { type RunningBff, startBff } from './testing.ts';

let sandbox: RunningSandbox;
let bff: RunningBff;
const seen: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url);
});
afterAll(async () => {
  await bff.stop();
  await sandbox.close();
});

async function get(path: string) {
  const res = await fetch(`${bff.url}${path}`, { redirect: 'manual' });
  const body = await res.text();
  seen.push(`${path} ${res.status} ${JSON.stringify([...res.headers])} ${body}`);
  return { res, body };
}

/** A GET through node:http, so the test can pick its source address and headers. */
function rawGet(
  url: string,
  options: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ...options, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the BFF surface', () => {
  it('is alive and ready when the upstream takes the key', async () => {
    expect((await get('/healthz')).res.status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.res.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({
      ok: true,
      checks: [
        { name: 'upstream', ok: true },
        { name: 'ledger', ok: true },
        { name: 'labels', ok: true, detail: 'label tools offered' },
        { name: 'widget', ok: true },
      ],
    });
  });

  it('says in /readyz why label tools are not offered when the platform withholds them', async () => {
    const noLabels = await startBff(sandbox.url, { SHIPPING_SECRET_KEY: 'mk_test_sem_etiquetas' });
    try {
      const body = (await (await fetch(`${noLabels.url}/readyz`)).json()) as {
        ok: boolean;
        checks: { name: string; detail?: string }[];
      };
      expect(body.ok).toBe(true);
      expect(body.checks.find((check) => check.name === 'labels')?.detail).toContain(
        'label integration is off',
      );
    } finally {
      await noLabels.stop();
    }
  });

  it('is not ready when the platform refuses the key or is down', async () => {
    const refused = await startBff(sandbox.url, { SHIPPING_SECRET_KEY: 'mk_test_removida' });
    const down = await startBff('http://127.0.0.1:9', {}, { upstream: { retries: 0, timeoutMs: 500 } });
    try {
      const a = await fetch(`${refused.url}/readyz`);
      expect(a.status).toBe(503);
      expect(JSON.stringify(await a.json())).toContain('refused the secret key');
      const b = await fetch(`${down.url}/readyz`);
      expect(b.status).toBe(503);
    } finally {
      await refused.stop();
      await down.stop();
    }
  });

  it('shows the public only { ok } on /readyz: details need a direct loopback connection (127.0.0.1, no proxy)', async () => {
    const fromOtherAddress = await rawGet(`${bff.url}/readyz`, { localAddress: '127.0.0.2' });
    expect(fromOtherAddress.status).toBe(200);
    expect(JSON.parse(fromOtherAddress.body)).toEqual({ ok: true });
    const throughProxy = await rawGet(`${bff.url}/readyz`, { headers: { 'x-forwarded-for': '203.0.113.5' } });
    expect(JSON.parse(throughProxy.body)).toEqual({ ok: true });
    const refused = await startBff(sandbox.url, { SHIPPING_SECRET_KEY: 'mk_test_removida' });
    try {
      const outside = await rawGet(`${refused.url}/readyz`, { localAddress: '127.0.0.2' });
      expect(outside.status).toBe(503);
      expect(JSON.parse(outside.body)).toEqual({ ok: false });
    } finally {
      await refused.stop();
    }
  });

  it('re-checks label availability when the platform MCP comes back, and never shows its raw error text', async () => {
    const platform = createSandbox();
    const probe = platform.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => probe.once('listening', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const agent = await startBff(sandbox.url, { SHIPPING_MCP_URL: `http://127.0.0.1:${port}/mcp` });
    const labels = async () =>
      (
        (await (await fetch(`${agent.url}/readyz`)).json()) as { checks: { name: string; detail?: string }[] }
      ).checks.find((check) => check.name === 'labels')?.detail;
    let server: ReturnType<typeof platform.app.listen> | undefined;
    try {
      const down = await labels();
      expect(down).toContain('not answering');
      expect(down).not.toMatch(/ECONNREFUSED|fetch failed|TypeError|127\.0\.0\.1/);
      const agentClient = new Client({ name: 'readyz-test', version: '1.0.0' });
      await agentClient.connect(
        new StreamableHTTPClientTransport(new URL(`${agent.url}/mcp`), {
          requestInit: { headers: { authorization: 'Bearer agent-all-scopes-0001' } },
        }),
      );
      const instructions = agentClient.getInstructions() ?? '';
      await agentClient.close();
      expect(instructions).toContain('Label tools are not offered');
      expect(instructions).not.toMatch(
        /ECONNREFUSED|fetch failed|TypeError|127\.0\.0\.1|generate_label creates/,
      );
      server = platform.app.listen(port, '127.0.0.1');
      await new Promise((resolve) => server?.once('listening', resolve));
      expect(await labels()).toBe('label tools offered');
    } finally {
      await agent.stop();
      server?.closeAllConnections();
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    }
  });

  it('serves the widget bundles as classic scripts any storefront may load, cached', async () => {
    const { res, body } = await get('/widget/shipping-widget.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d{5,}/);
    expect(body).not.toMatch(/^\s*(import|export)\s/m);
    expect((await get('/widget/shipping-tracking.js')).res.status).toBe(200);
  });

  it('serves the demo storefront wired to the platform URL and public key', async () => {
    const index = await get('/demo/');
    expect(index.res.status).toBe(200);
    expect(index.body).toContain('product.html');
    const product = await get('/demo/product.html');
    expect(product.body).toContain(`data-api-url="${sandbox.url}"`);
    expect(product.body).toContain('data-public-key="pk_test_demo"');
    expect(product.body).toContain('src="/widget/shipping-widget.js"');
    expect(product.res.headers.get('content-security-policy')).toContain(`connect-src 'self' ${sandbox.url}`);
    expect((await get('/demo/cart.html')).res.status).toBe(200);
    expect((await get('/demo/../package.json')).res.status).toBe(404);
  });

  it('serves the tracking page with the tracking element', async () => {
    const page = await get('/track?codes=DG049186226BR');
    expect(page.res.status).toBe(200);
    expect(page.body).toContain('<shipping-tracking');
    expect(page.body).toContain('/widget/shipping-tracking.js');
  });

  it('answers unknown routes with 404 in the envelope', async () => {
    const missing = await get('/nope');
    expect(missing.res.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('secrets', () => {
  // Runs last: every test above added what it received and what the BFF logged.
  it('never shows the secret key in a reply (status, headers, body) or a log line of this suite', () => {
    expect(seen.length, 'replies and log lines were collected, so this check can fail').toBeGreaterThan(3);
    expect([...seen, ...bff.logs].join('\n')).not.toMatch(/mk_[A-Za-z0-9_]/);
  });
});
