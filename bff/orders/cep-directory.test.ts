import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../sandbox/testing.ts';
import { CEP_LOOKUP_LIMITS, CepDirectory } from './cep-directory.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.control('viacep', { mode: 'normal' });
});

const directory = (timeoutMs = 500) =>
  new CepDirectory({ services: [{ kind: 'viacep', baseUrl: `${sandbox.url}/viacep/ws` }], timeoutMs });

describe('the address of a CEP', () => {
  it('answers the service’s address, and asks it once per CEP (cache)', async () => {
    const cep = directory();
    const calls = sandbox.state.cep.calls;
    expect(await cep.lookup('01310-100')).toEqual({
      kind: 'address',
      service: 'viacep',
      address: {
        cep: '01310100',
        logradouro: 'Avenida Paulista',
        bairro: 'Bela Vista',
        cidade: 'São Paulo',
        uf: 'SP',
      },
    });
    await cep.lookup('01310100');
    expect(sandbox.state.cep.calls - calls).toBe(1);
  });

  it('says a CEP no service knows is not found, with the state of its range', async () => {
    expect(await directory().lookup('01999-999')).toEqual({ kind: 'not_found', uf: 'SP' });
  });

  it('falls back to the CEP→UF table when the service is down, and keeps the failure only a minute', async () => {
    await sandbox.control('viacep', { mode: 'down' });
    let clock = 1_000_000;
    const cep = new CepDirectory({
      services: [{ kind: 'viacep', baseUrl: `${sandbox.url}/viacep/ws` }],
      timeoutMs: 500,
      now: () => clock,
    });
    expect(await cep.lookup('20040-020')).toEqual({ kind: 'uf_only', uf: 'RJ' });
    await sandbox.control('viacep', { mode: 'normal' });
    // Issue 48, finding 11: a failure is kept briefly, so a retry storm does not ask the public service again at once.
    expect((await cep.lookup('20040-020')).kind).toBe('uf_only');
    clock += CEP_LOOKUP_LIMITS.failureTtlMs + 1;
    expect((await cep.lookup('20040-020')).kind).toBe('address');
  });

  it('falls back within its timeout when the service is slow', async () => {
    // The service answers after 20 s: only the 150 ms timeout gives the table's answer, so the answer is the proof
    // (a 1 s stopwatch on it raced a busy machine).
    await sandbox.control('viacep', { mode: 'slow', latencyMs: 20_000 });
    expect(await directory(150).lookup('30130-010')).toEqual({ kind: 'uf_only', uf: 'MG' });
  });

  it('takes the first address when one of several services is down (the race)', async () => {
    const cep = new CepDirectory({
      services: [
        { kind: 'brasilapi', baseUrl: 'http://127.0.0.1:9/api/cep/v1' },
        { kind: 'viacep', baseUrl: `${sandbox.url}/viacep/ws` },
      ],
      timeoutMs: 500,
    });
    expect((await cep.lookup('80010-010')).kind).toBe('address');
  });
});
