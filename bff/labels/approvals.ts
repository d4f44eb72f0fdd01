import type { PreviewLabelOutput } from '../../shared/labels/agent-label.ts';
import { centavos } from '../../shared/labels/declared-value.ts';
import type { Approval } from '../policies/approval-store.ts';
import { AgentPolicySchema, type Caller } from '../policies/policies.ts';
import type { LabelAnswer } from './answer.ts';
import type { LabelIntent } from './issuer.ts';

// The approval side of the label service (service.ts): how long an approval waits and how many may, what an approval's
// agent may still issue, and what the agent is told while its label waits for the merchant.

/** How long the merchant has to answer an approval (the agent is told "within 24 hours"). */
export const APPROVAL_TTL_MS = 86_400_000;
/** Approvals one agent may have waiting at once: the merchant's desk is not a place to flood. */
export const MAX_PENDING_APPROVALS = 50;

/** What an agent may still issue today (`preview_label`'s `limitsLeft`). */
export type LimitsLeft = PreviewLabelOutput['limitsLeft'];

/** An approval's label over the agent's daily limits: which limit, and what is left today. */
export type OverLimit = LimitsLeft & { over: 'maxLabelsPerDay' | 'maxDeclaredValuePerDay' };

/** What an approval's agent may still issue today, and the limit its label would pass, for the desk's card. */
export type ApprovalLimits = LimitsLeft & { over?: OverLimit['over'] };

/** The limit a label of this declared value (centavos) would pass with what is left, or undefined. */
export function overOf(left: LimitsLeft, declaredValueCents: number): Pick<OverLimit, 'over'> | undefined {
  if (left.labels !== undefined && left.labels < 1) return { over: 'maxLabelsPerDay' };
  if (left.declaredValue !== undefined && centavos(left.declaredValue) < declaredValueCents)
    return { over: 'maxDeclaredValuePerDay' };
  return undefined;
}

/** The agent of an approval, with the policy it asked with. */
export function approvalCaller(approval: Approval): Caller {
  const parsed =
    approval.policy === null ? undefined : AgentPolicySchema.safeParse(JSON.parse(approval.policy));
  return { issuedBy: approval.issuedBy, policy: parsed?.success ? parsed.data : undefined };
}

/** The label waits for the merchant's approval; nothing was sent. */
export function pendingAnswer(approvalId: string): LabelAnswer {
  return {
    kind: 'approval',
    reason: 'approval_pending',
    approvalId,
    message:
      'The merchant must approve this label first; nothing was sent. Call generate_label again later with the same input: once approved it answers the label.',
  };
}

/** The merchant rejected the label; nothing was sent. */
export function rejectedAnswer(approvalId: string): LabelAnswer {
  return {
    kind: 'approval',
    reason: 'approval_rejected',
    approvalId,
    message: 'The merchant rejected this label; nothing was sent. Do not ask again for the same label.',
  };
}

/** Nobody approved the label within `APPROVAL_TTL_MS`; nothing was sent. */
export function expiredAnswer(approvalId: string): LabelAnswer {
  return {
    kind: 'approval',
    reason: 'approval_expired',
    approvalId,
    message:
      'Nobody approved this label within 24 hours, so the request expired; nothing was sent. Calling again asks the merchant again.',
  };
}

/** The agent has `MAX_PENDING_APPROVALS` labels waiting already: this one is refused, nothing was sent. */
export function tooManyPending(): LabelAnswer {
  return {
    kind: 'refused',
    refusal: {
      reason: 'agent_limit_reached',
      limit: 'pending_approvals',
      message: `This agent already has ${MAX_PENDING_APPROVALS} labels waiting for the merchant's approval; nothing was sent. Ask again once the merchant has answered some.`,
    },
  };
}

export /** The intent fields kept with an approval, so the approved label is the same intended label. */
function intentFields(intent: LabelIntent): Record<string, unknown> {
  return {
    ...(intent.idempotencyKey ? { idempotencyKey: intent.idempotencyKey } : {}),
    ...(intent.orderId !== undefined ? { orderId: intent.orderId, volume: intent.volume ?? 1 } : {}),
    ...(intent.locale ? { locale: intent.locale } : {}),
  };
}
