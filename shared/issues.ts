import type * as z from 'zod/mini';
import { ApiError } from './errors.ts';

/** The value as `schema` reads it, or `invalid_body` naming what is wrong (paths, never values). */
export function parseInput<T>(schema: z.ZodMiniType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiError('invalid_body', describeIssues(parsed.error.issues));
  return parsed.data;
}

/**
 * A quote or tracking body the schema refused, in the platform's words (spec 7.1), as the sandbox and the BFF say
 * them: too many entries in `list` (`too_many_items`, `too_many_codes`), a text at `cep` that is not a CEP
 * (`invalid_destination_cep`), or else `invalid_body` — naming paths, never values.
 */
export function bodyError(
  issues: readonly z.core.$ZodIssue[],
  body: unknown,
  fields: { list: 'items' | 'codes'; cep?: string },
): ApiError {
  const { list, cep } = fields;
  if (issues.some((issue) => issue.path.length === 1 && issue.path[0] === list && issue.code === 'too_big'))
    return new ApiError(list === 'items' ? 'too_many_items' : 'too_many_codes', describeIssues(issues));
  const text = cep === undefined ? undefined : (body as Record<string, unknown> | null)?.[cep];
  const cepIssues = issues.filter((issue) => issue.path[0] === cep);
  if (typeof text === 'string' && cepIssues.length > 0)
    return new ApiError('invalid_destination_cep', describeIssues(cepIssues));
  return new ApiError('invalid_body', describeIssues(issues));
}

/** One readable sentence from zod issues, for an error `message` (paths, never values: no secret is echoed). */
export function describeIssues(issues: readonly z.core.$ZodIssue[], limit = 3): string {
  const parts = issues.slice(0, limit).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'body';
    return `${where}: ${describeIssue(issue)}`;
  });
  const more = issues.length > limit ? ` (and ${issues.length - limit} more)` : '';
  return `${parts.join('; ')}${more}`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_small':
      return issue.origin === 'array' || issue.origin === 'string'
        ? `must have at least ${issue.minimum} ${issue.origin === 'array' ? 'entries' : 'characters'}`
        : `must be ${issue.inclusive ? '≥' : '>'} ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'array' || issue.origin === 'string'
        ? `must have at most ${issue.maximum} ${issue.origin === 'array' ? 'entries' : 'characters'}`
        : `must be ${issue.inclusive ? '≤' : '<'} ${issue.maximum}`;
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'property' : 'properties'} ${issue.keys.join(', ')}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return issue.message && issue.message !== 'Invalid input' ? issue.message : `invalid ${issue.format}`;
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : 'invalid value';
  }
}
