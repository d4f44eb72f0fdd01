import { requestCep } from '../../shared/orders/label-binding.ts';
import type { LedgerAttempt } from '../labels/ledger.ts';
import type { LedgerStore } from '../labels/ledger-store.ts';

/** The destination CEP of a label, as sent (8 digits), or undefined. */
function cepOf(attempt: LedgerAttempt): string | undefined {
  return requestCep(attempt.request);
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
   * The order's parcels addressed to this CEP (issue 48: never another recipient's parcel of the same number);
   * undefined for an unknown order, an order without a tracking code yet, and a wrong CEP alike — the caller cannot
   * tell them apart, and must not.
   */
  async byOrderAndCep(orderId: string, cep: string): Promise<LedgerAttempt[] | undefined> {
    // Every parcel's CEP is read, whichever matches: the same work for a wrong CEP as for a right one.
    const parcels = parcelsOf(await this.ledger.byOrder(orderId)).filter((attempt) => cepOf(attempt) === cep);
    return parcels.length > 0 ? parcels : undefined;
  }

  /**
   * The parcels of the order a signed link's label belongs to that go to the same CEP as that label (that label
   * alone when it has no order): a link opens its recipient's parcels, never another recipient's under the number.
   */
  async byLabel(attemptId: string): Promise<{ orderId?: string; parcels: LedgerAttempt[] } | undefined> {
    const attempt = await this.ledger.get(attemptId);
    if (attempt?.state !== 'created' || !attempt.trackingCode) return undefined;
    if (!attempt.orderId) return { parcels: [attempt] };
    const cep = cepOf(attempt);
    const parcels = parcelsOf(await this.ledger.byOrder(attempt.orderId)).filter(
      (parcel) => parcel.id === attempt.id || cepOf(parcel) === cep,
    );
    return { orderId: attempt.orderId, parcels };
  }
}
