import { InvalidScopeError, InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

/** Every scope is one this server offers, else `invalid_scope`. */
export function checkScopes(offered: readonly string[], scopes: string[]): void {
  const unknown = scopes.filter((scope) => !offered.includes(scope));
  if (unknown.length > 0) throw new InvalidScopeError(`unknown scope: ${unknown.join(' ').slice(0, 100)}`);
}

/** Tokens are issued for `ours` only (RFC 8707), else `invalid_target`. */
export function checkResource(ours: string, resource: URL | string | undefined): void {
  if (resource === undefined) return;
  const text = String(resource).replace(/\/$/, '');
  if (text !== ours) throw new InvalidTargetError(`tokens are issued only for ${ours}`);
}
