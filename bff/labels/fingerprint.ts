import type { GenerateLabelInput } from '../../shared/labels/label.ts';
import { sha256Hex } from '../../shared/security/hash.ts';

/** JSON with sorted keys, so the same request always reads the same. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The request as the ledger keeps it: the parsed input (CEPs normalized, defaults applied) without `instanceId`. */
export function canonicalRequest(input: GenerateLabelInput): string {
  const { instanceId: _ignored, ...rest } = input;
  return canonical(rest);
}

/**
 * The request's identity: a hash of the whole parsed request. Two orders that differ in one character of the
 * recipient's name or street number have different fingerprints; diagnosis evidence is matched by this same hash.
 */
export function fingerprint(input: GenerateLabelInput): string {
  return sha256Hex(canonicalRequest(input));
}
