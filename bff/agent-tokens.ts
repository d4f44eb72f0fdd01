import * as z from 'zod/mini';
import { Invalid, json } from './env-readers.ts';
import { AgentPolicySchema } from './policies/policies.ts';

// The merchant's agents' static tokens (`BFF_AGENT_TOKENS`, docs/configuration.md): each a token, its scopes, the name
// the ledger and the desk know it by, and its policy.

export const AGENT_SCOPES = ['rates', 'tracking', 'labels'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];

const AgentTokensSchema = z.array(
  z.extend(AgentPolicySchema, {
    token: z.string().check(z.minLength(16, 'each token must have at least 16 characters')),
    scopes: z.array(z.enum(AGENT_SCOPES)).check(z.minLength(1)),
    /** How the ledger and the desk name this agent (default `agent-<n>`, its place in the list). */
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(60))),
  }),
);
export type AgentToken = z.infer<typeof AgentTokensSchema>[number] & { name: string };

/** `BFF_AGENT_TOKENS`: a JSON list of tokens, each named (default `agent-<n>`); never a platform key. */
export function agentTokens(value: string | undefined): AgentToken[] {
  if (!value) return [];
  const parsed = AgentTokensSchema.safeParse(
    json(value, '[{"token":"…","scopes":["rates","tracking","labels"]}]'),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Invalid(`: ${issue?.path.join('.') || 'value'} ${issue?.message ?? 'is invalid'}`);
  }
  if (parsed.data.some(({ token }) => /^(mk|pk|pl)_/.test(token)))
    throw new Invalid(': a platform key (mk_…, pk_…, pl_…) is never an agent token');
  const named = parsed.data.map((entry, i) => ({ ...entry, name: entry.name ?? `agent-${i + 1}` }));
  const names = named.map((entry) => entry.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Invalid(`: the name "${twice}" is given to two tokens`);
  if (names.includes('desk'))
    throw new Invalid(': "desk" names the merchant\'s own labels; choose another name');
  return named;
}
