import * as z from 'zod/mini';

/** `GET /admin/api/cep/<cep>` (bff/orders/cep-directory.ts): an address, not found, or the state only. */
const CepAnswerSchema = z.union([
  z.object({
    kind: z.literal('address'),
    address: z.object({ logradouro: z.string(), bairro: z.string(), cidade: z.string(), uf: z.string() }),
  }),
  z.object({ kind: z.enum(['not_found', 'uf_only']), uf: z.optional(z.string()) }),
]);

/**
 * Fills a form's empty address fields from a CEP (docs/orders.md, "Address by CEP"): street, neighbourhood, city and
 * UF when a CEP service knows it, the UF alone when none answered in time. What the merchant already typed is kept.
 * `field(name)` is the input of `endereco.<name>` (undefined: the form has none).
 */
export async function fillFromCep(
  cep: string,
  field: (name: string) => HTMLInputElement | null,
): Promise<void> {
  let answer: z.infer<typeof CepAnswerSchema>;
  try {
    const res = await fetch(`/admin/api/cep/${encodeURIComponent(cep)}`, {
      headers: { accept: 'application/json' },
    });
    if (!res.ok) return;
    answer = CepAnswerSchema.parse(await res.json());
  } catch {
    return;
  }
  const fill = (name: string, value: string | undefined) => {
    const input = field(name);
    if (input && !input.value.trim() && value) input.value = value;
  };
  if (answer.kind === 'address') {
    fill('logradouro', answer.address.logradouro);
    fill('bairro', answer.address.bairro);
    fill('cidade', answer.address.cidade);
    fill('uf', answer.address.uf);
  } else fill('uf', answer.uf);
}
