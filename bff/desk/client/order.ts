import { AgentLabelOutputSchema } from '../../../shared/labels/agent-label.ts';
import type { PartyInput } from '../../../shared/labels/party.ts';
import type { AgentPolicy } from '../../policies/policies.ts';
import { type Messages, reasonName } from '../messages.ts';
import { errorOf } from './api.ts';

/**
 * The desk's script, its pure part: what the issue form, the results and the policy form mean, without a DOM (the
 * DOM wiring is in the other modules of this folder and is tested in Chromium by e2e/desk.test.ts).
 */

export {
  declaredValue,
  labelRequests,
  type OrderLine,
  planRequest,
} from '../../../shared/orders/label-requests.ts';

/**
 * A sender or recipient from the issue form, whose fields are named by their path in the request
 * (`recipient.nome`, `recipient.endereco.cep`): blank optional fields are left out, so the BFF's rules see only what
 * the merchant wrote; the UF in capitals.
 */
export function partyFrom(value: (name: string) => string, who: 'sender' | 'recipient'): PartyInput {
  const field = (path: string) => value(`${who}.${path}`).trim();
  const optional = <K extends string>(key: K, path: string = key): Partial<Record<K, string>> => {
    const text = field(path);
    return text === '' ? {} : ({ [key]: text } as Record<K, string>);
  };
  return {
    nome: field('nome'),
    ...optional('cpfCnpj'),
    ...optional('telefone'),
    ...optional('email'),
    endereco: {
      cep: field('endereco.cep'),
      logradouro: field('endereco.logradouro'),
      numero: field('endereco.numero'),
      bairro: field('endereco.bairro'),
      cidade: field('endereco.cidade'),
      uf: field('endereco.uf').toUpperCase(),
      ...optional('complemento', 'endereco.complemento'),
    },
  };
}

export type ResultKind =
  | 'created'
  | 'replayed'
  | 'refused'
  | 'rejected'
  | 'approval'
  | 'unknown'
  | 'not_sent';

export interface IssueResult {
  kind: ResultKind;
  text: string;
  /** The carrier's or the BFF's own words, shown beside ours. */
  detail?: string;
  attemptId?: string;
  /** The request field a refusal names (`weightGrams`, `recipient.endereco.cep`). */
  field?: string;
}

/** How one label answer of the desk's API (`POST /admin/api/labels` and the like) reads in the results. */
export function resultOf(
  t: Messages,
  volume: number,
  of: number,
  status: number,
  body: unknown,
): IssueResult {
  const error = errorOf(body);
  if (error) {
    return {
      kind: 'refused',
      text: t.resultRefused(volume, of, reasonName(t, error.code)),
      detail: error.message,
      ...(error.field ? { field: error.field } : {}),
    };
  }
  const parsed = AgentLabelOutputSchema.safeParse(body);
  if (!parsed.success) return { kind: 'refused', text: t.resultRefused(volume, of, t.network) };
  const answer = parsed.data;
  const attempt = answer.attemptId ? { attemptId: answer.attemptId } : {};
  const detail = answer.status ? { detail: answer.status } : {};
  if (status === 422) {
    return {
      kind: 'refused',
      text: t.resultRefused(volume, of, reasonName(t, answer.reason ?? 'invalid_body')),
      ...detail,
      ...(answer.field ? { field: answer.field } : {}),
    };
  }
  if (answer.prepostagemId) {
    return status === 201
      ? {
          kind: 'created',
          text: t.resultCreated(volume, of, answer.prepostagemId, answer.trackingCode ?? t.none),
          ...attempt,
        }
      : { kind: 'replayed', text: t.resultReplayed(volume, of, answer.prepostagemId), ...attempt };
  }
  switch (answer.reason) {
    case 'approval_pending':
      return { kind: 'approval', text: t.resultApproval(volume, of) };
    case 'outcome_unknown':
      return { kind: 'unknown', text: t.resultUnknown(volume, of), ...attempt };
    case 'not_sent':
      return { kind: 'not_sent', text: t.resultNotSent(volume, of), ...attempt };
    default:
      return {
        kind: 'rejected',
        text: t.resultRejected(volume, of, reasonName(t, answer.reason ?? 'prepostagem_rejected')),
        ...detail,
        ...attempt,
      };
  }
}

/** What a policy form holds, as text (empty: no limit). */
export interface PolicyFields {
  maxLabelsPerDay: string;
  maxDeclaredValuePerDay: string;
  /** Ticked services, or (without a service map) the text field's comma-separated list. */
  services: readonly string[];
  approval: string;
  approvalAmount: string;
  /** `app` when only the merchant's click in an MCP app issues (docs/agents/apps.md). */
  issue?: string;
  /** `yes` when this connection may decide other agents' approvals in its host's app (docs/agents/apps.md). */
  decidesApprovals?: string;
}

/** The policy a form says; null when it sets nothing (no limits: the client's policy is cleared). */
export function policyOf(fields: PolicyFields): AgentPolicy | null {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const labels = number(fields.maxLabelsPerDay);
  const value = number(fields.maxDeclaredValuePerDay);
  const services = fields.services.map((service) => service.trim()).filter(Boolean);
  const amount = number(fields.approvalAmount);
  const approval =
    fields.approval === 'always'
      ? 'always'
      : fields.approval === 'above' && amount !== undefined
        ? amount
        : undefined;
  const policy: AgentPolicy = {
    ...(labels === undefined ? {} : { maxLabelsPerDay: labels }),
    ...(value === undefined ? {} : { maxDeclaredValuePerDay: value }),
    ...(services.length > 0 ? { services } : {}),
    ...(approval === undefined ? {} : { approval }),
    ...(fields.issue === 'app' ? { issue: 'app' as const } : {}),
    ...(fields.decidesApprovals === 'yes' ? { decidesApprovals: true as const } : {}),
  };
  return Object.keys(policy).length === 0 ? null : policy;
}
