import { normalizeCep } from '../../shared/cep.ts';
import type { Review, StoreOrder } from '../../shared/orders/order.ts';
import type { ServiceCodes } from '../labels/service-codes.ts';
import { type CepLookup, sameCity } from './cep-directory.ts';

/** An order as a source made it, with what the source itself found to review (an address line it could not split). */
export type DraftOrder = Omit<StoreOrder, 'needsReview'> & { needsReview?: Review[] };

export interface ReviewDeps {
  serviceCodes: Pick<ServiceCodes, 'codeOf'>;
  cep: CepLookup;
}

const REQUIRED_ADDRESS = ['logradouro', 'numero', 'bairro', 'cidade', 'uf'] as const;

/**
 * What the operator must look at before the order's labels go out (docs/orders.md, "What the desk shows"), every
 * rule in this order:
 *
 * 1. the source's own findings (an address line it could not split);
 * 2. the CEP: none → `missing`, one that is not 8 digits → `malformed`; checked with the CEP service — an empty neighbourhood (or street) is filled from
 *    it (the CEP's own data, not a guess), a city or UF that disagrees is flagged with the CEP's, a CEP no service
 *    knows is flagged; when no service answers, the UF is checked against the CEP→UF table alone;
 * 3. every required field still empty → `missing` (the name, the address's parts);
 * 4. a service the store does not map to a contract code → `unknown_service`; none → `missing`;
 * 5. an item without weight → `no_weight`.
 */
export async function reviewed(draft: DraftOrder, deps: ReviewDeps): Promise<StoreOrder> {
  const needsReview: Review[] = [...(draft.needsReview ?? [])];
  const flag = (review: Review) => {
    if (!needsReview.some((r) => r.field === review.field)) needsReview.push(review);
  };
  const recipient = structuredClone(draft.recipient);
  const address = recipient.endereco;
  const cep = normalizeCep(address.cep);
  if (!cep)
    flag(
      address.cep.trim() === ''
        ? { field: 'recipient.endereco.cep', reason: 'missing' }
        : { field: 'recipient.endereco.cep', reason: 'malformed', detail: address.cep.trim() },
    );
  else {
    address.cep = cep;
    const answer = await deps.cep.lookup(cep);
    if (answer.kind === 'address') {
      if (address.bairro.trim() === '' && answer.address.bairro) address.bairro = answer.address.bairro;
      if (address.logradouro.trim() === '' && answer.address.logradouro)
        address.logradouro = answer.address.logradouro;
      if (address.cidade.trim() === '') address.cidade = answer.address.cidade;
      else if (!sameCity(address.cidade, answer.address.cidade))
        flag({ field: 'recipient.endereco.cidade', reason: 'city_mismatch', detail: answer.address.cidade });
      if (address.uf.trim() === '') address.uf = answer.address.uf;
      else if (address.uf.toUpperCase() !== answer.address.uf)
        flag({ field: 'recipient.endereco.uf', reason: 'uf_mismatch', detail: answer.address.uf });
    } else {
      if (answer.kind === 'not_found')
        flag({ field: 'recipient.endereco.cep', reason: 'cep_not_found', detail: address.cep });
      if (answer.uf && address.uf.trim() !== '' && address.uf.toUpperCase() !== answer.uf)
        flag({ field: 'recipient.endereco.uf', reason: 'uf_mismatch', detail: answer.uf });
    }
  }
  address.uf = address.uf.toUpperCase();
  if (recipient.nome.trim() === '') flag({ field: 'recipient.nome', reason: 'missing' });
  for (const field of REQUIRED_ADDRESS)
    if (address[field].trim() === '') flag({ field: `recipient.endereco.${field}`, reason: 'missing' });
  if (!draft.serviceId) flag({ field: 'serviceId', reason: 'missing' });
  else if (!deps.serviceCodes.codeOf(draft.serviceId))
    flag({ field: 'serviceId', reason: 'unknown_service', detail: draft.serviceId });
  draft.items.forEach((item, i) => {
    if (item.weightGrams === undefined) flag({ field: `items[${i}].weightGrams`, reason: 'no_weight' });
  });
  return { ...draft, recipient, needsReview };
}
