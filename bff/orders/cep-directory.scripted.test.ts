import { describe, expect, it } from 'vitest';
import { CEP_LOOKUP_LIMITS, CepDirectory, sameCity } from './cep-directory.ts';

/**
 * The CEP directory (docs/orders.md, "Address by CEP") against scripted services (a `fetch` the test answers) and a
 * test clock: cep-directory.test.ts and cep-pacing.test.ts state the same against the sandbox's emulated ViaCEP and a
 * server on port 0.
 */
/** `hang`: until released or the call's signal aborts; `deaf`: until released, whatever the signal. */
type Answer = { status: number; body?: unknown } | 'hang' | 'deaf' | Error;

interface Scripted {
  fetch: typeof fetch;
  calls: { url: string; headers: Record<string, string> }[];
  /** Ends every hanging call with `answer`. */
  release(answer?: Answer): void;
}

function scripted(answer: (url: string) => Answer): Scripted {
  const calls: Scripted['calls'] = [];
  const hanging: ((answer: Answer) => void)[] = [];
  const respond = (a: Exclude<Answer, 'hang' | 'deaf'>) => {
    if (a instanceof Error) throw a;
    return new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status });
  };
  return {
    calls,
    fetch: (async (url: string, init: RequestInit) => {
      calls.push({ url, headers: init.headers as Record<string, string> });
      const a = answer(url);
      if (a !== 'hang' && a !== 'deaf') return respond(a);
      return new Promise((resolve, reject) => {
        if (a === 'hang') init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        hanging.push((later) => {
          try {
            resolve(respond(later === 'hang' || later === 'deaf' ? { status: 500 } : later));
          } catch (error) {
            reject(error);
          }
        });
      });
    }) as typeof fetch,
    release: (later = { status: 200, body: VIACEP }) => {
      for (const wake of hanging.splice(0)) wake(later);
    },
  };
}

const VIACEP = {
  cep: '01310-100',
  logradouro: 'Avenida Paulista',
  bairro: 'Bela Vista',
  localidade: 'São Paulo',
  uf: 'sp',
};
const BRASILAPI = {
  cep: '01310100',
  state: 'sp',
  city: 'São Paulo',
  neighborhood: 'Bela Vista',
  street: 'Avenida Paulista',
};
const ADDRESS = {
  cep: '01310100',
  logradouro: 'Avenida Paulista',
  bairro: 'Bela Vista',
  cidade: 'São Paulo',
  uf: 'SP',
};

function directory(
  services: ('viacep' | 'brasilapi')[],
  answer: (url: string) => Answer,
  timeoutMs = 2_000,
  deadline?: (timeoutMs: number) => AbortSignal,
) {
  const clock = { now: 1_000_000 };
  const service = scripted(answer);
  const cep = new CepDirectory({
    services: services.map((kind) => ({ kind, baseUrl: `https://${kind}.example/ws` })),
    timeoutMs,
    fetch: service.fetch,
    now: () => clock.now,
    ...(deadline && { deadline }),
  });
  return { cep, service, clock };
}

describe('the address of a CEP', () => {
  it('asks ViaCEP at /<cep>/json/ as frete-kit for JSON, and answers its address with the UF in capitals', async () => {
    const { cep, service } = directory(['viacep'], () => ({ status: 200, body: VIACEP }));
    expect(await cep.lookup('01310-100')).toEqual({ kind: 'address', service: 'viacep', address: ADDRESS });
    expect(service.calls).toEqual([
      {
        url: 'https://viacep.example/ws/01310100/json/',
        headers: { accept: 'application/json', 'user-agent': 'frete-kit' },
      },
    ]);
  });

  it('asks BrasilAPI at /<cep>, and reads its fields', async () => {
    const { cep, service } = directory(['brasilapi'], () => ({ status: 200, body: BRASILAPI }));
    expect(await cep.lookup('01310100')).toEqual({ kind: 'address', service: 'brasilapi', address: ADDRESS });
    expect(service.calls.map((c) => c.url)).toEqual(['https://brasilapi.example/ws/01310100']);
  });

  it('answers an empty street and neighbourhood for a city-wide CEP (absent in ViaCEP, null in BrasilAPI)', async () => {
    const via = directory(['viacep'], () => ({ status: 200, body: { localidade: 'São Carlos', uf: 'SP' } }));
    expect(await via.cep.lookup('13560970')).toEqual({
      kind: 'address',
      service: 'viacep',
      address: { cep: '13560970', logradouro: '', bairro: '', cidade: 'São Carlos', uf: 'SP' },
    });
    const brasil = directory(['brasilapi'], () => ({
      status: 200,
      body: { cep: '13560970', state: 'SP', city: 'São Carlos', neighborhood: null, street: null },
    }));
    expect(await brasil.cep.lookup('13560970')).toMatchObject({ address: { logradouro: '', bairro: '' } });
    const absent = directory(['brasilapi'], () => ({
      status: 200,
      body: { cep: '13560970', state: 'SP', city: 'São Carlos' },
    }));
    expect(await absent.cep.lookup('13560970')).toMatchObject({ address: { logradouro: '', bairro: '' } });
  });

  it('answers not_found for what is not 8 digits, asking nobody', async () => {
    const { cep, service } = directory(['viacep'], () => ({ status: 200, body: VIACEP }));
    expect(await cep.lookup('0131-010')).toEqual({ kind: 'not_found', uf: undefined });
    expect(await cep.lookup('013101000')).toEqual({ kind: 'not_found', uf: undefined });
    expect(service.calls).toEqual([]);
  });

  it('says a CEP ViaCEP does not know ({"erro": true} or "true") or BrasilAPI answers 404 is not found, with the table’s UF', async () => {
    for (const erro of [true, 'true']) {
      const { cep } = directory(['viacep'], () => ({ status: 200, body: { erro } }));
      expect(await cep.lookup('20040020')).toEqual({ kind: 'not_found', uf: 'RJ' });
    }
    const { cep } = directory(['brasilapi'], () => ({ status: 404 }));
    expect(await cep.lookup('20040020')).toEqual({ kind: 'not_found', uf: 'RJ' });
  });

  it('answers the table’s UF alone when the services fail (an error status, no city, a 404 of ViaCEP, a network error)', async () => {
    for (const answer of [
      { status: 500 },
      { status: 404 },
      { status: 200, body: { uf: 'RJ' } },
      { status: 200, body: { localidade: 'Rio' } },
      { status: 200, body: { erro: false, localidade: 'Rio de Janeiro' } },
      new TypeError('fetch failed'),
    ]) {
      const { cep } = directory(['viacep'], () => answer);
      expect(await cep.lookup('20040020'), JSON.stringify(answer)).toEqual({ kind: 'uf_only', uf: 'RJ' });
    }
    const erring = directory(['viacep'], () => ({ status: 500, body: VIACEP }));
    expect(await erring.cep.lookup('20040020')).toEqual({ kind: 'uf_only', uf: 'RJ' });
    const brasil = directory(['brasilapi'], () => ({ status: 503 }));
    expect(await brasil.cep.lookup('20040020')).toEqual({ kind: 'uf_only', uf: 'RJ' });
  });

  it('answers the table’s UF with no service configured', async () => {
    const { cep } = directory([], () => ({ status: 200, body: VIACEP }));
    expect(await cep.lookup('20040020')).toEqual({ kind: 'uf_only', uf: 'RJ' });
    expect(cep.state()).toEqual({ cached: 0, flights: 0, services: [] });
  });

  it('takes the first address when one service fails, and not_found when one does not know it and the other fails', async () => {
    const race = directory(['viacep', 'brasilapi'], (url) =>
      url.includes('viacep') ? { status: 500 } : { status: 200, body: BRASILAPI },
    );
    expect(await race.cep.lookup('01310100')).toMatchObject({ kind: 'address', service: 'brasilapi' });
    const mixed = directory(['viacep', 'brasilapi'], (url) =>
      url.includes('viacep') ? { status: 500 } : { status: 404 },
    );
    expect(await mixed.cep.lookup('20040020')).toEqual({ kind: 'not_found', uf: 'RJ' });
  });

  it('gives up on a service after its timeout', async () => {
    const { cep } = directory(['viacep'], () => 'hang', 20);
    expect(await cep.lookup('20040020')).toEqual({ kind: 'uf_only', uf: 'RJ' });
  });
});

describe('what the directory keeps', () => {
  it('keeps an address a day', async () => {
    const { cep, service, clock } = directory(['viacep'], () => ({ status: 200, body: VIACEP }));
    await cep.lookup('01310100');
    clock.now += CEP_LOOKUP_LIMITS.foundTtlMs - 1;
    expect(await cep.lookup('01310-100')).toMatchObject({ kind: 'address' });
    expect(service.calls).toHaveLength(1);
    clock.now += 2;
    await cep.lookup('01310100');
    expect(service.calls).toHaveLength(2);
    expect(cep.state().cached).toBe(1);
  });

  it('keeps a CEP no service knows an hour', async () => {
    const { cep, service, clock } = directory(['brasilapi'], () => ({ status: 404 }));
    await cep.lookup('20040020');
    clock.now += CEP_LOOKUP_LIMITS.notFoundTtlMs - 1;
    await cep.lookup('20040020');
    expect(service.calls).toHaveLength(1);
    clock.now += 2;
    await cep.lookup('20040020');
    expect(service.calls).toHaveLength(2);
  });

  it('keeps a failure a minute', async () => {
    const { cep, service, clock } = directory(['viacep'], () => ({ status: 500 }));
    await cep.lookup('20040020');
    clock.now += CEP_LOOKUP_LIMITS.failureTtlMs - 1;
    await cep.lookup('20040020');
    expect(service.calls).toHaveLength(1);
    clock.now += 2;
    await cep.lookup('20040020');
    expect(service.calls).toHaveLength(2);
  });

  it('joins a CEP asked again while its lookup is in flight, and forgets the flight when it lands', async () => {
    const { cep, service } = directory(['viacep'], () => 'hang');
    const asked = [cep.lookup('01310100'), cep.lookup('01310-100')];
    await new Promise((done) => setImmediate(done));
    expect(cep.state()).toEqual({ cached: 0, flights: 1, services: [{ active: 1, waiting: 0 }] });
    service.release();
    expect(await Promise.all(asked)).toEqual([
      { kind: 'address', service: 'viacep', address: ADDRESS },
      { kind: 'address', service: 'viacep', address: ADDRESS },
    ]);
    expect(service.calls).toHaveLength(1);
    expect(cep.state()).toEqual({ cached: 1, flights: 0, services: [{ active: 0, waiting: 0 }] });
  });
});

/** Turns of the event loop until `seen()` (a state the test waits for is waited for until it is there, never raced). */
async function until(seen: () => boolean): Promise<void> {
  while (!seen()) await new Promise((done) => setImmediate(done));
}

describe('the pace of the lookups', () => {
  const ceps = (n: number, from = 30_000_000) => Array.from({ length: n }, (_, i) => String(from + i));

  it(`has at most ${CEP_LOOKUP_LIMITS.inFlight} lookups in flight per service, the others waiting their turn in order`, async () => {
    const { cep, service } = directory(['viacep'], () => 'hang');
    const asked = ceps(CEP_LOOKUP_LIMITS.inFlight + 2).map((c) => cep.lookup(c));
    await new Promise((done) => setImmediate(done));
    expect(service.calls).toHaveLength(CEP_LOOKUP_LIMITS.inFlight);
    expect(cep.state().services).toEqual([{ active: CEP_LOOKUP_LIMITS.inFlight, waiting: 2 }]);
    service.release();
    await until(
      () => service.calls.length === CEP_LOOKUP_LIMITS.inFlight + 2 && cep.state().services[0]?.active === 2,
    );
    expect(service.calls.map((c) => c.url.split('/')[4])).toEqual(ceps(CEP_LOOKUP_LIMITS.inFlight + 2));
    expect(cep.state().services).toEqual([{ active: 2, waiting: 0 }]);
    service.release();
    const answers = await Promise.all(asked);
    expect(answers.every((a) => a.kind === 'address')).toBe(true);
    expect(cep.state().services).toEqual([{ active: 0, waiting: 0 }]);
  });

  it('skips a service whose queue is full at once, without caching that skip', async () => {
    const { cep, service } = directory(['viacep'], () => 'hang');
    const full = CEP_LOOKUP_LIMITS.inFlight + CEP_LOOKUP_LIMITS.waiting;
    const asked = ceps(full).map((c) => cep.lookup(c));
    const skipped = await cep.lookup('20040020');
    expect(skipped).toEqual({ kind: 'uf_only', uf: 'RJ' });
    expect(cep.state().services).toEqual([
      { active: CEP_LOOKUP_LIMITS.inFlight, waiting: CEP_LOOKUP_LIMITS.waiting },
    ]);
    let settled = false;
    const all = Promise.all(asked).then(() => {
      settled = true;
    });
    await until(() => {
      service.release();
      return settled;
    });
    await all;
    const calls = service.calls.length;
    const again = cep.lookup('20040020');
    await new Promise((done) => setImmediate(done));
    expect(service.calls).toHaveLength(calls + 1);
    service.release();
    expect(await again).toMatchObject({ kind: 'address' });
  });

  it('leaves the queue when its time runs out while waiting, and does not cache that', async () => {
    // Each lookup's deadline is the test's to end (a real 30 ms timer could end before the queue is read).
    const deadlines: AbortController[] = [];
    const deadline = () => {
      const controller = new AbortController();
      deadlines.push(controller);
      return controller.signal;
    };
    const hangs = (url: string) => (url.includes('/2004') ? 'hang' : 'deaf');
    const { cep, service } = directory(['viacep'], hangs, 30, deadline);
    const first = ceps(CEP_LOOKUP_LIMITS.inFlight).map((c) => cep.lookup(c));
    const waiting = cep.lookup('20040020');
    await new Promise((done) => setImmediate(done));
    expect(cep.state().services).toEqual([{ active: CEP_LOOKUP_LIMITS.inFlight, waiting: 1 }]);
    expect(deadlines).toHaveLength(CEP_LOOKUP_LIMITS.inFlight + 1);
    deadlines.at(-1)?.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    expect(await waiting).toEqual({ kind: 'uf_only', uf: 'RJ' });
    expect(cep.state().services[0]?.waiting).toBe(0);
    service.release();
    await Promise.all(first);
    expect(cep.state()).toMatchObject({
      cached: CEP_LOOKUP_LIMITS.inFlight,
      services: [{ active: 0, waiting: 0 }],
    });
    expect(service.calls).toHaveLength(CEP_LOOKUP_LIMITS.inFlight);
  });
});

describe('a failure beside a skip', () => {
  it('is not kept when a service was skipped by the pacing, though the other failed', async () => {
    const { cep, service } = directory(
      ['viacep', 'brasilapi'],
      (url) => (url.includes('viacep') ? { status: 500 } : 'deaf'),
      30,
    );
    const busy = Array.from({ length: CEP_LOOKUP_LIMITS.inFlight }, (_, i) =>
      cep.lookup(String(30_000_000 + i)),
    );
    expect(await cep.lookup('20040020')).toEqual({ kind: 'uf_only', uf: 'RJ' });
    service.release({ status: 404 });
    await Promise.all(busy);
    const calls = service.calls.filter((c) => c.url.includes('20040020')).length;
    const again = cep.lookup('20040020');
    await new Promise((done) => setImmediate(done));
    expect(service.calls.filter((c) => c.url.includes('20040020')).length).toBeGreaterThan(calls);
    service.release({ status: 404 });
    await again;
  });
});

describe('a city’s name as compared', () => {
  it('ignores accents, case and repeated or outer spaces, and nothing else', () => {
    expect(sameCity('São Paulo', ' sao   PAULO ')).toBe(true);
    expect(sameCity('São Paulo', 'São Paulo do Sul')).toBe(false);
    expect(sameCity('Itaú', 'Itau')).toBe(true);
    expect(sameCity('Sao\tPaulo', 'sao paulo')).toBe(true);
    expect(sameCity('Sao Paulo', 'Saopaulo')).toBe(false);
  });
});
