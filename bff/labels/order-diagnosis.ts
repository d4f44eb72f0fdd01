import type {
  Attempt,
  DiagnoseLabelIssueInput,
  DiagnoseLabelIssueOutput,
} from '../../shared/labels/diagnosis.ts';
import { MAX_LISTED_ATTEMPTS } from '../../shared/platform-limits.ts';
import type { LedgerAttempt } from './ledger.ts';
import type { LedgerStore } from './ledger-store.ts';

type Query = Omit<DiagnoseLabelIssueInput, 'instanceId'>;

/**
 * `diagnose_label_issue` with an `orderId`, answered from the BFF's ledger as well as the platform: the platform's
 * attempts made over MCP carry no `orderId` (its `generate_label` input has none, spec 4.4.3), so asking it alone for
 * an order this BFF labelled answers "no attempts". Each of the order's ledger attempts is told as the platform's
 * entry of the same `supportCode` when the platform still lists it (with the order, volume and attempt added), or as
 * the ledger knows it; attempts the platform itself files under the order (a storefront app's) follow. The most
 * recent first, at most 10, like the platform's list. A platform that cannot be read leaves the ledger's answer.
 */
export async function diagnoseOrder(
  ledger: Pick<LedgerStore, 'byOrder'>,
  platform: (query: Query) => Promise<DiagnoseLabelIssueOutput>,
  query: Query & { orderId: string },
): Promise<DiagnoseLabelIssueOutput> {
  const { orderId, ...rest } = query;
  const ours = query.source === undefined || query.source === 'mcp' ? await ledger.byOrder(orderId) : [];
  if (ours.length === 0) return platform(query);
  const [recent, filed] = await Promise.all([
    platform(rest).catch(() => undefined),
    platform(query).catch(() => undefined),
  ]);
  const listed = new Map(
    [...(recent?.attempts ?? []), ...(filed?.attempts ?? [])].map((entry) => [entry.supportCode, entry]),
  );
  const told = ours.map((attempt): Attempt => {
    const entry = attempt.supportCode ? listed.get(attempt.supportCode) : undefined;
    return {
      ...(entry ?? fromLedger(attempt)),
      orderId,
      ...(attempt.volume === null ? {} : { volume: attempt.volume }),
      attemptId: attempt.id,
    };
  });
  const bound = new Set(ours.flatMap((attempt) => attempt.supportCode ?? []));
  const theirs = (filed?.attempts ?? []).filter((entry) => !bound.has(entry.supportCode));
  return {
    attempts: [...told, ...theirs]
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
      .slice(0, MAX_LISTED_ATTEMPTS),
  };
}

/** An attempt as the ledger knows it, in the platform's shape (its `supportCode` when the platform answered one). */
function fromLedger(attempt: LedgerAttempt): Attempt {
  const outcome = attempt.state === 'created' || attempt.state === 'rejected' ? attempt.state : 'failed';
  const reason =
    attempt.state === 'unknown'
      ? 'outcome_unknown'
      : attempt.state === 'not_sent'
        ? 'not_sent'
        : (attempt.reason ?? undefined);
  return {
    supportCode: attempt.supportCode ?? attempt.id,
    createdAt: new Date(attempt.createdAt).toISOString(),
    source: 'mcp',
    outcome,
    ...(reason ? { reason } : {}),
    ...(attempt.prepostagemId ? { prepostagemId: attempt.prepostagemId } : {}),
    ...(attempt.trackingCode ? { trackingCode: attempt.trackingCode } : {}),
    evidence: { request: JSON.parse(attempt.request) as unknown, ledgerState: attempt.state },
    action: ACTIONS[attempt.state],
  };
}

/** What to do next, by the ledger's state of the attempt. */
const ACTIONS: Record<LedgerAttempt['state'], string> = {
  created:
    'The label exists: get_label_pdf with its prepostagemId prints it; generate_label with the same input answers it again.',
  rejected: 'The carrier refused it: correct the input as its reason says, then send it again.',
  unknown:
    'The outcome is unknown (the answer was lost after sending): call generate_label again with the same input, which checks the platform history first; the merchant can settle it in the desk.',
  not_sent: 'It never reached the platform and nothing was created: sending the same input again is safe.',
  pending: 'It is being issued right now: ask again in a minute.',
};
