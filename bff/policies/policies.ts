import * as z from 'zod/mini';
import { saoPauloDay } from '../../shared/business-days.ts';
import { centavos } from '../../shared/money.ts';
import type { DailyLimits } from '../labels/ledger.ts';

/**
 * What one agent may do with labels (docs/agents/labels.md, "A policy per agent"): a static token's fields in
 * `BFF_AGENT_TOKENS`, or an OAuth client's, set on /admin/agents. Every field is optional: no limit, every service,
 * no approval.
 */
export const AgentPolicySchema = z.strictObject({
  /** Labels per São Paulo calendar day (open or created ones count). */
  maxLabelsPerDay: z.optional(z.int().check(z.minimum(0), z.maximum(100_000))),
  /** Declared value (Σ quantidade × valor of the content declarations) per São Paulo day, in BRL. */
  maxDeclaredValuePerDay: z.optional(z.number().check(z.minimum(0), z.maximum(1_000_000_000))),
  /** The services it may use: `serviceId`s (`correios-pac`) or contract codes (`03298`). */
  services: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(40))).check(z.minLength(1))),
  /** `never` (default), `always`, or a declared value in BRL above which the merchant approves first. */
  approval: z.optional(z.union([z.enum(['never', 'always']), z.number().check(z.minimum(0))])),
  /**
   * Who may spend: `agent` (default), or `app`: the agent's `generate_label` sends nothing and waits, like an approval,
   * for the merchant's click in the label preview app of a host with MCP Apps (docs/agents/apps.md), or on the desk.
   */
  issue: z.optional(z.enum(['agent', 'app'])),
  /**
   * An OAuth connection the merchant uses as their own assistant may show and decide the approvals of OTHER agents in
   * its host's approvals app (docs/agents/apps.md); off unless set, and meaningless for a static token (never the
   * merchant's). Its own labels it never decides.
   */
  decidesApprovals: z.optional(z.literal(true)),
});
export type AgentPolicy = z.infer<typeof AgentPolicySchema>;

/** Who asks for a label: its name in the ledger (`issuedBy`) and its policy; the desk has none. */
export interface Caller {
  issuedBy: string;
  policy?: AgentPolicy | undefined;
}

/** The desk's own caller: the merchant, no limits. */
export const DESK: Caller = { issuedBy: 'desk' };

/** The issuer's limits for the São Paulo day of `now`, when its policy has any. */
export function dailyLimits(caller: Caller, now: number): DailyLimits | undefined {
  const { policy } = caller;
  if (policy?.maxLabelsPerDay === undefined && policy?.maxDeclaredValuePerDay === undefined) return undefined;
  const { start, end } = saoPauloDay(now);
  return {
    issuedBy: caller.issuedBy,
    dayStart: start,
    dayEnd: end,
    maxLabels: policy.maxLabelsPerDay,
    maxDeclaredValueCents:
      policy.maxDeclaredValuePerDay === undefined ? undefined : centavos(policy.maxDeclaredValuePerDay),
  };
}

/** Whether the merchant must approve a label of this declared value (centavos, `declaredValueCents`) first. */
export function needsApproval(policy: AgentPolicy | undefined, declaredValueCents: number): boolean {
  // Only a person's click issues this agent's labels: the app's button (bff/mcp/apps/) or the desk's approve.
  if (policy?.issue === 'app') return true;
  const approval = policy?.approval ?? 'never';
  if (approval === 'never') return false;
  if (approval === 'always') return true;
  return declaredValueCents > centavos(approval);
}

/** Whether the policy lets the agent use this service (by its `serviceId` or its contract code). */
export function serviceAllowed(
  policy: AgentPolicy | undefined,
  service: { serviceCode: string; serviceId?: string | undefined },
): boolean {
  if (!policy?.services) return true;
  return policy.services.some((allowed) => allowed === service.serviceCode || allowed === service.serviceId);
}
