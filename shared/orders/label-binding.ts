/**
 * The rule that binds a label to a store order by more than its number (issue 48, finding 1; where it is applied:
 * bff/orders/binding.ts): the label carries the order's `orderId` — compared exactly, never normalised — *and* goes to
 * the order's CEP.
 */
import * as z from 'zod/mini';
import { normalizeCep } from '../cep.ts';
import type { StoreOrder } from './order.ts';

const CepOfSchema = z.object({ recipient: z.object({ endereco: z.object({ cep: z.string() }) }) });

/** The destination CEP of a label's request as sent (8 digits), or undefined when it cannot be read. */
export function requestCep(request: string): string | undefined {
  try {
    const cep = CepOfSchema.safeParse(JSON.parse(request)).data?.recipient.endereco.cep;
    return cep === undefined ? undefined : (normalizeCep(cep) ?? undefined);
  } catch {
    return undefined;
  }
}

/** Whether a label (its `orderId` and request) is bound to this order: the same id and the order's CEP. */
export function isBound(
  order: Pick<StoreOrder, 'orderId' | 'recipient'>,
  label: { orderId?: string | null | undefined; request: string },
): boolean {
  const cep = normalizeCep(order.recipient.endereco.cep);
  return label.orderId === order.orderId && cep !== null && requestCep(label.request) === cep;
}
