import * as z from 'zod/mini';
import { CepSchema } from './cep-schema.ts';

/** Spec 2.5 address. */
export const AddressSchema = /* @__PURE__ */ z.strictObject({
  cep: CepSchema,
  logradouro: z.string().check(z.minLength(1)),
  numero: z.string().check(z.minLength(1)),
  bairro: z.string().check(z.minLength(1)),
  cidade: z.string().check(z.minLength(1)),
  uf: z.string().check(z.length(2, 'must be exactly 2 characters (state code)')),
  complemento: z.optional(z.string()),
});
export type Address = z.infer<typeof AddressSchema>;

/** Spec 2.5: sender and recipient share this shape. */
export const PartySchema = /* @__PURE__ */ z.strictObject({
  nome: z.string().check(z.minLength(1)),
  cpfCnpj: z.optional(z.string().check(z.regex(/^\d+$/, 'must be digits only'))),
  telefone: z.optional(z.string()),
  email: z.optional(z.string()),
  endereco: AddressSchema,
});
export type Party = z.infer<typeof PartySchema>;
export type PartyInput = z.input<typeof PartySchema>;

/** Spec 2.6: one line of the content declaration. */
export const DeclaredItemSchema = /* @__PURE__ */ z.strictObject({
  conteudo: z.string().check(z.minLength(1)),
  quantidade: z.int().check(z.gt(0)),
  valor: z.number().check(z.gte(0)),
});
export type DeclaredItem = z.infer<typeof DeclaredItemSchema>;
