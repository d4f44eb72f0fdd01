import { describe, expect, it } from 'vitest';
import { ConfigError } from '../shared/env.ts';
import { parseSandboxConfig } from './config.ts';

describe('parseSandboxConfig', () => {
  it('uses the defaults of docs/configuration.md', () => {
    expect(parseSandboxConfig({})).toMatchObject({
      port: 4010,
      rateLimit: { calls: 60, seconds: 60 },
      auth: 'keys',
      publicUrl: 'http://127.0.0.1:4010',
      clockSpeed: 1,
    });
    expect(parseSandboxConfig({ SANDBOX_CLOCK_SPEED: '2880' }).clockSpeed).toBe(2880);
    expect(parseSandboxConfig({}).shopifyTokenTtlS).toBeUndefined();
    expect(parseSandboxConfig({ SANDBOX_SHOPIFY_TOKEN_TTL_S: '5' }).shopifyTokenTtlS).toBe(5);
  });

  it('reads SANDBOX_AUTH and SANDBOX_PUBLIC_URL', () => {
    expect(
      parseSandboxConfig({ SANDBOX_AUTH: 'off', SANDBOX_PUBLIC_URL: 'https://sandbox.example/' }),
    ).toMatchObject({ auth: 'off', publicUrl: 'https://sandbox.example' });
    expect(parseSandboxConfig({ SANDBOX_PORT: '4999' }).publicUrl).toBe('http://127.0.0.1:4999');
  });

  it('reads SANDBOX_PORT and SANDBOX_RATE_LIMIT', () => {
    expect(parseSandboxConfig({ SANDBOX_PORT: '0', SANDBOX_RATE_LIMIT: '5/10' })).toMatchObject({
      port: 0,
      rateLimit: { calls: 5, seconds: 10 },
    });
  });

  it.each([
    [{ SANDBOX_PORT: 'abc' }, 'SANDBOX_PORT'],
    [{ SANDBOX_PORT: '70000' }, 'SANDBOX_PORT'],
    [{ SANDBOX_RATE_LIMIT: '60' }, 'SANDBOX_RATE_LIMIT'],
    [{ SANDBOX_RATE_LIMIT: '0/60' }, 'SANDBOX_RATE_LIMIT'],
    [{ SANDBOX_AUTH: 'none' }, 'SANDBOX_AUTH'],
    [{ SANDBOX_CLOCK_SPEED: '-1' }, 'SANDBOX_CLOCK_SPEED'],
    [{ SANDBOX_CLOCK_SPEED: 'fast' }, 'SANDBOX_CLOCK_SPEED'],
    [{ SANDBOX_SHOPIFY_TOKEN_TTL_S: '0' }, 'SANDBOX_SHOPIFY_TOKEN_TTL_S'],
    [{ SANDBOX_SHOPIFY_TOKEN_TTL_S: '1.5' }, 'SANDBOX_SHOPIFY_TOKEN_TTL_S'],
    [{ SANDBOX_PUBLIC_URL: 'https://sandbox.example/path' }, 'SANDBOX_PUBLIC_URL'],
  ])('names the variable that is wrong: %j', (env, name) => {
    expect(() => parseSandboxConfig(env)).toThrow(name);
  });

  it('throws the same ConfigError as the BFF, starting with the variable, never echoing the value', () => {
    let caught: unknown;
    try {
      parseSandboxConfig({ SANDBOX_PUBLIC_URL: 'https://secret-host.example/path' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toMatch(/^SANDBOX_PUBLIC_URL must be/);
    expect((caught as Error).message).not.toContain('secret-host');
  });
});
