import { sameSecret } from '../../shared/security/hash.ts';
import type { AgentScope, AgentToken } from '../config.ts';

/**
 * The scopes of an agent's Bearer token, compared in constant time against every configured token; a platform key
 * (`mk_…`, `pk_…`, `pl_…`) is never an agent token.
 */
export function agentScopes(
  tokens: readonly AgentToken[],
  authorization: string | undefined,
): AgentScope[] | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const presented = match?.[1];
  if (!presented || /^(mk|pk|pl)_/.test(presented)) return undefined;
  let scopes: AgentScope[] | undefined;
  for (const token of tokens) {
    // Every token is compared, so the time taken does not say which one (or how much of one) matched.
    if (sameSecret(token.token, presented)) scopes = [...token.scopes];
  }
  return scopes;
}

/** A second source of agent tokens beside `BFF_AGENT_TOKENS`: OAuth access tokens (bff/oauth/). */
export interface AgentTokenSource {
  /** The scopes of a token it issued, or undefined. */
  scopes(authorization: string | undefined): Promise<AgentScope[] | undefined>;
  /** The `WWW-Authenticate` value of a 401, pointing OAuth clients at the metadata. */
  challenge(authorization: string | undefined): string;
}

/**
 * Who an agent is, from its `Authorization` header: its scopes, or undefined (401). Checked before the body is read.
 * A second source (OAuth access tokens) is another `AgentAuth`; `anyOf` tries them in order.
 */
export type AgentAuth = (
  authorization: string | undefined,
) => AgentScope[] | undefined | Promise<AgentScope[] | undefined>;

/** The static tokens of `BFF_AGENT_TOKENS`. */
export function staticTokenAuth(tokens: readonly AgentToken[]): AgentAuth {
  return (authorization) => agentScopes(tokens, authorization);
}

/** The first source that knows the token decides. */
export function anyOf(...sources: AgentAuth[]): AgentAuth {
  return async (authorization) => {
    for (const source of sources) {
      const scopes = await source(authorization);
      if (scopes) return scopes;
    }
    return undefined;
  };
}
