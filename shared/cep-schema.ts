import * as z from 'zod/mini';
import { CEP_PATTERN, CEP_SEPARATORS } from './cep.ts';

/** A CEP string in, its 8 digits out. */
export const CepSchema = /* @__PURE__ */ z.pipe(
  z.string().check(z.regex(CEP_PATTERN, 'must be a CEP of 8 digits (dashes and spaces are ignored)')),
  z.transform((cep: string) => cep.replace(CEP_SEPARATORS, '')),
);
