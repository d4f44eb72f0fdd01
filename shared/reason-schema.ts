import * as z from 'zod/mini';

/**
 * A business reason: an *open* set. The known values are in `reasons.ts`, but any string parses,
 * because the platform may add reasons and a client must still show "no quote" for them.
 */
export const ReasonSchema = /* @__PURE__ */ z.string();
