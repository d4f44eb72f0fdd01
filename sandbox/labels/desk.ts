import { randomInt, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DAY_MS } from '../../shared/business-days.ts';
import type { Attempt, DiagnoseLabelIssueInput } from '../../shared/labels/diagnosis.ts';
import type { GenerateLabelInput, GetLabelPdfOutput, LabelRecord } from '../../shared/labels/label.ts';
import { ATTEMPT_HISTORY_DAYS, MAX_LISTED_ATTEMPTS } from '../../shared/platform-limits.ts';
import { makeS10 } from '../../shared/s10.ts';
import { ufOfCep } from '../../shared/uf.ts';
import type { CarrierClock } from '../carrier/clock.ts';
import { deliveryDaysOf } from '../carrier/prices.ts';
import type { CarrierService } from '../carrier/services.ts';
import type { TrackingBook } from '../carrier/tracking.ts';
import { drawTransit } from '../carrier/transit-times.ts';
import type { Store, StoreRegistry } from '../stores/stores.ts';
import { renderLabelPdf } from './pdf.ts';
import { checkLabel } from './rules.ts';

/** A pre-posting the simulated carrier created: real, billable, never deduplicated (spec 3). */
export interface Prepostagem {
  prepostagemId: string;
  storeId: string;
  trackingCode: string;
  serviceCode: string;
  status: string;
  createdAt: string;
  /** The `generate_label` input as received, without `instanceId` (test data: lets a test tell whose label it is). */
  request: Record<string, unknown>;
  pdfReadyAt: number;
  pdf: Promise<Uint8Array>;
}

export interface LabelDeskOptions {
  registry: StoreRegistry;
  tracking: TrackingBook;
  carrierClock: CarrierClock;
  /** Real milliseconds until a new label's PDF is ready. */
  pdfDelayMs: number;
  /** How long `generate_label` waits for the PDF before answering `label_pdf_timeout`. */
  pdfWaitMs: number;
  now?: () => number;
}

const CREATED_STATUS = 'Pré-postagem criada';
const CARRIER_AUTH_REJECTED = 'Credenciais do contrato recusadas pelos Correios';
const PLAN_INACTIVE = 'Plano inativo';

/** The label record of spec 2.4 plus the attempt's support code (an addition the agent can quote to support). */
export type IssuedLabel = LabelRecord & { supportCode: string };

/** Issues labels, serves their PDFs and keeps the history `diagnose_label_issue` reads. */
export class LabelDesk {
  private readonly options: LabelDeskOptions;
  private readonly now: () => number;
  private readonly byId = new Map<string, Prepostagem>();
  private attempts: (Attempt & { storeId: string })[] = [];
  /** The PDF timing now: the options' until `POST /_sandbox/labels` changes it, and again after a reset. */
  pdfDelayMs: number;
  pdfWaitMs: number;

  constructor(options: LabelDeskOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.pdfDelayMs = options.pdfDelayMs;
    this.pdfWaitMs = options.pdfWaitMs;
    this.reset();
  }

  reset(): void {
    this.byId.clear();
    this.attempts = [];
    this.pdfDelayMs = this.options.pdfDelayMs;
    this.pdfWaitMs = this.options.pdfWaitMs;
    for (const store of this.options.registry.stores) this.seedHistory(store);
  }

  /** Every pre-posting created since the last reset (for tests counting duplicates). */
  list(): Omit<Prepostagem, 'pdf' | 'pdfReadyAt'>[] {
    return [...this.byId.values()].map(({ pdf: _pdf, pdfReadyAt: _ready, ...rest }) => rest);
  }

  /** Spec 4.4.3; the attempt is recorded whatever happens. Returns once the PDF is ready or the wait is over. */
  async generate(store: Store, input: GenerateLabelInput): Promise<IssuedLabel> {
    const { registry } = this.options;
    const evidence = { request: asSent(input) };
    if (!store.planActive) {
      const actionUrl = registry.actionUrl(store, 'billing');
      const supportCode = this.record(store, {
        outcome: 'failed',
        reason: 'subscription_required',
        evidence,
        action: `Reative o plano em ${actionUrl}.`,
      });
      return { status: PLAN_INACTIVE, reason: 'subscription_required', actionUrl, supportCode };
    }
    if (!store.ownContract || store.carrierAuth === 'rejected') {
      // Spec 1 rule 4: issuance needs the store's own *authenticated* contract; with one, the carrier refused its
      // credentials, and that answer is the evidence.
      const refused = store.ownContract;
      const actionUrl = registry.actionUrl(store, 'carrier-contract');
      const status = refused ? CARRIER_AUTH_REJECTED : 'Contrato próprio com os Correios não configurado';
      const supportCode = this.record(store, {
        outcome: 'failed',
        reason: 'own_contract_required',
        evidence: refused ? { ...evidence, carrierAnswer: { status } } : evidence,
        action: refused
          ? `Revise o usuário e o código de acesso do contrato com os Correios em ${actionUrl}; nenhuma pré-postagem foi criada.`
          : `Cadastre o contrato próprio com os Correios em ${actionUrl} e tente de novo.`,
      });
      return { status, reason: 'own_contract_required', actionUrl, supportCode };
    }
    const check = checkLabel(input);
    if (!check.ok) {
      const supportCode = this.record(store, {
        outcome: 'rejected',
        reason: 'prepostagem_rejected',
        evidence: { ...evidence, carrierAnswer: { status: check.status } },
        action:
          'Corrija os dados indicados pelo transportador e gere a etiqueta de novo; nenhuma pré-postagem foi criada.',
      });
      return { status: check.status, reason: 'prepostagem_rejected', supportCode };
    }
    const prepostagem = this.create(store, input, check.service);
    const ready = this.pdfDelayMs <= this.pdfWaitMs;
    const supportCode = this.record(store, {
      outcome: 'created',
      ...(ready ? {} : { reason: 'label_pdf_timeout' }),
      prepostagemId: prepostagem.prepostagemId,
      trackingCode: prepostagem.trackingCode,
      evidence: {
        ...evidence,
        carrierAnswer: { status: prepostagem.status, prepostagemId: prepostagem.prepostagemId },
      },
      action: ready
        ? `Imprima a etiqueta (get_label_pdf com prepostagemId ${prepostagem.prepostagemId}) e poste o objeto.`
        : `Não gere de novo: chame get_label_pdf com prepostagemId ${prepostagem.prepostagemId} em alguns instantes.`,
    });
    const base = {
      prepostagemId: prepostagem.prepostagemId,
      trackingCode: prepostagem.trackingCode,
      status: prepostagem.status,
      supportCode,
    };
    if (!ready) {
      await sleep(this.pdfWaitMs);
      return { ...base, reason: 'label_pdf_timeout' };
    }
    await sleep(this.pdfDelayMs);
    return { ...base, labelPdfBase64: Buffer.from(await prepostagem.pdf).toString('base64') };
  }

  /** Spec 4.4.4: the PDF once ready; otherwise the status and why (spec 3.3). */
  async pdf(store: Store, prepostagemId: string): Promise<GetLabelPdfOutput> {
    if (!store.planActive) {
      // Spec 3.3: no PDF, so `status` says why in the merchant's words.
      return {
        prepostagemId,
        status: PLAN_INACTIVE,
        reason: 'subscription_required',
        actionUrl: this.options.registry.actionUrl(store, 'billing'),
      };
    }
    const prepostagem = this.byId.get(prepostagemId);
    if (!prepostagem || prepostagem.storeId !== store.id) {
      return {
        prepostagemId,
        status: 'Pré-postagem não encontrada para esta loja',
        reason: 'label_not_printable',
      };
    }
    if (this.now() < prepostagem.pdfReadyAt) {
      return {
        prepostagemId,
        status: 'Etiqueta em processamento; tente de novo em instantes',
        reason: 'label_not_printable',
      };
    }
    return {
      prepostagemId,
      status: prepostagem.status,
      labelPdfBase64: Buffer.from(await prepostagem.pdf).toString('base64'),
    };
  }

  /** Spec 4.4.5: one attempt by support code, or the 10 most recent, within 90 days. */
  diagnose(store: Store, input: DiagnoseLabelIssueInput): Attempt[] {
    const since = this.now() - ATTEMPT_HISTORY_DAYS * DAY_MS;
    const visible = this.attempts.filter(
      (attempt) =>
        attempt.storeId === store.id &&
        Date.parse(attempt.createdAt) >= since &&
        (attempt.source === 'mcp' || store.linkedApps.includes(attempt.source)) &&
        // A UUID is case-insensitive (RFC 9562 §4): an agent may quote it in capitals.
        (!input.supportCode || attempt.supportCode === input.supportCode.toLowerCase()) &&
        (!input.source || attempt.source === input.source) &&
        (!input.orderId || attempt.orderId === input.orderId),
    );
    return visible
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .slice(0, MAX_LISTED_ATTEMPTS)
      .map(({ storeId: _store, ...attempt }) => attempt);
  }

  private create(store: Store, input: GenerateLabelInput, service: CarrierService): Prepostagem {
    const { tracking, carrierClock } = this.options;
    let trackingCode: string;
    do {
      trackingCode = makeS10(service.trackingPrefix, randomInt(0, 1e8));
    } while (tracking.lookup(trackingCode, 0).found);
    const prepostagemId = `PP${String(randomInt(1e9, 1e10))}`;
    const originUf = ufOfCep(input.sender.endereco.cep);
    const destinationUf = ufOfCep(input.recipient.endereco.cep);
    if (originUf && destinationUf) {
      const route = {
        originUf,
        originCity: input.sender.endereco.cidade,
        destinationUf,
        destinationCity: input.recipient.endereco.cidade,
      };
      // The lane's transit time (transit-times.ts): what the delivery promise learns from.
      const createdAt = carrierClock.time();
      const { plan } = drawTransit({
        code: trackingCode,
        route,
        destinationCep: input.recipient.endereco.cep,
        serviceCode: service.serviceCode,
        platformDays: deliveryDaysOf(service, originUf, destinationUf),
        createdAt,
      });
      tracking.register(trackingCode, createdAt, plan);
    }
    const pdf = renderLabelPdf({
      prepostagemId,
      trackingCode,
      serviceName: service.name,
      contractNumber: contractOf(store),
      input,
    });
    pdf.catch(() => undefined);
    const prepostagem: Prepostagem = {
      prepostagemId,
      storeId: store.id,
      trackingCode,
      serviceCode: service.serviceCode,
      status: CREATED_STATUS,
      createdAt: new Date(this.now()).toISOString(),
      request: asSent(input),
      pdfReadyAt: this.now() + this.pdfDelayMs,
      pdf,
    };
    this.byId.set(prepostagemId, prepostagem);
    return prepostagem;
  }

  private record(
    store: Store,
    // The attempt of spec 4.4.5 but for its support code; its time and source default to now and `mcp`.
    attempt: Pick<
      Attempt,
      'outcome' | 'evidence' | 'action' | 'reason' | 'prepostagemId' | 'trackingCode' | 'orderId'
    > &
      Partial<Pick<Attempt, 'source' | 'createdAt'>>,
  ): string {
    const supportCode = randomUUID();
    this.attempts.push({
      supportCode,
      createdAt: new Date(this.now()).toISOString(),
      source: 'mcp',
      ...attempt,
      storeId: store.id,
    });
    return supportCode;
  }

  /** App attempts (shown only where the operator linked the app) and one beyond the 90 days. */
  private seedHistory(store: Store): void {
    const at = (days: number) => new Date(this.now() - days * DAY_MS).toISOString();
    const evidence = {
      request: { serviceCode: '03298', weightGrams: 32000 },
      carrierAnswer: { status: 'Peso acima do limite' },
    };
    const rejected = {
      outcome: 'rejected' as const,
      reason: 'prepostagem_rejected',
      evidence,
      action: 'Corrija o peso e gere de novo.',
    };
    this.record(store, { ...rejected, source: 'nuvemshop', orderId: '1001', createdAt: at(2) });
    this.record(store, { ...rejected, source: 'tray', orderId: 'T-55', createdAt: at(3) });
    this.record(store, { ...rejected, createdAt: at(120) });
  }
}

function contractOf(store: Store): string {
  let n = 0;
  for (const char of store.id) n = (n * 31 + char.charCodeAt(0)) % 1e10;
  return String(n).padStart(10, '9');
}

/**
 * What was sent: the whole request as received (parsed, without `instanceId`), as a carrier's "what was sent" shows
 * it. An operator, or a client reconciling a lost answer, can then tell two orders apart that differ only in the
 * recipient's name or street number. The store's own data in its own history: no secret is ever part of it.
 */
function asSent(input: GenerateLabelInput): Record<string, unknown> {
  const { instanceId: _ignored, ...request } = input;
  return structuredClone(request);
}
