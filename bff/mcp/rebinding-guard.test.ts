import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { rebindingGuard } from './rebinding.ts';

/**
 * The Host/Origin rule of `rebindingGuard` decision by decision, without a server (rebinding.test.ts drives the same
 * guard through the BFF's /mcp over real sockets).
 */
type Verdict = { passed: true } | { passed: false; status: number; message: string };

function judge(
  options: { publicUrl?: string; allowedOrigins?: string[]; bindHost?: string },
  headers: { host?: string; origin?: string },
): Verdict {
  const guard = rebindingGuard({
    publicUrl: options.publicUrl ?? 'http://127.0.0.1:4000',
    allowedOrigins: options.allowedOrigins ?? [],
    bindHost: options.bindHost ?? '127.0.0.1',
  });
  let verdict: Verdict | undefined;
  let status = 0;
  const res = {
    status(code: number) {
      status = code;
      return res;
    },
    json(body: { jsonrpc: string; error: { code: number; message: string }; id: null }) {
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
      verdict = { passed: false, status, message: body.error.message };
      return res;
    },
  };
  guard({ headers } as Request, res as unknown as Response, () => {
    verdict = { passed: true };
  });
  if (!verdict) throw new Error('the guard neither passed nor answered');
  return verdict;
}

const passes = (...args: Parameters<typeof judge>) => judge(...args).passed;

describe('rebindingGuard: the Host', () => {
  it('serves the public host in any case, with its port', () => {
    const publicUrl = 'https://frete.loja.example';
    const options = { publicUrl, bindHost: '0.0.0.0' };
    expect(passes(options, { host: 'frete.loja.example' })).toBe(true);
    expect(passes(options, { host: 'FRETE.Loja.Example' })).toBe(true);
    expect(
      passes(
        { publicUrl: 'http://frete.loja.example:8080', bindHost: '0.0.0.0' },
        { host: 'frete.loja.example:8080' },
      ),
    ).toBe(true);
    expect(
      passes(
        { publicUrl: 'http://frete.loja.example:8080', bindHost: '0.0.0.0' },
        { host: 'frete.loja.example:8081' },
      ),
    ).toBe(false);
  });

  it('refuses a request without a Host, naming the Host', () => {
    expect(judge({}, {})).toEqual({ passed: false, status: 403, message: 'Forbidden: Host not allowed' });
  });

  it('bound to loopback, serves every loopback name: localhost, 127.x.y.z, [::1]', () => {
    for (const host of ['localhost', 'localhost:9', '127.0.0.1:4000', '127.1.2.3', '[::1]', '[::1]:4000']) {
      expect(passes({}, { host })).toBe(true);
    }
    for (const host of [
      '127.0.0.1.evil.example',
      '127.evil.example',
      '128.0.0.1',
      'localhost.evil.example',
      '0.0.0.0',
    ]) {
      expect(passes({}, { host })).toBe(false);
    }
  });

  it('counts an IPv6 or 127.x bind address as loopback too', () => {
    for (const bindHost of ['::1', '[::1]', 'localhost', '127.0.0.2']) {
      expect(passes({ bindHost }, { host: 'localhost:4000' })).toBe(true);
    }
  });

  it('bound elsewhere, serves no loopback name that is not the public host', () => {
    for (const bindHost of ['0.0.0.0', '10.0.0.5', '::']) {
      expect(passes({ publicUrl: 'https://frete.loja.example', bindHost }, { host: 'localhost' })).toBe(
        false,
      );
      expect(passes({ publicUrl: 'https://frete.loja.example', bindHost }, { host: '127.0.0.1' })).toBe(
        false,
      );
    }
  });

  it('refuses a Host that is not a host at all', () => {
    expect(passes({}, { host: 'local host' })).toBe(false);
    expect(passes({}, { host: '[::1' })).toBe(false);
  });
});

describe('rebindingGuard: the Origin', () => {
  it('passes the public origin and each allowed origin, exactly', () => {
    const options = {
      publicUrl: 'https://frete.loja.example',
      bindHost: '0.0.0.0',
      allowedOrigins: ['https://loja.example', 'https://admin.loja.example'],
    };
    const host = 'frete.loja.example';
    for (const origin of [
      'https://frete.loja.example',
      'https://loja.example',
      'https://admin.loja.example',
    ]) {
      expect(passes(options, { host, origin })).toBe(true);
    }
    for (const origin of [
      'http://loja.example',
      'https://loja.example.evil.com',
      'https://loja.example:444',
      'null',
      'http://localhost:3000',
    ]) {
      expect(judge(options, { host, origin })).toEqual({
        passed: false,
        status: 403,
        message: 'Forbidden: Origin not allowed',
      });
    }
  });

  it('bound to loopback, passes a loopback page over http or https and nothing else', () => {
    for (const origin of ['http://localhost:3000', 'https://127.0.0.1', 'http://[::1]:5173']) {
      expect(passes({}, { host: 'localhost', origin })).toBe(true);
    }
    for (const origin of [
      'ftp://localhost',
      'xhttp://localhost',
      'file://localhost',
      'chrome-extension://localhost',
      'null',
      'http://evil.example',
    ]) {
      expect(passes({}, { host: 'localhost', origin })).toBe(false);
    }
  });

  it('names the Host when both are wrong only if the Origin is fine', () => {
    expect(judge({}, { host: 'evil.example', origin: 'http://localhost' })).toMatchObject({
      message: 'Forbidden: Host not allowed',
    });
    expect(judge({}, { host: 'evil.example', origin: 'http://evil.example' })).toMatchObject({
      message: 'Forbidden: Origin not allowed',
    });
  });
});
