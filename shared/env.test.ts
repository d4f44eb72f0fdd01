import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ConfigError, parseEnv } from './env.ts';

const schema = z.object({
  PORT: z.pipe(
    z.string(),
    z.transform((v) => Number(v)),
  ),
  TOKENS: z.optional(
    z.string().check(z.refine((v) => !v.includes('secret'), { message: ': 0.token must not be a secret' })),
  ),
  MODE: z.optional(
    z.string().check(z.refine((v) => v !== 'true', { message: '=true is refused; use a hop count' })),
  ),
});

function failure(env: Record<string, string | undefined>): ConfigError {
  try {
    parseEnv(schema, env);
  } catch (error) {
    return error as ConfigError;
  }
  throw new Error('parseEnv accepted the environment');
}

describe('parseEnv', () => {
  it('returns the parsed environment when every variable is right', () => {
    expect(parseEnv(schema, { PORT: '4010', UNRELATED: 'x' })).toEqual({ PORT: 4010 });
  });

  it('names the wrong variable first, then what is wrong, never its value', () => {
    const error = failure({ PORT: '4010', TOKENS: 'my-secret-value' });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.name).toBe('ConfigError');
    expect(error.message).toBe('TOKENS: 0.token must not be a secret');
    expect(error.message).not.toContain('my-secret-value');
  });

  it('puts a space between the name and a message, unless the message goes on from the name (: or =)', () => {
    expect(failure({ PORT: '1', MODE: 'true' }).message).toBe('MODE=true is refused; use a hop count');
    expect(failure({}).message).toMatch(/^PORT [^:=]/);
  });

  it('speaks of the environment when the problem is not one variable', () => {
    expect(() => parseEnv(schema, undefined as never)).toThrow(/^environment /);
  });
});
