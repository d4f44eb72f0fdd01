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
 *
 * Paced (issue 48, finding 11: a CSV preview fired one lookup per new CEP at the public services at once, 5,000 in
 * 4 s): at most `CEP_LOOKUP_LIMITS.inFlight` lookups at a time per service, the others waiting their turn within the
 * same timeout (and a service with too many waiting is skipped for that CEP at once); a CEP asked again while its
 * lookup is in flight joins it; a lookup no service answered is cached too, briefly (`failureTtlMs`), unless it was
 * our own pacing that skipped a service.
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
/** Our own pacing skipped the service for this CEP (too many waiting, or the timeout passed while waiting). */
class Paced extends Error {}

/** How the lookups to each public service are paced, and how long each kind of answer is kept. */
export const CEP_LOOKUP_LIMITS = {
  /** Lookups at once per service. */
  inFlight: 4,
  /** Lookups waiting for a turn per service; beyond it the service is skipped for that CEP. */
  waiting: 200,
  /** Answers kept (CEPs). */
  cached: 5000,
  foundTtlMs: 86_400_000,
  notFoundTtlMs: 3_600_000,
  /** No service answered: the CEP→UF table's state, kept a minute so a retry storm does not ask again at once. */
  failureTtlMs: 60_000,
} as const;

export interface CepDirectoryOptions {
  services: readonly CepServiceConfig[];
  timeoutMs: number;
  fetch?: typeof fetch;
  /** The clock of the cache's times (a fake in tests). */
  now?: () => number;
  /** A lookup's deadline, `AbortSignal.timeout(timeoutMs)` unless given (a test's own signal, aborted when it says). */
  deadline?: (timeoutMs: number) => AbortSignal;
}

/** One service's turns: at most `inFlight` lookups at once, the rest waiting in order until their deadline. */
class Turns {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  /** Runs `task` in its turn; `Paced` when too many wait or `signal` ends the wait first. */
  async run<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T> {
    if (this.active < CEP_LOOKUP_LIMITS.inFlight) this.active += 1;
    else await this.wait(signal);
    try {
      return await task();
    } finally {
      // The turn passes straight to the next one waiting; the count changes only when nobody waits.
      const next = this.queue.shift();
      if (next) next();
      else this.active -= 1;
    }
  }

  private wait(signal: AbortSignal): Promise<void> {
    if (this.queue.length >= CEP_LOOKUP_LIMITS.waiting || signal.aborted) return Promise.reject(new Paced());
    return new Promise((resolve, reject) => {
      const wake = () => {
        signal.removeEventListener('abort', gone);
        resolve();
      };
      const gone = () => {
        const at = this.queue.indexOf(wake);
        if (at >= 0) this.queue.splice(at, 1);
        reject(new Paced());
      };
      this.queue.push(wake);
      signal.addEventListener('abort', gone, { once: true });
    });
  }

  /** Lookups running and waiting now. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.queue.length };
  }
}

/** The port the desk and the import use (tests give the real one a sandbox). */
export interface CepLookup {
  lookup(cep: string): Promise<CepAnswer>;
}

export class CepDirectory implements CepLookup {
  private readonly options: CepDirectoryOptions;
  private readonly cache: LRUCache<string, CepAnswer>;
  private readonly turns: Turns[];
  /** Lookups in flight by CEP: a CEP asked again meanwhile joins its lookup. */
  private readonly flights = new Map<string, Promise<CepAnswer>>();

  constructor(options: CepDirectoryOptions) {
    this.options = options;
    const now = options.now ?? Date.now;
    this.cache = new LRUCache({ max: CEP_LOOKUP_LIMITS.cached, perf: { now }, ttlResolution: 0 });
    this.turns = options.services.map(() => new Turns());
  }

  /** The address of an 8-digit CEP (a CEP that is not one: `not_found`). */
  async lookup(cep: string): Promise<CepAnswer> {
    const digits = cep.replace(/\D/g, '');
    if (digits.length !== 8) return { kind: 'not_found', uf: undefined };
    const cached = this.cache.get(digits);
    if (cached) return cached;
    const flying = this.flights.get(digits);
    if (flying) return flying;
    const flight = this.resolve(digits).finally(() => this.flights.delete(digits));
    this.flights.set(digits, flight);
    return flight;
  }

  /** What this holds and runs now: cached answers, lookups in flight, and each service's turns. */
  state(): { cached: number; flights: number; services: { active: number; waiting: number }[] } {
    return { cached: this.cache.size, flights: this.flights.size, services: this.turns.map((t) => t.load) };
  }

  private async resolve(digits: string): Promise<CepAnswer> {
    const uf = ufOfCep(digits);
    const { timeoutMs, deadline } = this.options;
    const signal = deadline ? deadline(timeoutMs) : AbortSignal.timeout(timeoutMs);
    const asked = this.options.services.map((service, i) =>
      (this.turns[i] as Turns).run(() => this.ask(service, digits, signal), signal),
    );
    if (asked.length === 0) return { kind: 'uf_only', uf };
    try {
      const answer = await Promise.any(asked);
      this.cache.set(digits, answer, { ttl: CEP_LOOKUP_LIMITS.foundTtlMs });
      return answer;
    } catch (error) {
      const errors = error instanceof AggregateError ? error.errors : [];
      if (errors.some((e) => e instanceof NotFound)) {
        const answer: CepAnswer = { kind: 'not_found', uf };
        this.cache.set(digits, answer, { ttl: CEP_LOOKUP_LIMITS.notFoundTtlMs });
        return answer;
      }
      const answer: CepAnswer = { kind: 'uf_only', uf };
      // Our own pacing is not the service's failure: the next lookup asks again.
      if (!errors.some((e) => e instanceof Paced))
        this.cache.set(digits, answer, { ttl: CEP_LOOKUP_LIMITS.failureTtlMs });
      return answer;
    }
  }

  private async ask(service: CepServiceConfig, cep: string, signal: AbortSignal): Promise<CepAnswer> {
    const url = service.kind === 'viacep' ? `${service.baseUrl}/${cep}/json/` : `${service.baseUrl}/${cep}`;
    const res = await (this.options.fetch ?? fetch)(url, {
      headers: { accept: 'application/json', 'user-agent': 'frete-kit' },
      signal,
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
