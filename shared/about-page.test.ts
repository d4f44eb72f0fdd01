import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningBff, startBff } from '../bff/testing.ts';
import { type RunningSandbox, startSandbox } from '../sandbox/testing.ts';
import { aboutPageHtml, wantsPage } from './about-page.ts';

/** A browser that opens a machine's address reads what it is; API clients keep their JSON answers. */
let sandbox: RunningSandbox;
let bff: RunningBff;
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

beforeAll(async () => {
  sandbox = await startSandbox();
  bff = await startBff(sandbox.url);
});
afterAll(async () => {
  await bff?.stop();
  await sandbox?.close();
});

describe('the about pages', () => {
  it('answers a browser at the sandbox’s / and both servers’ GET /mcp with a page saying what they are', async () => {
    for (const [url, title] of [
      [`${sandbox.url}/`, 'frete-kit sandbox'],
      [`${sandbox.url}/mcp`, 'frete-kit sandbox: MCP endpoint'],
      [`${bff.url}/mcp`, 'frete-kit: the store’s MCP server for agents'],
    ] as const) {
      const res = await fetch(url, { headers: { accept: BROWSER } });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await res.text()).toContain(`<h1>${title}</h1>`);
    }
  });

  it('answers an icon at both servers’ /favicon.ico, so a browser on their pages logs no 404', async () => {
    for (const url of [`${sandbox.url}/favicon.ico`, `${bff.url}/favicon.ico`]) {
      const res = await fetch(url, { headers: { accept: 'image/avif,image/webp,image/*,*/*;q=0.8' } });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toMatch(/^image\/svg\+xml/);
      expect(await res.text(), url).toMatch(/^<svg /);
    }
  });

  it('keeps the JSON answers of API and MCP clients: the 404 at /, the 405 of GET /mcp', async () => {
    const root = await fetch(`${sandbox.url}/`, { headers: { accept: 'application/json' } });
    expect(root.status).toBe(404);
    expect((await root.json()).error.code).toBe('not_found');
    for (const url of [`${sandbox.url}/mcp`, `${bff.url}/mcp`]) {
      const res = await fetch(url, { headers: { accept: 'text/event-stream' } });
      expect(res.status, url).toBe(405);
    }
  });

  it('checks the Host first: a rebound name gets no page', async () => {
    // fetch() cannot set Host: node:http can.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      get(`${bff.url}/mcp`, { headers: { accept: BROWSER, host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject);
    });
    expect(status).toBe(403);
  });

  it('escapes every value and reads Accept as browsers send it', () => {
    expect(aboutPageHtml({ title: '<b>', lead: '&', lines: [{ text: 'x', code: '"<' }] })).not.toContain(
      '<b>',
    );
    expect(wantsPage(BROWSER)).toBe(true);
    expect(wantsPage('application/json, text/event-stream')).toBe(false);
    expect(wantsPage(undefined)).toBe(false);
  });
});
