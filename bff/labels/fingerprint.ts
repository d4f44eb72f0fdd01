import { createHash } from 'node:crypto';
import type { GenerateLabelInput } from '../../shared/label.ts';

/** JSON with sorted keys, so the same request always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The request's identity: the parsed input (CEPs normalized, defaults applied) without `instanceId`. */
export function fingerprint(input: GenerateLabelInput): string {
  const { instanceId: _ignored, ...rest } = input;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}
