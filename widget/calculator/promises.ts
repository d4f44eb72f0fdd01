import { signal } from '@preact/signals-core';
import type { DeliveryPromise } from '../../shared/delivery-promise.ts';
import type { Rate } from '../../shared/quote.ts';
import { isPromisesResponse } from '../validators/generated.js';

/** The promises the BFF answered for the last quote, by `serviceId`, for the CEP they were asked for. */
export interface PromisesState {
  cep: string;
  byService: Record<string, { deliveryDays: number; promise: DeliveryPromise }>;
}

/** How long the calculator waits for the BFF's promises before the options keep their own date. */
const PROMISES_TIMEOUT_MS = 4000;

/**
 * The delivery promises of the rates the calculator got from the platform (docs/promise.md): after each quote the
 * element asks the store's BFF (`promises-url`) for the date the store keeps on each rate's lane, and shows it instead
 * of the date it would work out itself. A promise is a nicety: when the BFF does not answer in time, answers
 * something else, or answers for a CEP that is no longer the one quoted, the option keeps the date it had.
 */
export function createPromises(url: string) {
  const state = signal<PromisesState | undefined>(undefined);
  let asked = 0;

  async function ask(cep: string, rates: readonly Rate[]): Promise<void> {
    const mine = ++asked;
    if (rates.length === 0) return;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          cep,
          rates: rates.slice(0, 20).map(({ serviceId, deliveryDays }) => ({ serviceId, deliveryDays })),
        }),
        signal: AbortSignal.timeout(PROMISES_TIMEOUT_MS),
      });
      const json: unknown = res.ok ? await res.json() : undefined;
      if (mine !== asked || !isPromisesResponse(json)) return;
      const byService: PromisesState['byService'] = {};
      for (const { serviceId, promise } of json.promises) {
        const rate = rates.find((r) => r.serviceId === serviceId);
        if (rate) byService[serviceId] = { deliveryDays: rate.deliveryDays, promise };
      }
      state.value = { cep, byService };
    } catch {
      // no promise: the options keep their own date
    }
  }

  /** The promise of a rate shown for `cep` (the same service, quoted the same days), when the BFF gave one. */
  function of(cep: string, rate: Rate): DeliveryPromise | undefined {
    const current = state.value;
    const found = current?.cep === cep ? current.byService[rate.serviceId] : undefined;
    return found && found.deliveryDays === rate.deliveryDays ? found.promise : undefined;
  }

  return { ask, of };
}

export type Promises = ReturnType<typeof createPromises>;
