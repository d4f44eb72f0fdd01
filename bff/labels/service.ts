import type { AgentLabelInput, PreviewLabelOutput } from '../../shared/labels/agent-label.ts';
import { declaredValueCents } from '../../shared/labels/declared-value.ts';
import { type GenerateLabelInput, GenerateLabelInputSchema } from '../../shared/labels/label.ts';
import { plausibilityOf } from '../../shared/labels/plausibility.ts';
import { centavos } from '../../shared/money.ts';
import type { OrderBinding } from '../orders/binding.ts';
import type { Approval, ApprovalStore } from '../policies/approval-store.ts';
import { type Caller, dailyLimits, needsApproval, serviceAllowed } from '../policies/policies.ts';
import { quoteCallerOf } from '../rates/quote-share.ts';
import type { RatesService } from '../rates/service.ts';
import { type LabelAnswer, type LabelRefusal, previewLines } from './answer.ts';
import {
  APPROVAL_TTL_MS,
  type ApprovalLimits,
  approvalCaller,
  expiredAnswer,
  intentFields,
  MAX_PENDING_APPROVALS,
  type OverLimit,
  overOf,
  pendingAnswer,
  rejectedAnswer,
  tooManyPending,
} from './approvals.ts';
import { chargedPrice, chargedQuote } from './charged-price.ts';
import { fingerprint } from './fingerprint.ts';
import type { LabelIntent, LabelIssuer } from './issuer.ts';
import type { LedgerAttempt } from './ledger.ts';
import type { LedgerStore } from './ledger-store.ts';
import type { IssueOutcome } from './outcomes.ts';
import type { ServiceCodes } from './service-codes.ts';

export interface LabelServiceOptions {
  issuer: LabelIssuer;
  ledger: LedgerStore;
  approvals: ApprovalStore;
  serviceCodes: ServiceCodes;
  rates: Pick<RatesService, 'quote'>;
  /** Store orders bind the labels under their numbers (bff/orders/binding.ts). */
  binding?: OrderBinding | undefined;
  /**
   * Why a store order's labels may not be issued now, whoever asks (bff/orders/order-desk.ts `lifecycleRefusal`: the
   * store cancelled it, or it is picked up); undefined: nothing against it. Asked before anything is sent.
   */
  orderRefusal?: (orderId: string) => Promise<LabelRefusal | undefined>;
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

/** A request prepared, or why it is refused before anything is sent. */
type Ready = Prepared | { refusal: LabelRefusal };

/**
 * Labels as the merchant's agents and the desk ask for them (docs/architecture.md, "Labels"
 * and "Agent policies and approvals"): the service mapped to its contract code, the carrier's plausibility rules, the
 * caller's policy (services, daily limits, approval), then the ledger's issuer. Every refusal happens before anything
 * reaches the platform. The MCP tools and the desk's API are transports over this.
 */
export class LabelService {
  private readonly options: LabelServiceOptions & Required<Pick<LabelServiceOptions, 'now' | 'orderRefusal'>>;

  constructor(options: LabelServiceOptions) {
    this.options = { now: Date.now, orderRefusal: async () => undefined, ...options };
  }

  /** `generate_label`: issues the intended label once, or says why not (nothing sent). */
  async generate(request: AgentLabelInput, caller: Caller): Promise<LabelAnswer> {
    const prepared = await this.bound(this.prepare(request, caller));
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
      // (`not_sent`), it asks the merchant again. Not yet issued (a crash between the decision and the send), the agent's
      // own call sends it within the agent's limits unless the merchant approved it over them (issueApproved).
      const outcome = await this.issueApproved(approval, prepared);
      if (outcome.kind !== 'not_sent') return this.issued(prepared, outcome);
    }
    if (approval?.state === 'rejected') {
      return rejectedAnswer(approval.id);
    }
    if (approval?.state === 'pending') return pendingAnswer(approval.id);
    if (approval?.state === 'expired' && !approval.expiryReported) {
      await approvals.expiryTold(approval.id);
      return expiredAnswer(approval.id);
    }
    // An intended label the ledger already holds for this request (issued by the desk, or before the policy changed)
    // is answered, and one it holds for another request is refused as a conflict: neither sends anything.
    const existing = await this.existing(prepared);
    const held = existing && existing.state !== 'not_sent' && existing.state !== 'rejected';
    if (existing && (held || existing.fingerprint !== fingerprint(prepared.input))) return undefined;
    const quoted = await this.quote(prepared, caller).catch(() => undefined);
    const asked = await approvals.request({
      intent: prepared.intentKey,
      request: JSON.stringify({ ...prepared.input, ...intentFields(prepared.intent) }),
      issuedBy: caller.issuedBy,
      policy: caller.policy ? JSON.stringify(caller.policy) : undefined,
      quotedPriceCents: quoted === undefined ? undefined : centavos(quoted),
      declaredValueCents: prepared.declaredValueCents,
      ttlMs: APPROVAL_TTL_MS,
      maxPending: MAX_PENDING_APPROVALS,
    });
    if (!asked) {
      return tooManyPending();
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
   * for an identical request in the air) and the attempt recorded, so the approval answers it from then on. It counts
   * against the agent's daily limits like any of its labels; unless the merchant approved it over them, the ledger
   * checks them in the same transaction as the attempt, and a label they refuse (another of the agent's labels
   * counted first) reopens the approval, so the merchant can decide it over the limit.
   */
  private async issueApproved(approval: Approval, prepared: Prepared): Promise<IssueOutcome> {
    const { approvals, issuer } = this.options;
    const answered = approval.attemptId ? await issuer.answer(approval.attemptId) : undefined;
    if (answered) return answered;
    const limits = approval.overLimit ? undefined : dailyLimits(approvalCaller(approval), this.options.now());
    const outcome = await issuer.issue(prepared.input, {
      ...prepared.intent,
      issuedBy: approval.issuedBy,
      limits,
    });
    if (outcome.kind === 'refused' && outcome.why === 'agent_limit_reached')
      await approvals.reopen(approval.id);
    if (outcome.kind !== 'refused') await approvals.issued(approval.id, outcome.attemptId);
    return outcome;
  }

  /**
   * The merchant approves: the label is issued at once, through the ledger — once, however often it is approved. An
   * approval already issued answers what its attempt came to, and never sends again. A label over the agent's daily
   * limits is approved only with `overLimit: true` (the merchant's second, explicit confirmation, recorded with the
   * approval); without it the answer is which limit and what is left, and nothing changes.
   */
  async approve(
    approvalId: string,
    confirm: { overLimit?: boolean | undefined } = {},
  ): Promise<
    { answer: LabelAnswer } | { missing: true } | { notPending: string } | { overLimit: OverLimit }
  > {
    const { approvals } = this.options;
    const current = await approvals.get(approvalId);
    if (!current) return { missing: true };
    const over = current.state === 'pending' ? await this.overLimit(current) : undefined;
    if (over && !confirm.overLimit) return { overLimit: over };
    const { decided, approval } = await approvals.decide(approvalId, 'approved', {
      overLimit: over !== undefined,
    });
    if (!approval) return { missing: true };
    if (!decided && approval.state !== 'approved') return { notPending: approval.state };
    const stored = JSON.parse(approval.request) as AgentLabelInput;
    const prepared = await this.bound(this.prepare(stored, { issuedBy: approval.issuedBy }));
    if ('refusal' in prepared) return { answer: { kind: 'refused', refusal: prepared.refusal } };
    const outcome = await this.issueApproved(approval, prepared);
    if (outcome.kind === 'refused' && outcome.why === 'agent_limit_reached') {
      const now = await this.overLimit(approval);
      if (now) return { overLimit: now };
    }
    return { answer: this.issued(prepared, outcome) };
  }

  /**
   * What the agent of an approval may still issue today under the policy it asked with, and the limit this label
   * would pass (`over`), for the desk's card. Empty when its policy sets no daily limit.
   */
  async approvalLimits(approval: Approval): Promise<ApprovalLimits> {
    const left = await this.limitsLeft(approvalCaller(approval));
    return { ...left, ...(overOf(left, approval.declaredValueCents) ?? {}) };
  }

  /** The limit an approval's label would pass today, with what is left; undefined when it fits. */
  private async overLimit(approval: Approval): Promise<OverLimit | undefined> {
    const left = await this.limitsLeft(approvalCaller(approval));
    const over = overOf(left, approval.declaredValueCents);
    return over && { ...left, ...over };
  }

  /** The merchant rejects: the agent's next call for this label answers `approval_rejected`. */
  async reject(approvalId: string): Promise<{ rejected: true } | { missing: true } | { notPending: string }> {
    const { decided, approval } = await this.options.approvals.decide(approvalId, 'rejected');
    if (!approval) return { missing: true };
    return decided ? { rejected: true } : { notPending: approval.state };
  }

  /** `preview_label`: what generate_label would do with this input, and at what price; creates nothing. */
  async preview(request: AgentLabelInput, caller: Caller): Promise<PreviewLabelOutput> {
    const label = previewLines(request);
    const prepared = await this.bound(this.prepare(request, caller));
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
    const quotedPrice = await this.quote(prepared, caller).catch(() => undefined);
    const approvalRequired = needsApproval(caller.policy, prepared.declaredValueCents);
    const existing = await this.existing(prepared);
    const overLimit = overOf(limitsLeft, prepared.declaredValueCents) !== undefined;
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

  /** Under a store order's number, what the order refuses (bff/orders/binding.ts), before any approval is asked. */
  private async bound(prepared: Ready): Promise<Ready> {
    const orderId = 'refusal' in prepared ? undefined : prepared.intent.orderId;
    if ('refusal' in prepared || orderId === undefined) return prepared;
    // The order's life first (cancelled, picked up: bff/orders/order-desk.ts), then whether the label is its own.
    const closed = await this.options.orderRefusal(orderId);
    if (closed) return { refusal: closed };
    const refusal = await this.options.binding?.refusal(orderId, prepared.input.recipient.endereco.cep);
    return refusal ? { refusal } : prepared;
  }

  /** The service mapped, the input parsed as the platform takes it, the rules, and the caller's services. */
  private prepare(request: AgentLabelInput, caller: Caller): Ready {
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

  /**
   * What this label costs the store: the platform's price for this package to this CEP and service, as the carrier
   * charges it (one /v1/rates call through the quote core, cached; an uncached one spends the caller's share of the
   * store's quotes); undefined when the quote has no price for it.
   */
  private async quote(prepared: Prepared, caller: Caller): Promise<number | undefined> {
    const { input, serviceId } = prepared;
    if (!serviceId) return undefined;
    const rates = await this.options.rates.quote(
      chargedQuote(input.recipient.endereco.cep, [{ weightGrams: input.weightGrams }]),
      quoteCallerOf(caller),
    );
    return chargedPrice(rates.rates.find((rate) => rate.serviceId === serviceId));
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
