import * as z from 'zod/mini';
import { CepSchema } from '../cep-schema.ts';

/** Spec 2.5 address. */
export const AddressSchema = /* @__PURE__ */ z.strictObject({
  cep: CepSchema.check(z.describe('CEP, 8 digits.')),
  logradouro: z.string().check(z.minLength(1), z.describe('Street, e.g. "Avenida Paulista".')),
  numero: z.string().check(z.minLength(1), z.describe('Number as text, e.g. "1578" or "s/n".')),
  bairro: z.string().check(z.minLength(1), z.describe('Neighbourhood.')),
  cidade: z.string().check(z.minLength(1), z.describe('City.')),
  uf: z
    .string()
    .check(
      z.length(2, 'must be exactly 2 characters (state code)'),
      z.describe('State (UF) of the CEP, e.g. "SP".'),
    ),
  complemento: z.optional(z.string().check(z.describe('Complement, e.g. "apto 12".'))),
});
export type Address = z.infer<typeof AddressSchema>;

/**
 * Spec 2.5: sender and recipient share this shape. Registered as `party`, so a tool's JSON Schema states it once
 * (`definitions.party`) and both refer to it, instead of listing it twice to every agent.
 */
export const PartySchema = /* @__PURE__ */ z
  .strictObject({
    nome: z.string().check(z.minLength(1), z.describe('Full name (person or company).')),
    cpfCnpj: z.optional(
      z
        .string()
        .check(z.regex(/^\d+$/, 'must be digits only'), z.describe('CPF (11) or CNPJ (14), digits only.')),
    ),
    telefone: z.optional(z.string().check(z.describe('Phone with area code, e.g. "11987654321".'))),
    email: z.optional(z.string().check(z.describe('E-mail for carrier notices.'))),
    endereco: AddressSchema.check(z.describe('Address.')),
  })
  .register(z.globalRegistry, { id: 'party' });
export type Party = z.infer<typeof PartySchema>;
export type PartyInput = z.input<typeof PartySchema>;

/** Spec 2.6: one line of the content declaration. */
export const DeclaredItemSchema = /* @__PURE__ */ z.strictObject({
  conteudo: z.string().check(z.minLength(1), z.describe('What it is, e.g. "Camiseta".')),
  quantidade: z.int().check(z.gt(0), z.describe('Units, at least 1.')),
  valor: z.number().check(z.gte(0), z.describe('Unit value in BRL: the line is worth quantidade × valor.')),
});
export type DeclaredItem = z.infer<typeof DeclaredItemSchema>;
