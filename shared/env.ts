import type * as z from 'zod/mini';

/** A configuration error: the message names the variable and what is wrong, never its value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Parses an environment with a zod schema whose keys are the variables, once. A wrong variable becomes a
 * `ConfigError` that starts with the variable's name and says what is wrong (the issue's message), never its value.
 * Both servers (`bff/config.ts`, `sandbox/config.ts`) and `npm start` parse through it.
 */
export function parseEnv<S extends z.ZodMiniType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue?.path[0] ?? 'environment');
  const message = issue?.message ?? 'is invalid';
  // A message may go on from the name directly (`BFF_AGENT_TOKENS: 0.token …`, `BFF_TRUST_PROXY=true …`).
  throw new ConfigError(`${name}${/^[:=]/.test(message) ? '' : ' '}${message}`);
}
