import { setTimeout as sleep } from 'node:timers/promises';
import { json, type Router } from 'express';
import * as z from 'zod/mini';
import { parseInput } from '../../shared/issues.ts';
import { loopbackOnly } from '../http/loopback-only.ts';
import { strictRouter } from '../http/router.ts';

/**
 * One public CEP service, emulated (sandbox/README.md, "CEP service"): ViaCEP's `GET /viacep/ws/<cep>/json/`, in its
 * answer's shape, for the addresses below — so the BFF's address-by-CEP runs and is tested with no network. These
 * are fixtures in ViaCEP's shape (streets of each capital, and one city-wide CEP without street or neighbourhood),
 * not a copy of any CEP base. Any other 8-digit CEP answers `{"erro": "true"}`, as ViaCEP does for a CEP it does not
 * know; a malformed one, 400. Each row: street (logradouro), neighbourhood (bairro), city (localidade), state (uf).
 */
const CEP_FIXTURES: Record<string, readonly [string, string, string, string]> = {
  '01310100': ['Avenida Paulista', 'Bela Vista', 'São Paulo', 'SP'],
  '01310200': ['Avenida Paulista', 'Bela Vista', 'São Paulo', 'SP'],
  '04538132': ['Avenida Brigadeiro Faria Lima', 'Itaim Bibi', 'São Paulo', 'SP'],
  '05422030': ['Rua dos Pinheiros', 'Pinheiros', 'São Paulo', 'SP'],
  '13015904': ['Rua Barão de Jaguara', 'Centro', 'Campinas', 'SP'],
  '20040020': ['Rua da Assembleia', 'Centro', 'Rio de Janeiro', 'RJ'],
  '22041001': ['Avenida Atlântica', 'Copacabana', 'Rio de Janeiro', 'RJ'],
  '30130010': ['Praça Sete de Setembro', 'Centro', 'Belo Horizonte', 'MG'],
  '40020000': ['Avenida Sete de Setembro', 'Centro', 'Salvador', 'BA'],
  '50030230': ['Rua do Bom Jesus', 'Recife', 'Recife', 'PE'],
  '60060170': ['Rua Barão do Rio Branco', 'Centro', 'Fortaleza', 'CE'],
  '70040010': ['Setor Bancário Sul Quadra 1', 'Asa Sul', 'Brasília', 'DF'],
  '80010010': ['Rua XV de Novembro', 'Centro', 'Curitiba', 'PR'],
  '88010400': ['Rua Felipe Schmidt', 'Centro', 'Florianópolis', 'SC'],
  '90010150': ['Rua dos Andradas', 'Centro Histórico', 'Porto Alegre', 'RS'],
  '69900000': ['', '', 'Rio Branco', 'AC'],
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
    const [logradouro, bairro, localidade, uf] = known;
    res.json({
      cep: `${cep.slice(0, 5)}-${cep.slice(5)}`,
      logradouro,
      complemento: '',
      unidade: '',
      bairro,
      localidade,
      uf,
      ibge: '',
      gia: '',
      ddd: '',
      siafi: '',
    });
  });
  // Loopback only, like the rest of /_sandbox: how the service behaves until the next reset.
  router.post('/_sandbox/viacep', json({ type: () => true }), loopbackOnly, (req, res) => {
    service.mode = parseInput(ModeSchema, req.body);
    res.json({ ...service.mode, calls: service.calls });
  });
  router.get('/_sandbox/viacep', loopbackOnly, (_req, res) => {
    res.json({ ...service.mode, calls: service.calls });
  });
  return router;
}
