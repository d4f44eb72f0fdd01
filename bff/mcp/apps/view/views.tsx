import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { useState } from 'preact/hooks';
import * as z from 'zod/mini';
import { formatCep } from '../../../../shared/cep.ts';
import { DeliveryPromiseSchema } from '../../../../shared/delivery-promise.ts';
import {
  type AgentLabelInput,
  AgentLabelInputSchema,
  type AgentLabelOutput,
  AgentLabelOutputSchema,
  type PreviewLabelOutput,
  PreviewLabelOutputSchema,
} from '../../../../shared/labels/agent-label.ts';
import type { Party } from '../../../../shared/labels/party.ts';
import { localeOf } from '../../../../shared/locale.ts';
import { formatBRL } from '../../../../shared/money.ts';
import { type PlanShipmentOutput, PlanShipmentOutputSchema } from '../../../../shared/packing/plan.ts';
import { arrivalText, sameDatesNote } from '../../../../shared/promise-text.ts';
import { GetShippingRatesOutputSchema, McpRateSchema } from '../../../../shared/quote.ts';
import type { AppMessages } from './messages.ts';
import type { AppHost } from './model.ts';
import { Parcel } from './Parcel.tsx';

/** The `_meta` keys the server puts on results for the app (bff/mcp/apps/apps.ts `META`). */
const GRANT = 'frete-kit/grant';
const PREVIEW = 'frete-kit/preview';
const GRANTS = 'frete-kit/grants';
const BY_CLICK = 'frete-kit/byClick';

export interface ViewProps {
  t: AppMessages;
  locale: string;
  input: Record<string, unknown> | undefined;
  result: CallToolResult | undefined;
  host: AppHost;
}

const parsed = <T,>(schema: z.ZodMiniType<T>, value: unknown): T | undefined => {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
};
const money = (amount: number, locale: string) => formatBRL(amount, locale);

function Waiting({ t }: { t: AppMessages }) {
  return (
    <p class="muted" role="status">
      {t.waiting}
    </p>
  );
}

/** `get_shipping_rates`: each option's service, price and promise; an empty quote says why, never "free". */
export function QuoteView({ t, locale, result }: ViewProps) {
  const quote = parsed(PromisedRatesSchema, result?.structuredContent);
  if (!quote) return <Waiting t={t} />;
  if (quote.rates.length === 0) {
    return <p class="notice warn">{t.noQuote(quote.reason ?? 'no_rates')}</p>;
  }
  const words = localeOf(locale) ?? 'pt-BR';
  return (
    <ul class="options">
      {quote.rates.map((rate) => {
        // The BFF's rates carry their promise: the calculator's words (shared/promise-text.ts); the platform's count
        // only where there is none.
        const same = sameDatesNote(rate, quote.rates, words);
        const charged = rate.free ? 0 : rate.price;
        return (
          <li key={rate.serviceId} class="option">
            <span class="service">{rate.label}</span>
            <span class="price">{rate.free ? t.free : money(rate.price, locale)}</span>
            <span class="promise">
              {rate.promise ? arrivalText(rate.promise, words) : t.businessDays(rate.deliveryDays)}
              {same ? ` · ${same}` : ''}
            </span>
            {typeof rate.platformPrice === 'number' && rate.platformPrice !== charged ? (
              // the store's shipping rules changed what the shopper pays: what the label costs, and the difference
              <span class="muted">
                {t.platformPrice(
                  money(rate.platformPrice, locale),
                  money(charged - rate.platformPrice, locale),
                )}
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** `get_shipping_rates` as the BFF answers it: each rate with its delivery promise (`QuotedRate`). */
const PromisedRatesSchema = z.extend(GetShippingRatesOutputSchema, {
  rates: z.array(z.extend(McpRateSchema, { promise: z.optional(DeliveryPromiseSchema) })),
});

function PartyBlock({ title, party }: { title: string; party: Party }) {
  const { endereco } = party;
  return (
    <section class="party" aria-label={title}>
      <h2>{title}</h2>
      <p>
        <strong>{party.nome}</strong>
        <br />
        {`${endereco.logradouro}, ${endereco.numero}${endereco.complemento ? ` ${endereco.complemento}` : ''}`}
        <br />
        {`${endereco.bairro} — ${endereco.cidade}/${endereco.uf}`}
        <br />
        {`CEP ${formatCep(endereco.cep)}`}
      </p>
    </section>
  );
}

/** The verdict line of a preview: refused and why, waiting for a person, or within the agent's limits. */
function verdictOf(t: AppMessages, preview: PreviewLabelOutput | undefined, byClick: boolean) {
  if (!preview) return undefined;
  if (preview.existing) return { tone: 'info', text: t.existing(preview.existing.state) };
  if (preview.reason && preview.reason !== 'approval_pending') {
    return { tone: 'danger', text: t.refused(preview.message ?? preview.reason) };
  }
  if (byClick) return { tone: 'info', text: t.issueByClick };
  if (preview.approvalRequired) return { tone: 'warn', text: t.needsApproval };
  return { tone: 'ok', text: t.withinLimits };
}

/** What a click came to: a label, a wait, or why nothing was issued. */
function Outcome({ t, label }: { t: AppMessages; label: AgentLabelOutput }) {
  if (label.prepostagemId) {
    return (
      <p class="notice ok" role="status">
        {`${t.issued}: ${label.trackingCode ?? label.prepostagemId}`}
      </p>
    );
  }
  if (label.reason === 'approval_pending') return <p class="notice warn">{t.pending}</p>;
  return <p class="notice danger">{t.notIssued(label.status ?? label.reason ?? '')}</p>;
}

/**
 * `preview_label` (and, under `issue: "app"`, `generate_label`'s pending answer): the label before it exists, and the
 * one button that issues it. With a grant the click spends it (`app_issue_label`); without one it asks
 * `generate_label`, which either issues (an agent free to) or answers a pending approval with a grant, spent at once.
 */
export function PreviewView(props: ViewProps) {
  const { t, locale, input, result } = props;
  const plan = parsed(PlanShipmentOutputSchema, result?.structuredContent);
  if (plan) return <PlanView t={t} plan={plan} />;
  const request = parsed(AgentLabelInputSchema, input);
  if (!request || !result) return <Waiting t={t} />;
  const grant = typeof result._meta?.[GRANT] === 'string' ? result._meta[GRANT] : undefined;
  const preview = parsed(PreviewLabelOutputSchema, result._meta?.[PREVIEW] ?? result.structuredContent);
  const verdict = verdictOf(t, preview, grant !== undefined || result._meta?.[BY_CLICK] === true);
  const refused = verdict?.tone === 'danger' || preview?.existing !== undefined;
  return (
    <PreviewBody
      {...props}
      request={request}
      preview={preview}
      grant={grant}
      verdict={verdict}
      refused={refused}
      locale={locale}
    />
  );
}

interface PreviewBodyProps extends ViewProps {
  request: AgentLabelInput;
  preview: PreviewLabelOutput | undefined;
  grant: string | undefined;
  verdict: { tone: string; text: string } | undefined;
  refused: boolean;
}

function PreviewBody({ t, locale, host, request, preview, grant, verdict, refused }: PreviewBodyProps) {
  const [state, setState] = useState<'idle' | 'busy' | AgentLabelOutput>('idle');
  const { comprimento, largura, altura } = request.dimensions;
  const dimensions = `${comprimento} × ${largura} × ${altura} cm`;
  const declared = request.declaredItems.reduce((sum, item) => sum + item.quantidade * item.valor, 0);
  const issue = async () => {
    setState('busy');
    try {
      let answer = grant
        ? await host.callTool('app_issue_label', { grant })
        : await host.callTool('generate_label', { ...request });
      const next = answer._meta?.[GRANT];
      if (!grant && typeof next === 'string')
        answer = await host.callTool('app_issue_label', { grant: next });
      setState(
        parsed(AgentLabelOutputSchema, answer.structuredContent) ?? { reason: 'error', status: 'error' },
      );
    } catch (error) {
      setState({ reason: 'error', status: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <>
      {request.orderId !== undefined && <p class="muted">{t.order(request.orderId, request.volume ?? 1)}</p>}
      <div class="preview">
        <Parcel {...request.dimensions} label={t.parcel(dimensions, request.weightGrams)} />
        <dl class="facts">
          <dt>{t.weight}</dt>
          <dd>{`${request.weightGrams} g · ${dimensions}`}</dd>
          <dt>{t.price}</dt>
          <dd class="price">
            {preview?.quotedPrice === undefined ? t.noPrice : money(preview.quotedPrice, locale)}
          </dd>
          <dt>{t.declaredValue}</dt>
          <dd>{money(declared, locale)}</dd>
          {verdict && (
            <>
              <dt>{t.verdict}</dt>
              <dd>
                <span class={`badge ${verdict.tone}`}>{verdict.text}</span>
              </dd>
            </>
          )}
        </dl>
      </div>
      <div class="parties">
        <PartyBlock title={t.sender} party={request.sender} />
        <PartyBlock title={t.recipient} party={request.recipient} />
      </div>
      <section aria-label={t.items}>
        <h2>{t.items}</h2>
        <ul class="items">
          {request.declaredItems.map((item, i) => (
            <li key={i}>
              <span>{item.conteudo}</span>
              <span class="muted">{`× ${item.quantidade}`}</span>
              <span>{money(item.valor * item.quantidade, locale)}</span>
            </li>
          ))}
        </ul>
      </section>
      <div class="actions">
        {typeof state === 'object' ? (
          <Outcome t={t} label={state} />
        ) : (
          <button type="button" class="primary" disabled={refused || state === 'busy'} onClick={issue}>
            {state === 'busy' ? t.issuing : t.issue}
          </button>
        )}
      </div>
    </>
  );
}

/** `plan_shipment`: one package per box, with what goes in it and its weight, each drawn to the same scale. */
function PlanView({ t, plan }: { t: AppMessages; plan: PlanShipmentOutput }) {
  return (
    <ol class="plan">
      {plan.volumes.map((volume, i) => {
        const { comprimento, largura, altura } = volume.dimensions;
        const dimensions = `${comprimento} × ${largura} × ${altura} cm`;
        return (
          <li key={i} class="volume">
            <h2>{t.box(i + 1, volume.box)}</h2>
            <Parcel {...volume.dimensions} label={t.parcel(dimensions, volume.weightGrams)} />
            <p class="muted">{`${volume.weightGrams} g · ${dimensions}`}</p>
            <ul class="items">
              {volume.items.map((item) => (
                <li key={item.id}>
                  <span>{item.id}</span>
                  <span class="muted">{t.units(item.quantity)}</span>
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ol>
  );
}

/** `generate_label` and `get_label_pdf`: the tracking code, the pre-posting and the PDF to save. */
export function LabelView({ t, result, host }: ViewProps) {
  const label = parsed(AgentLabelOutputSchema, result?.structuredContent);
  if (!label) return <Waiting t={t} />;
  if (!label.prepostagemId) return <Outcome t={t} label={label} />;
  const pdf = label.labelPdfBase64;
  const download = host.download;
  return (
    <>
      <dl class="facts label">
        {label.trackingCode && (
          <>
            <dt>{t.trackingCode}</dt>
            <dd class="code">{label.trackingCode}</dd>
          </>
        )}
        <dt>{t.prepostagem}</dt>
        <dd class="code">{label.prepostagemId}</dd>
      </dl>
      {pdf ? (
        <div class="actions">
          <p class="muted">{t.pdfReady(Math.max(1, Math.round((pdf.length * 3) / 4 / 1024)))}</p>
          {download && (
            <button
              type="button"
              class="primary"
              onClick={() => void download(`${label.prepostagemId}.pdf`, 'application/pdf', pdf)}
            >
              {t.downloadPdf}
            </button>
          )}
        </div>
      ) : (
        <p class="muted">{label.status ?? t.pdfNotReady}</p>
      )}
    </>
  );
}

const ApprovalRowSchema = z.looseObject({
  approvalId: z.string(),
  issuedBy: z.string(),
  request: AgentLabelInputSchema,
  quotedPrice: z.optional(z.number()),
  declaredValue: z.number(),
});
const ApprovalsSchema = z.looseObject({ approvals: z.array(ApprovalRowSchema) });

/** `show_approvals`: each pending label with approve and reject; a decision is the merchant's click, spent once. */
export function ApprovalsView({ t, locale, result, host }: ViewProps) {
  const list = parsed(ApprovalsSchema, result?.structuredContent);
  const [decided, setDecided] = useState<Record<string, string>>({});
  if (!list) return <Waiting t={t} />;
  if (list.approvals.length === 0) return <p class="muted">{t.noApprovals}</p>;
  const grants = (result?._meta?.[GRANTS] ?? {}) as Record<string, unknown>;
  const decide = async (approvalId: string, decision: 'approve' | 'reject') => {
    setDecided((now) => ({ ...now, [approvalId]: '…' }));
    const answer = await host.callTool('app_decide_approval', {
      grant: String(grants[approvalId]),
      decision,
    });
    const label = parsed(AgentLabelOutputSchema, answer.structuredContent);
    const text =
      label?.reason === 'approval_rejected'
        ? t.rejected
        : label?.prepostagemId
          ? `${t.issued}: ${label.trackingCode ?? label.prepostagemId}`
          : t.notIssued(label?.status ?? label?.reason ?? '');
    setDecided((now) => ({ ...now, [approvalId]: text }));
  };
  return (
    <ul class="approvals">
      {list.approvals.map(({ approvalId, issuedBy, request, quotedPrice, declaredValue }) => (
        <li key={approvalId} class="approval">
          <p>
            <strong>{request.recipient.nome}</strong>
            {` — ${request.recipient.endereco.cidade}/${request.recipient.endereco.uf}`}
          </p>
          <p class="muted">
            {`${t.askedBy(issuedBy)} · ${request.serviceId ?? request.serviceCode ?? ''} · ${request.weightGrams} g`}
          </p>
          <p>
            {`${t.price}: ${quotedPrice === undefined ? t.noPrice : money(quotedPrice, locale)} · ${t.declaredValue}: ${money(declaredValue, locale)}`}
          </p>
          <div class="actions">
            {decided[approvalId] ? (
              <p role="status">{decided[approvalId]}</p>
            ) : (
              <>
                <button type="button" class="primary" onClick={() => void decide(approvalId, 'approve')}>
                  {t.approve}
                </button>
                <button type="button" class="secondary" onClick={() => void decide(approvalId, 'reject')}>
                  {t.reject}
                </button>
              </>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
