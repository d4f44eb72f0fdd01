import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CEP_LOOKUP_LIMITS, CepDirectory } from './cep-directory.ts';
import { type OrderStack, startOrderStack } from './testing.ts';

// Issue 48, finding 11 (reproduced red first): a CSV preview fired one CEP lookup per new CEP at the public services
// at once (5,000 in 4 s).

/**
 * A scripted ViaCEP: counts the lookups in flight, holds each one a moment (a slow public service), and answers
 * `{"erro": true}` (a CEP it does not know) or, while `failing`, 500.
 */
class ScriptedCepService {
  inFlight = 0;
  maxInFlight = 0;
  calls = 0;
  failing = false;
  private readonly server: Server;

  constructor() {
    this.server = createServer((_req, res) => {
      this.calls += 1;
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      setTimeout(() => {
        this.inFlight -= 1;
        res.writeHead(this.failing ? 500 : 200, { 'content-type': 'application/json' });
        res.end(this.failing ? '{}' : '{"erro": true}');
      }, 3);
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/ws`;
  }

  reset(): void {
    Object.assign(this, { inFlight: 0, maxInFlight: 0, calls: 0, failing: false });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const service = new ScriptedCepService();
let url: string;
beforeAll(async () => {
  url = await service.start();
});
afterAll(() => service.close());
beforeEach(() => service.reset());

const HEADER =
  'orderId,nome,cep,logradouro,numero,bairro,cidade,uf,item,quantidade,pesoGramas,valor,serviceId';
/** `count` orders, each to a CEP of São Paulo state never asked before (`from` sets them apart). */
const csvOf = (from: number, count: number) =>
  [
    HEADER,
    ...Array.from(
      { length: count },
      (_, i) =>
        `PACE-${from + i},Rita Moura,${String(1_000_000 + from + i).padStart(8, '0')},Rua A,1,Centro,São Paulo,SP,Livro,1,500,"9,90",correios-pac`,
    ),
  ].join('\n');

describe('CEP lookups of a CSV preview', () => {
  let stack: OrderStack;
  beforeAll(async () => {
    stack = await startOrderStack(
      { BFF_CEP_SERVICES: `viacep:${url}`, BFF_CEP_TIMEOUT_MS: '10000' },
      {
        orders: { timers: false },
      },
    );
  }, 30_000);
  afterAll(() => stack?.close());

  it('never has more than the limit in flight for 5,000 new CEPs, twenty previews at once, and asks each CEP once', async () => {
    // On main: one lookup in flight per preview, 20 at once against the service.
    const previews = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.desk.post('/admin/api/orders/import?preview=1', csvOf(i * 250, 250), {
          'content-type': 'text/csv',
        }),
      ),
    );
    for (const res of previews) expect(res.status).toBe(200);
    expect(service.maxInFlight).toBeGreaterThan(0);
    expect(service.maxInFlight).toBeLessThanOrEqual(CEP_LOOKUP_LIMITS.inFlight);
    expect(service.calls).toBe(5000);
    // The same file again: every CEP answered from the cache.
    const again = await stack.desk.post('/admin/api/orders/import?preview=1', csvOf(0, 250), {
      'content-type': 'text/csv',
    });
    expect(again.status).toBe(200);
    expect(service.calls).toBe(5000);
  }, 120_000);
});

describe('the CEP directory', () => {
  it('joins a CEP asked again while in flight, and keeps a failure a minute, not longer', async () => {
    let clock = 1_000_000;
    const cep = new CepDirectory({
      services: [{ kind: 'viacep', baseUrl: url }],
      timeoutMs: 5000,
      now: () => clock,
    });
    await Promise.all(Array.from({ length: 20 }, () => cep.lookup('01310-100')));
    expect(service.calls).toBe(1);
    service.failing = true;
    expect(await cep.lookup('20040-020')).toEqual({ kind: 'uf_only', uf: 'RJ' });
    expect(await cep.lookup('20040-020')).toEqual({ kind: 'uf_only', uf: 'RJ' });
    expect(service.calls).toBe(2);
    clock += CEP_LOOKUP_LIMITS.failureTtlMs + 1;
    await cep.lookup('20040-020');
    expect(service.calls).toBe(3);
    expect(cep.state()).toMatchObject({ flights: 0, services: [{ active: 0, waiting: 0 }] });
  });

  it('skips a service whose queue is full at once, without caching that skip', async () => {
    const cep = new CepDirectory({ services: [{ kind: 'viacep', baseUrl: url }], timeoutMs: 5000 });
    const total = CEP_LOOKUP_LIMITS.inFlight + CEP_LOOKUP_LIMITS.waiting + 30;
    const answers = await Promise.all(
      Array.from({ length: total }, (_, i) => cep.lookup(String(30_000_000 + i))),
    );
    expect(service.maxInFlight).toBeLessThanOrEqual(CEP_LOOKUP_LIMITS.inFlight);
    expect(service.calls).toBe(CEP_LOOKUP_LIMITS.inFlight + CEP_LOOKUP_LIMITS.waiting);
    expect(answers.filter((a) => a.kind === 'uf_only')).toHaveLength(30);
    // Skipped by our own pacing, not failed: asked when there is room again.
    await cep.lookup(String(30_000_000 + total - 1));
    expect(service.calls).toBe(CEP_LOOKUP_LIMITS.inFlight + CEP_LOOKUP_LIMITS.waiting + 1);
  });
});
