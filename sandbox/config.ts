import * as z from 'zod/mini';
import { parseEnv } from '../shared/env.ts';
import { RATE_LIMIT_TEXT } from '../shared/platform-limits.ts';
import { parseRateLimit, type RateLimit } from '../shared/windowed-counter.ts';

const wholeMs = (fallback: string) =>
  z._default(z.string().check(z.regex(/^\d+$/, 'must be whole milliseconds')), fallback);

const EnvSchema = z.object({
  SANDBOX_PORT: z._default(
    z
      .string()
      .check(z.refine((v) => /^\d{1,5}$/.test(v) && Number(v) <= 65535, 'must be a port number (0-65535)')),
    '4010',
  ),
  SANDBOX_RATE_LIMIT: z._default(
    z
      .string()
      .check(
        z.refine((v) => parseRateLimit(v) !== undefined, `must be calls/seconds, e.g. ${RATE_LIMIT_TEXT}`),
      ),
    RATE_LIMIT_TEXT,
  ),
  SANDBOX_LABEL_PDF_DELAY_MS: wholeMs('150'),
  SANDBOX_LABEL_PDF_WAIT_MS: wholeMs('5000'),
  SANDBOX_AUTH: z._default(z.enum(['keys', 'off'], 'must be keys or off'), 'keys'),
  SANDBOX_CLOCK_SPEED: z._default(
    z
      .string()
      .check(
        z.refine(
          (v) => /^\d+(\.\d+)?$/.test(v) && Number(v) <= 1_000_000,
          'must be how many simulated seconds pass in a real one (1 to 1000000), e.g. 3600',
        ),
      ),
    '1',
  ),
  SANDBOX_SHOPIFY_TOKEN_TTL_S: z.optional(
    z
      .string()
      .check(
        z.refine((v) => /^\d{1,6}$/.test(v) && Number(v) >= 1, 'must be whole seconds, 1 or more, e.g. 3600'),
      ),
  ),
  SANDBOX_PUBLIC_URL: z.optional(
    z.string().check(
      z.refine((v) => {
        try {
          const url = new URL(v);
          return /^https?:$/.test(url.protocol) && url.pathname === '/';
        } catch {
          return false;
        }
      }, 'must be an http(s) origin such as http://127.0.0.1:4010'),
    ),
  ),
});

/** Parses the sandbox's environment once; a `ConfigError` (shared/env.ts) names the variable and what is wrong. */
export function parseSandboxConfig(env: Record<string, string | undefined> = process.env) {
  const data = parseEnv(EnvSchema, env);
  const port = Number(data.SANDBOX_PORT);
  return {
    port,
    rateLimit: parseRateLimit(data.SANDBOX_RATE_LIMIT) as RateLimit,
    labelPdfDelayMs: Number(data.SANDBOX_LABEL_PDF_DELAY_MS),
    labelPdfWaitMs: Number(data.SANDBOX_LABEL_PDF_WAIT_MS),
    auth: data.SANDBOX_AUTH,
    clockSpeed: Number(data.SANDBOX_CLOCK_SPEED),
    /** How long the emulated Shopify's expiring tokens live (default Shopify's: 1 h; client credentials 24 h). */
    shopifyTokenTtlS:
      data.SANDBOX_SHOPIFY_TOKEN_TTL_S === undefined ? undefined : Number(data.SANDBOX_SHOPIFY_TOKEN_TTL_S),
    // The sandbox's {base_url} and {app_url}, no trailing slash; {mcp_url} is this plus `/mcp`.
    publicUrl: (data.SANDBOX_PUBLIC_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, ''),
  };
}
