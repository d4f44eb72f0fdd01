import { setTimeout as sleep } from 'node:timers/promises';
import { json, type Router } from 'express';
import * as z from 'zod/mini';
import { ApiError } from '../../shared/errors.ts';
import { parseInput } from '../../shared/issues.ts';
import { isLoopbackAddress } from '../../shared/security/loopback.ts';
import { strictRouter } from '../http/router.ts';

/**
 * One public CEP service, emulated (sandbox/README.md, "CEP service"): ViaCEP's `GET /viacep/ws/<cep>/json/`, in its
 * answer's shape, for the addresses below — so the BFF's address-by-CEP runs and is tested with no network. These
 * are fixtures in ViaCEP's shape (streets of each capital, and one city-wide CEP without street or neighbourhood),
 * not a copy of any CEP base. Any other 8-digit CEP answers `{"erro": "true"}`, as ViaCEP does for a CEP it does not
 * know; a malformed one, 400.
 */
export const CEP_FIXTURES: Record<
  string,
  { logradouro: string; bairro: string; localidade: string; uf: string }
> = {
  '01310100': { logradouro: 'Avenida Paulista', bairro: 'Bela Vista', localidade: 'São Paulo', uf: 'SP' },
  '01310200': { logradouro: 'Avenida Paulista', bairro: 'Bela Vista', localidade: 'São Paulo', uf: 'SP' },
  '04538132': {
    logradouro: 'Avenida Brigadeiro Faria Lima',
    bairro: 'Itaim Bibi',
    localidade: 'São Paulo',
    uf: 'SP',
  },
  '05422030': { logradouro: 'Rua dos Pinheiros', bairro: 'Pinheiros', localidade: 'São Paulo', uf: 'SP' },
  '13015904': { logradouro: 'Rua Barão de Jaguara', bairro: 'Centro', localidade: 'Campinas', uf: 'SP' },
  '20040020': { logradouro: 'Rua da Assembleia', bairro: 'Centro', localidade: 'Rio de Janeiro', uf: 'RJ' },
  '22041001': {
    logradouro: 'Avenida Atlântica',
    bairro: 'Copacabana',
    localidade: 'Rio de Janeiro',
    uf: 'RJ',
  },
  '30130010': {
    logradouro: 'Praça Sete de Setembro',
    bairro: 'Centro',
    localidade: 'Belo Horizonte',
    uf: 'MG',
  },
  '40020000': { logradouro: 'Avenida Sete de Setembro', bairro: 'Centro', localidade: 'Salvador', uf: 'BA' },
  '50030230': { logradouro: 'Rua do Bom Jesus', bairro: 'Recife', localidade: 'Recife', uf: 'PE' },
  '60060170': { logradouro: 'Rua Barão do Rio Branco', bairro: 'Centro', localidade: 'Fortaleza', uf: 'CE' },
  '70040010': {
    logradouro: 'Setor Bancário Sul Quadra 1',
    bairro: 'Asa Sul',
    localidade: 'Brasília',
    uf: 'DF',
  },
  '80010010': { logradouro: 'Rua XV de Novembro', bairro: 'Centro', localidade: 'Curitiba', uf: 'PR' },
  '88010400': { logradouro: 'Rua Felipe Schmidt', bairro: 'Centro', localidade: 'Florianópolis', uf: 'SC' },
  '90010150': {
    logradouro: 'Rua dos Andradas',
    bairro: 'Centro Histórico',
    localidade: 'Porto Alegre',
    uf: 'RS',
  },
  '69900000': { logradouro: '', bairro: '', localidade: 'Rio Branco', uf: 'AC' },
};

/** How the emulated service behaves until the next reset: answering, down (503), or slow. */
const ModeSchema = z.strictObject({
  mode: z.enum(['normal', 'down', 'slow']),
  latencyMs: z.optional(z.int().check(z.gte(1), z.lte(30_000))),
});

export class CepService {
  mode: z.infer<typeof ModeSchema> = { mode: 'normal' };
  /** Lookups answered since the last reset (tests count them: the BFF's cache asks once). */
  calls = 0;

  reset(): void {
    this.mode = { mode: 'normal' };
    this.calls = 0;
  }
}

export function cepRoutes(service: CepService): Router {
  const router = strictRouter();
  router.get('/viacep/ws/:cep/json/', async (req, res) => {
    service.calls += 1;
    if (service.mode.mode === 'down') return void res.status(503).type('text/html').send('<h1>503</h1>');
    if (service.mode.mode === 'slow') await sleep(service.mode.latencyMs ?? 5_000);
    const cep = String(req.params.cep);
    if (!/^\d{8}$/.test(cep)) return void res.status(400).type('text/html').send('<h1>Erro 400</h1>');
    const known = CEP_FIXTURES[cep];
    if (!known) return void res.json({ erro: 'true' });
    res.json({
      cep: `${cep.slice(0, 5)}-${cep.slice(5)}`,
      logradouro: known.logradouro,
      complemento: '',
      unidade: '',
      bairro: known.bairro,
      localidade: known.localidade,
      uf: known.uf,
      ibge: '',
      gia: '',
      ddd: '',
      siafi: '',
    });
  });
  // Loopback only, like the rest of /_sandbox: how the service behaves until the next reset.
  router.post('/_sandbox/viacep', json({ type: () => true }), (req, res) => {
    if (!isLoopbackAddress(req.socket.remoteAddress)) throw new ApiError('not_found');
    service.mode = parseInput(ModeSchema, req.body);
    res.json({ ...service.mode, calls: service.calls });
  });
  router.get('/_sandbox/viacep', (req, res) => {
    if (!isLoopbackAddress(req.socket.remoteAddress)) throw new ApiError('not_found');
    res.json({ ...service.mode, calls: service.calls });
  });
  return router;
}
