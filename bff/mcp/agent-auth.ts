import { createHash, timingSafeEqual } from 'node:crypto';
import type { AgentScope, AgentToken } from '../config.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

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
  const presentedDigest = digest(presented);
  let scopes: AgentScope[] | undefined;
  for (const token of tokens) {
    // Every token is compared, so the time taken does not say which one (or how much of one) matched.
    if (timingSafeEqual(presentedDigest, digest(token.token))) scopes = [...token.scopes];
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
