import { LRUCache } from 'lru-cache';
import * as z from 'zod/mini';
import { type Uf, ufOfCep } from '../../shared/uf.ts';
import type { CepServiceConfig } from '../env-readers.ts';

/**
 * An address by its CEP (docs/orders.md, "Address by CEP"): the desk's form fills street, neighbourhood, city and UF
 * from it, and imported orders are checked against it. Every configured service (`BFF_CEP_SERVICES`: ViaCEP and
 * BrasilAPI by default) is asked at once, each within `BFF_CEP_TIMEOUT_MS`; the first address wins. When none answers
 * in time (down, slow), the CEP→UF table (`shared/uf.ts`) still gives the state. Answers are cached (a day; a CEP no
 * service knows, an hour); failures are not.
 *
 * Why not `cep-promise` (BrasilAPI/cep-promise), the well-kept library for this: its services' URLs are fixed in its
 * source (`https://viacep.com.br/ws/…`), so it cannot be pointed at the sandbox's emulated service without patching
 * its internals, and it keeps no cache. This is the same idea (race the services, first address wins) with
 * configurable base URLs.
 */
export interface CepAddress {
  cep: string;
  logradouro: string;
  bairro: string;
  cidade: string;
  uf: string;
}

export type CepAnswer =
  /** A service knows the CEP (`service` says which). */
  | { kind: 'address'; address: CepAddress; service: string }
  /** The services that answered do not know it (`uf`: the table's state, when the CEP is in a state's range). */
  | { kind: 'not_found'; uf: Uf | undefined }
  /** No service answered in time: the CEP→UF table's state only. */
  | { kind: 'uf_only'; uf: Uf | undefined };

/** ViaCEP's `/ws/<cep>/json/`: the address, or `{"erro": true}` (also `"true"`) for a CEP it does not know. */
export const ViaCepAnswerSchema = /* @__PURE__ */ z.looseObject({
  cep: z.optional(z.string()),
  logradouro: z.optional(z.string()),
  complemento: z.optional(z.string()),
  bairro: z.optional(z.string()),
  localidade: z.optional(z.string()),
  uf: z.optional(z.string()),
  erro: z.optional(z.union([z.boolean(), z.string()])),
});

/** BrasilAPI's `/api/cep/v1/<cep>`: the address; 404 for a CEP it does not know. */
const BrasilApiAnswerSchema = z.looseObject({
  cep: z.string(),
  state: z.string(),
  city: z.string(),
  neighborhood: z.optional(z.nullable(z.string())),
  street: z.optional(z.nullable(z.string())),
});

class NotFound extends Error {}

export interface CepDirectoryOptions {
  services: readonly CepServiceConfig[];
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** The port the desk and the import use (tests give the real one a sandbox). */
export interface CepLookup {
  lookup(cep: string): Promise<CepAnswer>;
}

export class CepDirectory implements CepLookup {
  private readonly options: CepDirectoryOptions;
  private readonly cache = new LRUCache<string, CepAnswer>({ max: 5000 });

  constructor(options: CepDirectoryOptions) {
    this.options = options;
  }

  /** The address of an 8-digit CEP (a CEP that is not one: `not_found`). */
  async lookup(cep: string): Promise<CepAnswer> {
    const digits = cep.replace(/\D/g, '');
    if (digits.length !== 8) return { kind: 'not_found', uf: undefined };
    const cached = this.cache.get(digits);
    if (cached) return cached;
    const uf = ufOfCep(digits);
    const asked = this.options.services.map((service) => this.ask(service, digits));
    if (asked.length === 0) return { kind: 'uf_only', uf };
    try {
      const answer = await Promise.any(asked);
      this.cache.set(digits, answer, { ttl: 86_400_000 });
      return answer;
    } catch (error) {
      const errors = error instanceof AggregateError ? error.errors : [];
      if (errors.some((e) => e instanceof NotFound)) {
        const answer: CepAnswer = { kind: 'not_found', uf };
        this.cache.set(digits, answer, { ttl: 3_600_000 });
        return answer;
      }
      return { kind: 'uf_only', uf };
    }
  }

  private async ask(service: CepServiceConfig, cep: string): Promise<CepAnswer> {
    const url = service.kind === 'viacep' ? `${service.baseUrl}/${cep}/json/` : `${service.baseUrl}/${cep}`;
    const res = await (this.options.fetch ?? fetch)(url, {
      headers: { accept: 'application/json', 'user-agent': 'frete-kit' },
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    if (service.kind === 'brasilapi' && res.status === 404) throw new NotFound();
    if (!res.ok) throw new Error(`${service.kind} answered ${res.status}`);
    const json: unknown = await res.json();
    const address = service.kind === 'viacep' ? fromViaCep(json) : fromBrasilApi(json);
    return { kind: 'address', address: { ...address, cep }, service: service.kind };
  }
}

function fromViaCep(json: unknown): Omit<CepAddress, 'cep'> {
  const parsed = ViaCepAnswerSchema.parse(json);
  if (parsed.erro === true || parsed.erro === 'true') throw new NotFound();
  if (!parsed.localidade || !parsed.uf) throw new Error('viacep answered without a city');
  return {
    logradouro: parsed.logradouro ?? '',
    bairro: parsed.bairro ?? '',
    cidade: parsed.localidade,
    uf: parsed.uf.toUpperCase(),
  };
}

function fromBrasilApi(json: unknown): Omit<CepAddress, 'cep'> {
  const parsed = BrasilApiAnswerSchema.parse(json);
  return {
    logradouro: parsed.street ?? '',
    bairro: parsed.neighborhood ?? '',
    cidade: parsed.city,
    uf: parsed.state.toUpperCase(),
  };
}

/** A city's name as compared: no accents, no case, single spaces ("São Paulo" = "sao  paulo"). */
export function sameCity(a: string, b: string): boolean {
  const plain = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase();
  return plain(a) === plain(b);
}
