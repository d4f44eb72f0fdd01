import * as z from 'zod/mini';
import { CepSchema } from './cep-schema.ts';

/** Spec 2.5 address. */
export const AddressSchema = /* @__PURE__ */ z.strictObject({
  cep: CepSchema.check(z.describe('CEP (postal code) of this address, 8 digits.')),
  logradouro: z
    .string()
    .check(z.minLength(1), z.describe('Street name (logradouro), e.g. "Avenida Paulista".')),
  numero: z.string().check(z.minLength(1), z.describe('Street number as text, e.g. "1578" or "s/n".')),
  bairro: z.string().check(z.minLength(1), z.describe('Neighbourhood (bairro).')),
  cidade: z.string().check(z.minLength(1), z.describe('City (cidade).')),
  uf: z
    .string()
    .check(
      z.length(2, 'must be exactly 2 characters (state code)'),
      z.describe('State code (UF), 2 letters, e.g. "SP", "RJ".'),
    ),
  complemento: z.optional(z.string().check(z.describe('Address complement, e.g. "apto 12, bloco B".'))),
});
export type Address = z.infer<typeof AddressSchema>;

/** Spec 2.5: sender and recipient share this shape. */
export const PartySchema = /* @__PURE__ */ z.strictObject({
  nome: z.string().check(z.minLength(1), z.describe('Full name of the person or company.')),
  cpfCnpj: z.optional(
    z
      .string()
      .check(
        z.regex(/^\d+$/, 'must be digits only'),
        z.describe('CPF (11 digits) or CNPJ (14 digits), digits only.'),
      ),
  ),
  telefone: z.optional(z.string().check(z.describe('Phone number with area code, e.g. "11987654321".'))),
  email: z.optional(z.string().check(z.describe('E-mail address for carrier notifications.'))),
  endereco: AddressSchema.check(z.describe('Postal address.')),
});
export type Party = z.infer<typeof PartySchema>;
export type PartyInput = z.input<typeof PartySchema>;

/** Spec 2.6: one line of the content declaration. */
export const DeclaredItemSchema = /* @__PURE__ */ z.strictObject({
  conteudo: z
    .string()
    .check(z.minLength(1), z.describe('What the item is (content declaration), e.g. "Camiseta".')),
  quantidade: z.int().check(z.gt(0), z.describe('Number of units (integer, at least 1).')),
  valor: z
    .number()
    .check(
      z.gte(0),
      z.describe('Declared unit value in BRL (spec 2.6): the line is worth quantidade × valor.'),
    ),
});
export type DeclaredItem = z.infer<typeof DeclaredItemSchema>;
