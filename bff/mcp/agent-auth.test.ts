import { describe, expect, it } from 'vitest';
import type { AgentToken } from '../agent-tokens.ts';
import { type AgentAuth, type AgentIdentity, agentIdentity, anyOf, staticTokenAuth } from './agent-auth.ts';

/** The scopes of a header's identity, as the tests below read them. */
const agentScopes = (tokens: readonly AgentToken[], authorization: string | undefined) =>
  agentIdentity(tokens, authorization)?.scopes;

const TOKENS: AgentToken[] = [
  { token: 'agent-rates-0001', scopes: ['rates'], name: 'quoter' },
  {
    token: 'agent-all-0002',
    scopes: ['rates', 'tracking', 'labels'],
    name: 'shipper',
    maxLabelsPerDay: 5,
    approval: 100,
  },
];

describe('agentScopes: who an agent is, from its Authorization header', () => {
  it('gives each configured token its own scopes, whichever place it has in the list', () => {
    expect(agentScopes(TOKENS, 'Bearer agent-rates-0001')).toEqual(['rates']);
    expect(agentScopes(TOKENS, 'Bearer agent-all-0002')).toEqual(['rates', 'tracking', 'labels']);
  });

  it('reads the Bearer scheme in any case, with any spacing around the token', () => {
    for (const header of [
      'bearer agent-rates-0001',
      'BEARER agent-rates-0001',
      'Bearer    agent-rates-0001',
      'Bearer\tagent-rates-0001',
      'Bearer agent-rates-0001  ',
    ]) {
      expect(agentScopes(TOKENS, header)).toEqual(['rates']);
    }
  });

  it('refuses what is not exactly "Bearer <one token>"', () => {
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'agent-rates-0001',
      'Basic agent-rates-0001',
      'XBearer agent-rates-0001',
      'Bearer agent-rates-0001 extra',
      'Bearer agent-rates-000', // a prefix of a token
      'Bearer agent-rates-00011', // a token with more after it
      'Bearer AGENT-RATES-0001', // tokens are case-sensitive
    ]) {
      expect(agentScopes(TOKENS, header)).toBeUndefined();
    }
  });

  it('never takes a platform key (mk_, pk_, pl_) as an agent token, even one configured as such', () => {
    const careless: AgentToken[] = ['mk_test_demo', 'pk_test_demo', 'pl_test_parceiro'].map((token) => ({
      token,
      scopes: ['labels'],
      name: token,
    }));
    for (const { token } of careless) expect(agentScopes(careless, `Bearer ${token}`)).toBeUndefined();
    // the prefix rule is about the start only: a token that merely contains mk_ is an agent token
    expect(agentScopes([{ token: 'agent-mk_1', scopes: ['rates'], name: 'a' }], 'Bearer agent-mk_1')).toEqual(
      ['rates'],
    );
  });

  it('refuses everyone when no token is configured', () => {
    expect(agentScopes([], 'Bearer agent-rates-0001')).toBeUndefined();
  });

  it('names the agent and carries its policy, never its token', () => {
    expect(agentIdentity(TOKENS, 'Bearer agent-all-0002')).toEqual({
      scopes: ['rates', 'tracking', 'labels'],
      caller: { issuedBy: 'shipper', policy: { maxLabelsPerDay: 5, approval: 100 } },
    });
    expect(JSON.stringify(agentIdentity(TOKENS, 'Bearer agent-all-0002'))).not.toContain('agent-all-0002');
  });

  it('hands out a copy: changing the returned scopes does not widen the configured token', () => {
    const scopes = agentScopes(TOKENS, 'Bearer agent-rates-0001');
    scopes?.push('labels');
    expect(agentScopes(TOKENS, 'Bearer agent-rates-0001')).toEqual(['rates']);
  });
});

describe('anyOf: several sources of agent tokens', () => {
  it('lets the first source that knows the token decide, consulting the next only when it does not', async () => {
    const asked: string[] = [];
    const source =
      (name: string, known: Record<string, AgentToken['scopes']>): AgentAuth =>
      async (authorization) => {
        asked.push(name);
        const scopes = known[authorization ?? ''];
        return scopes && ({ scopes, caller: { issuedBy: name } } satisfies AgentIdentity);
      };
    const auth = anyOf(
      staticTokenAuth(TOKENS),
      source('oauth', { 'Bearer oauth-1': ['tracking'] }),
      source('later', { 'Bearer oauth-1': ['labels'], 'Bearer late-1': ['rates'] }),
    );
    expect((await auth('Bearer agent-all-0002'))?.scopes).toEqual(['rates', 'tracking', 'labels']);
    expect(asked).toEqual([]);
    expect(await auth('Bearer oauth-1')).toEqual({ scopes: ['tracking'], caller: { issuedBy: 'oauth' } });
    expect(asked).toEqual(['oauth']);
    expect((await auth('Bearer late-1'))?.scopes).toEqual(['rates']);
    expect(await auth('Bearer nobody')).toBeUndefined();
    expect(await anyOf()('Bearer agent-all-0002')).toBeUndefined();
  });
});
