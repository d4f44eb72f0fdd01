import type { AgentLabelInput, PreviewLabelOutput } from '../../shared/agent-label.ts';
import { formatCep } from '../../shared/cep.ts';
import { centavos, declaredValueCents } from '../../shared/declared-value.ts';
import { type GenerateLabelInput, GenerateLabelInputSchema } from '../../shared/label.ts';
import { plausibilityOf } from '../../shared/label-plausibility.ts';
import type { Approval, ApprovalStore } from '../policies/approval-store.ts';
import { type Caller, dailyLimits, needsApproval, serviceAllowed } from '../policies/policy.ts';
import type { RatesService } from '../rates/service.ts';
import { fingerprint } from './fingerprint.ts';
import type { IssueOutcome, LabelIntent, LabelIssuer } from './issuer.ts';
import type { LedgerAttempt } from './ledger.ts';
import type { LedgerStore } from './ledger-store.ts';
import type { ServiceCodes } from './service-codes.ts';

/** Why a label request was refused before anything reached the platform (plus the issuer's own refusals). */
export interface Refusal {
  reason: string;
  message: string;
  /** The input field it names (`weightGrams`, `recipient.nome`, `declaredItems[2].valor`, …). */
  field?: string | undefined;
  /** For `agent_limit_reached`: which limit, and when it resets (epoch ms; absent for a limit that does not reset). */
  limit?: string | undefined;
  resetsAt?: number | undefined;
}

/** What a label request came to, for the MCP tool and the desk alike. */
export type LabelAnswer =
  | { kind: 'issued'; outcome: IssueOutcome; orderId?: string | undefined; volume?: number | undefined }
  | { kind: 'refused'; refusal: Refusal }
  | {
      kind: 'approval';
      reason: 'approval_pending' | 'approval_rejected' | 'approval_expired';
      approvalId: string;
      message: string;
    };

export interface LabelServiceOptions {
  issuer: LabelIssuer;
  ledger: LedgerStore;
  approvals: ApprovalStore;
  serviceCodes: ServiceCodes;
  rates: Pick<RatesService, 'quote'>;
  now?: () => number;
}

/** A request the service may send: the platform's input with its contract code, and the intended label. */
interface Prepared {
  input: GenerateLabelInput;
  serviceId: string | undefined;
  intent: LabelIntent;
  /** `key:…`, `order:…#…` or `request:<fingerprint>`: the intended label, as approvals name it. */
  intentKey: string;
  declaredValueCents: number;
}

/** How long the merchant has to answer an approval (the agent is told "within 24 hours"). */
const APPROVAL_TTL_MS = 86_400_000;
/** Approvals one agent may have waiting at once: the merchant's desk is not a place to flood. */
export const MAX_PENDING_APPROVALS = 50;

/**
 * Labels as the merchant's agents and the desk ask for them (docs/architecture.md, "Labels"
 * and "Agent policies and approvals"): the service mapped to its contract code, the carrier's plausibility rules, the
 * caller's policy (services, daily limits, approval), then the ledger's issuer. Every refusal happens before anything
 * reaches the platform. The MCP tools and the desk's API are transports over this.
 */
export class LabelService {
  private readonly options: Required<LabelServiceOptions>;

  constructor(options: LabelServiceOptions) {
    this.options = { now: Date.now, ...options };
  }

  /** `generate_label`: issues the intended label once, or says why not (nothing sent). */
  async generate(request: AgentLabelInput, caller: Caller): Promise<LabelAnswer> {
    const prepared = this.prepare(request, caller);
    if ('refusal' in prepared) return { kind: 'refused', refusal: prepared.refusal };
    if (needsApproval(caller.policy, prepared.declaredValueCents)) {
      const answer = await this.throughApproval(prepared, caller);
      if (answer) return answer;
    }
    const limits = dailyLimits(caller, this.options.now());
    return this.issued(
      prepared,
      await this.options.issuer.issue(prepared.input, { ...prepared.intent, limits }),
    );
  }

  /**
   * A label its caller's policy sends to the merchant first: the answer of the caller's own approval of this very
   * request (the same fingerprint: an approval is never a cheque for another request under the same key or order),
   * or a new approval asked for; undefined when the ledger answers it without sending (a label it already has, or a
   * conflict it refuses).
   */
  private async throughApproval(prepared: Prepared, caller: Caller): Promise<LabelAnswer | undefined> {
    const { approvals } = this.options;
    const latest = await approvals.latest(prepared.intentKey, caller.issuedBy);
    const approval = latest && this.approves(latest, prepared) ? latest : undefined;
    if (approval?.state === 'approved') {
      // Issued by the approval itself, once: its attempt is answered (the label, or the platform's rejection), never
      // sent again — not after the ledger's dedupe window either. Spent on a request that never reached the platform
      // (`not_sent`), it asks the merchant again.
      const outcome = await this.issueApproved(approval, prepared);
      if (outcome.kind !== 'not_sent') return this.issued(prepared, outcome);
    }
    if (approval?.state === 'rejected') {
      return {
        kind: 'approval',
        reason: 'approval_rejected',
        approvalId: approval.id,
        message: 'The merchant rejected this label; nothing was sent. Do not ask again for the same label.',
      };
    }
    if (approval?.state === 'pending') return pendingAnswer(approval.id);
    if (approval?.state === 'expired' && !approval.expiryReported) {
      await approvals.expiryTold(approval.id);
      return {
        kind: 'approval',
        reason: 'approval_expired',
        approvalId: approval.id,
        message:
          'Nobody approved this label within 24 hours, so the request expired; nothing was sent. Calling again asks the merchant again.',
      };
    }
    // An intended label the ledger already holds for this request (issued by the desk, or before the policy changed)
    // is answered, and one it holds for another request is refused as a conflict: neither sends anything.
    const existing = await this.existing(prepared);
    const held = existing && existing.state !== 'not_sent' && existing.state !== 'rejected';
    if (existing && (held || existing.fingerprint !== fingerprint(prepared.input))) return undefined;
    const quoted = await this.quote(prepared).catch(() => undefined);
    const asked = await approvals.request({
      intent: prepared.intentKey,
      request: JSON.stringify({ ...prepared.input, ...intentFields(prepared.intent) }),
      issuedBy: caller.issuedBy,
      quotedPriceCents: quoted === undefined ? undefined : centavos(quoted),
      declaredValueCents: prepared.declaredValueCents,
      ttlMs: APPROVAL_TTL_MS,
      maxPending: MAX_PENDING_APPROVALS,
    });
    if (!asked) {
      return {
        kind: 'refused',
        refusal: {
          reason: 'agent_limit_reached',
          limit: 'pending_approvals',
          message: `This agent already has ${MAX_PENDING_APPROVALS} labels waiting for the merchant's approval; nothing was sent. Ask again once the merchant has answered some.`,
        },
      };
    }
    return pendingAnswer(asked.id);
  }

  /** Whether an approval is of this very request: the same platform fields (fingerprint) and the same intent. */
  private approves(approval: Approval, prepared: Prepared): boolean {
    const stored = this.prepare(JSON.parse(approval.request) as AgentLabelInput, {
      issuedBy: approval.issuedBy,
    });
    return (
      !('refusal' in stored) &&
      stored.intentKey === prepared.intentKey &&
      fingerprint(stored.input) === fingerprint(prepared.input)
    );
  }

  /**
   * An approved label, issued once: what its recorded attempt came to, or issued now through the ledger (which waits
   * for an identical request in the air) and the attempt recorded, so the approval answers it from then on.
   */
  private async issueApproved(approval: Approval, prepared: Prepared): Promise<IssueOutcome> {
    const { approvals, issuer } = this.options;
    const answered = approval.attemptId ? await issuer.answer(approval.attemptId) : undefined;
    if (answered) return answered;
    const outcome = await issuer.issue(prepared.input, { ...prepared.intent, issuedBy: approval.issuedBy });
    if (outcome.kind !== 'refused') await approvals.issued(approval.id, outcome.attemptId);
    return outcome;
  }

  /**
   * The merchant approves: the label is issued at once, through the ledger — once, however often it is approved. An
   * approval already issued answers what its attempt came to, and never sends again.
   */
  async approve(
    approvalId: string,
  ): Promise<{ answer: LabelAnswer } | { missing: true } | { notPending: string }> {
    const { approvals } = this.options;
    const { decided, approval } = await approvals.decide(approvalId, 'approved');
    if (!approval) return { missing: true };
    if (!decided && approval.state !== 'approved') return { notPending: approval.state };
    const stored = JSON.parse(approval.request) as AgentLabelInput;
    const prepared = this.prepare(stored, { issuedBy: approval.issuedBy });
    if ('refusal' in prepared) return { answer: { kind: 'refused', refusal: prepared.refusal } };
    return { answer: this.issued(prepared, await this.issueApproved(approval, prepared)) };
  }

  /** The merchant rejects: the agent's next call for this label answers `approval_rejected`. */
  async reject(approvalId: string): Promise<{ rejected: true } | { missing: true } | { notPending: string }> {
    const { decided, approval } = await this.options.approvals.decide(approvalId, 'rejected');
    if (!approval) return { missing: true };
    return decided ? { rejected: true } : { notPending: approval.state };
  }

  /** `preview_label`: what generate_label would do with this input, and at what price; creates nothing. */
  async preview(request: AgentLabelInput, caller: Caller): Promise<PreviewLabelOutput> {
    const label = describe(request);
    const prepared = this.prepare(request, caller);
    const limitsLeft = await this.limitsLeft(caller);
    if ('refusal' in prepared) {
      const { reason, message, field } = prepared.refusal;
      return {
        ...(request.serviceCode ? { serviceCode: request.serviceCode } : {}),
        approvalRequired: false,
        limitsLeft,
        wouldSend: false,
        reason,
        message,
        ...(field ? { field } : {}),
        label,
      };
    }
    const quotedPrice = await this.quote(prepared).catch(() => undefined);
    const approvalRequired = needsApproval(caller.policy, prepared.declaredValueCents);
    const existing = await this.existing(prepared);
    const overLimit =
      (limitsLeft.labels !== undefined && limitsLeft.labels < 1) ||
      (limitsLeft.declaredValue !== undefined &&
        centavos(limitsLeft.declaredValue) < prepared.declaredValueCents);
    return {
      serviceCode: prepared.input.serviceCode,
      ...(prepared.serviceId ? { serviceId: prepared.serviceId } : {}),
      ...(quotedPrice === undefined ? {} : { quotedPrice }),
      approvalRequired,
      limitsLeft,
      wouldSend: !existing && !approvalRequired && !overLimit,
      ...(overLimit && !existing
        ? {
            reason: 'agent_limit_reached',
            message: 'This label is over what this agent may still issue today.',
          }
        : {}),
      ...(existing
        ? {
            existing: {
              attemptId: existing.id,
              state: existing.state,
              ...(existing.prepostagemId ? { prepostagemId: existing.prepostagemId } : {}),
            },
          }
        : {}),
      label: {
        ...label,
        service: prepared.serviceId
          ? `${prepared.serviceId} (${prepared.input.serviceCode})`
          : prepared.input.serviceCode,
      },
    };
  }

  /** The service mapped, the input parsed as the platform takes it, the rules, and the caller's services. */
  private prepare(request: AgentLabelInput, caller: Caller): Prepared | { refusal: Refusal } {
    const { serviceCodes } = this.options;
    const service = serviceCodes.resolve(request);
    if (!service.ok)
      return { refusal: { reason: 'unknown_service', message: service.message, field: 'serviceCode' } };
    const { serviceId: _id, orderId, volume, idempotencyKey, locale, ...platformFields } = request;
    const input = GenerateLabelInputSchema.parse({ ...platformFields, serviceCode: service.serviceCode });
    const refusal = plausibilityOf(input);
    if (refusal) return { refusal };
    if (!serviceAllowed(caller.policy, service)) {
      return {
        refusal: {
          reason: 'agent_limit_reached',
          limit: 'services',
          field: 'serviceCode',
          message: `This agent may not use service ${service.serviceId ?? service.serviceCode}; its services are ${caller.policy?.services?.join(', ')}. Nothing was sent.`,
        },
      };
    }
    const intent: LabelIntent = {
      idempotencyKey,
      orderId,
      volume: orderId === undefined ? undefined : (volume ?? 1),
      issuedBy: caller.issuedBy,
      locale,
    };
    const intentKey = idempotencyKey
      ? `key:${idempotencyKey}`
      : orderId !== undefined
        ? `order:${orderId}#${volume ?? 1}`
        : `request:${fingerprint(input)}`;
    return {
      input,
      serviceId: service.serviceId,
      intent,
      intentKey,
      declaredValueCents: declaredValueCents(input.declaredItems),
    };
  }

  /** The ledger's attempt of this intended label (by key, or order and volume), when it has one. */
  private async existing(prepared: Prepared): Promise<LedgerAttempt | undefined> {
    const { ledger } = this.options;
    const { idempotencyKey, orderId, volume } = prepared.intent;
    if (orderId !== undefined) return ledger.byOrderVolume(orderId, volume ?? 1);
    if (idempotencyKey) {
      const attempt = await ledger.byKey(idempotencyKey);
      return attempt?.state === 'not_sent' ? undefined : attempt;
    }
    return undefined;
  }

  /** The platform's price for this package to this CEP, for the service (one /v1/rates call, cached a minute). */
  private async quote(prepared: Prepared): Promise<number | undefined> {
    const { input, serviceId } = prepared;
    if (!serviceId) return undefined;
    const rates = await this.options.rates.quote({
      destinationCep: input.recipient.endereco.cep,
      items: [
        {
          name: 'volume',
          quantity: 1,
          unitPriceBRL: prepared.declaredValueCents / 100,
          weightKg: Math.max(input.weightGrams, 1) / 1000,
        },
      ],
    });
    return rates.rates.find((rate) => rate.serviceId === serviceId)?.price;
  }

  private async limitsLeft(caller: Caller): Promise<PreviewLabelOutput['limitsLeft']> {
    const limits = dailyLimits(caller, this.options.now());
    if (!limits) return {};
    const spent = await this.options.ledger.spentToday(limits.issuedBy, limits.dayStart, limits.dayEnd);
    return {
      ...(limits.maxLabels === undefined ? {} : { labels: Math.max(0, limits.maxLabels - spent.labels) }),
      ...(limits.maxDeclaredValueCents === undefined
        ? {}
        : { declaredValue: Math.max(0, limits.maxDeclaredValueCents - spent.cents) / 100 }),
      resetsAt: new Date(limits.dayEnd).toISOString(),
    };
  }

  private issued(prepared: Prepared, outcome: IssueOutcome): LabelAnswer {
    return { kind: 'issued', outcome, orderId: prepared.intent.orderId, volume: prepared.intent.volume };
  }
}

function pendingAnswer(approvalId: string): LabelAnswer {
  return {
    kind: 'approval',
    reason: 'approval_pending',
    approvalId,
    message:
      'The merchant must approve this label first; nothing was sent. Call generate_label again later with the same input: once approved it answers the label.',
  };
}

/** The intent fields kept with an approval, so the approved label is the same intended label. */
function intentFields(intent: LabelIntent): Record<string, unknown> {
  return {
    ...(intent.idempotencyKey ? { idempotencyKey: intent.idempotencyKey } : {}),
    ...(intent.orderId !== undefined ? { orderId: intent.orderId, volume: intent.volume ?? 1 } : {}),
    ...(intent.locale ? { locale: intent.locale } : {}),
  };
}

/** What would be printed, in a line per field, for preview_label and the desk. */
function describe(request: AgentLabelInput): PreviewLabelOutput['label'] {
  const { recipient, dimensions } = request;
  return {
    recipient: recipient.nome,
    destination: `${recipient.endereco.logradouro}, ${recipient.endereco.numero} — ${recipient.endereco.cidade}/${recipient.endereco.uf}, CEP ${formatCep(recipient.endereco.cep)}`,
    service: request.serviceId ?? request.serviceCode ?? '',
    weightGrams: request.weightGrams,
    dimensions: `${dimensions.comprimento} × ${dimensions.largura} × ${dimensions.altura} cm`,
    declaredValue: declaredValueCents(request.declaredItems) / 100,
    ...(request.orderId === undefined ? {} : { orderId: request.orderId, volume: request.volume ?? 1 }),
  };
}
