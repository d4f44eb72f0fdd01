import type { OrderLookupResponse } from '../../shared/order-lookup.ts';
import { isTrackingLookupResponse } from './generated.js';

/**
 * The BFF's `POST /api/orders/lookup` 200 body (`OrderLookupResponseSchema`: `{orderId, results}`, strict), checked
 * with the tracking answer's validator rather than a second copy of it (the tracking element's budget): `orderId` a
 * string, and the rest exactly a tracking answer. codegen.test.ts holds it to zod's answers on the same values.
 */
export function isOrderLookupResponse(value: unknown): value is OrderLookupResponse {
  if (!(typeof value === 'object' && value && !Array.isArray(value))) return false;
  const { orderId, ...rest } = value as Record<string, unknown>;
  return typeof orderId === 'string' && isTrackingLookupResponse(rest);
}
