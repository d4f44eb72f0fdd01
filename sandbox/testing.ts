import type { AddressInfo } from 'node:net';
import { createHttpServer, type ServerLimits } from '../shared/http-server.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from './app.ts';

export interface RunningSandbox extends Sandbox {
  url: string;
  /** Connections its server holds open from this address now (the per-address cap's count). */
  connectionsFrom(address: string): number;
  /** Connections from this address its server closed on arrival (the per-address cap), in all. */
  refusedFrom(address: string): number;
  /** Connections from this address its server let in, in all. */
  acceptedFrom(address: string): number;
  close(): Promise<void>;
  /** POST JSON to a path with a Bearer key (or none). */
  post(path: string, body: unknown, key?: string, headers?: Record<string, string>): Promise<Response>;
  control(path: string, body?: unknown, method?: string): Promise<Response>;
}

/** Starts a real sandbox on 127.0.0.1, port 0, for tests and benchmarks. */
export async function startSandbox(
  options: SandboxOptions = {},
  /** Overrides of the server's timeouts and connection cap (`SERVER_LIMITS`), to keep a test short. */
  limits?: Partial<ServerLimits>,
): Promise<RunningSandbox> {
  // Listen first, so the sandbox knows its own URL (the OAuth issuer) unless the test gives one; with the same
  // timeouts and connection cap as `npm run sandbox`.
  const server = createHttpServer(limits ? { limits } : {});
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sandbox = createSandbox({ publicUrl: url, ...options });
  server.on('request', sandbox.app);
  return {
    ...sandbox,
    url,
    connectionsFrom: (address) => server.connectionsOf(address),
    refusedFrom: (address) => server.refusedOf(address),
    acceptedFrom: (address) => server.acceptedOf(address),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    post: (path, body, key, headers = {}) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    control: (path, body, method = 'POST') =>
      fetch(`${url}/_sandbox/${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      }),
  };
}

/** A sender or recipient at a CEP, for label tests. */
export const samplePartyAt = (cep: string, uf: string, cidade: string) => ({
  nome: 'Maria Silva',
  endereco: { cep, logradouro: 'Rua A', numero: '10', bairro: 'Centro', cidade, uf },
});

/** A `generate_label` input the sandbox accepts for loja-demo (PAC, São Paulo → Rio de Janeiro). */
export const SAMPLE_LABEL = {
  serviceCode: '03298',
  weightGrams: 800,
  dimensions: { comprimento: 20, largura: 15, altura: 10 },
  sender: samplePartyAt('01310-100', 'SP', 'São Paulo'),
  recipient: samplePartyAt('20040-020', 'RJ', 'Rio de Janeiro'),
  declaredItems: [{ conteudo: 'Camiseta', quantidade: 2, valor: 79.9 }],
};
