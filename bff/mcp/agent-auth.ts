import { sameSecret } from '../../shared/security/hash.ts';
import type { AgentScope, AgentToken } from '../agent-tokens.ts';
import type { Caller } from '../policies/policies.ts';

/** Who an agent is: the scopes its token grants, and who it is to the ledger (its name and policy). */
export interface AgentIdentity {
  scopes: AgentScope[];
  caller: Caller;
  /**
   * A connection the merchant granted by logging in (an OAuth token: the consent needs `BFF_ADMIN_PASSWORD`), never a
   * static agent token: it may show and decide the merchant's approvals in the approvals app (bff/mcp/apps/).
   */
  merchantLogin?: boolean;
}

/**
 * The identity of an agent's Bearer token, compared in constant time against every configured token; a platform key
 * (`mk_…`, `pk_…`, `pl_…`) is never an agent token.
 */
export function agentIdentity(
  tokens: readonly AgentToken[],
  authorization: string | undefined,
): AgentIdentity | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const presented = match?.[1];
  if (!presented || /^(mk|pk|pl)_/.test(presented)) return undefined;
  let found: AgentToken | undefined;
  for (const token of tokens) {
    // Every token is compared, so the time taken does not say which one (or how much of one) matched.
    if (sameSecret(token.token, presented)) found = token;
  }
  if (!found) return undefined;
  const { token: _secret, scopes, name, ...policy } = found;
  return { scopes: [...scopes], caller: { issuedBy: name, policy } };
}

/** A second source of agent tokens beside `BFF_AGENT_TOKENS`: OAuth access tokens (bff/oauth/). */
export interface AgentTokenSource {
  /** The identity of a token it issued, or undefined. */
  identity(authorization: string | undefined): Promise<AgentIdentity | undefined>;
  /** The `WWW-Authenticate` value of a 401, pointing OAuth clients at the metadata. */
  challenge(authorization: string | undefined): string;
}

/**
 * Who an agent is, from its `Authorization` header: its identity, or undefined (401). Checked before the body is read.
 * A second source (OAuth access tokens) is another `AgentAuth`; `anyOf` tries them in order.
 */
export type AgentAuth = (
  authorization: string | undefined,
) => AgentIdentity | undefined | Promise<AgentIdentity | undefined>;

/** The static tokens of `BFF_AGENT_TOKENS`. */
export function staticTokenAuth(tokens: readonly AgentToken[]): AgentAuth {
  return (authorization) => agentIdentity(tokens, authorization);
}

/** The first source that knows the token decides. */
export function anyOf(...sources: AgentAuth[]): AgentAuth {
  return async (authorization) => {
    for (const source of sources) {
      const identity = await source(authorization);
      if (identity) return identity;
    }
    return undefined;
  };
}
