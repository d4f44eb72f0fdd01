import * as z from 'zod/mini';
import { normalizeCep } from '../../shared/cep.ts';
import type { LedgerAttempt } from '../labels/ledger.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';

const CepOfSchema = z.object({ recipient: z.object({ endereco: z.object({ cep: z.string() }) }) });

/** The destination CEP of a label, as sent (8 digits), or undefined. */
function cepOf(attempt: LedgerAttempt): string | undefined {
  try {
    const cep = CepOfSchema.safeParse(JSON.parse(attempt.request)).data?.recipient.endereco.cep;
    return cep === undefined ? undefined : (normalizeCep(cep) ?? undefined);
  } catch {
    return undefined;
  }
}

/** The labels of an order that have a tracking code: the latest created attempt of each volume, in volume order. */
function parcelsOf(attempts: readonly LedgerAttempt[]): LedgerAttempt[] {
  const byVolume = new Map<number, LedgerAttempt>();
  for (const attempt of attempts) {
    if (attempt.state !== 'created' || !attempt.trackingCode) continue;
    const volume = attempt.volume ?? 1;
    const held = byVolume.get(volume);
    if (!held || held.createdAt < attempt.createdAt) byVolume.set(volume, attempt);
  }
  return [...byVolume.entries()].sort(([a], [b]) => a - b).map(([, attempt]) => attempt);
}

/**
 * Orders found without a tracking code (docs/architecture.md, "Notifications and orders without a code"): by the order number and
 * the destination CEP, from the ledger's orders and volumes; or by the label a signed link names.
 */
export class OrderLookup {
  private readonly ledger: Pick<LedgerStore, 'byOrder' | 'get'>;

  constructor(ledger: Pick<LedgerStore, 'byOrder' | 'get'>) {
    this.ledger = ledger;
  }

  /**
   * The order's parcels when one of its labels went to this CEP; undefined for an unknown order, an order without a
   * tracking code yet, and a wrong CEP alike — the caller cannot tell them apart, and must not.
   */
  async byOrderAndCep(orderId: string, cep: string): Promise<LedgerAttempt[] | undefined> {
    const parcels = parcelsOf(await this.ledger.byOrder(orderId));
    // Every parcel's CEP is read, whichever matches: the same work for a wrong CEP as for a right one.
    const matches = parcels.map((attempt) => cepOf(attempt) === cep);
    return matches.includes(true) ? parcels : undefined;
  }

  /** The parcels of the order a signed link's label belongs to (that label alone when it has no order). */
  async byLabel(attemptId: string): Promise<{ orderId?: string; parcels: LedgerAttempt[] } | undefined> {
    const attempt = await this.ledger.get(attemptId);
    if (attempt?.state !== 'created' || !attempt.trackingCode) return undefined;
    if (!attempt.orderId) return { parcels: [attempt] };
    return { orderId: attempt.orderId, parcels: parcelsOf(await this.ledger.byOrder(attempt.orderId)) };
  }
}
