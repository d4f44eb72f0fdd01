import { describe, expect, it } from 'vitest';
import { AgentLabelInputSchema } from '../../../shared/labels/agent-label.ts';
import { LOCALES } from '../../../shared/locale.ts';
import type { PlannedVolume } from '../../../shared/packing/plan.ts';
import { AgentPolicySchema } from '../../policies/policies.ts';
import { MESSAGES } from '../messages.ts';
import {
  declaredValue,
  labelRequests,
  type OrderLine,
  partyFrom,
  planRequest,
  policyOf,
  resultOf,
} from './order.ts';

const pt = MESSAGES['pt-BR'];
const LINES: OrderLine[] = [
  { id: 'bota', comprimento: 30, largura: 20, altura: 15, weightGrams: 1200, quantity: 2, valor: 79.9 },
  { id: 'meia', comprimento: 10, largura: 8, altura: 3, weightGrams: 50, quantity: 3, valor: 0.1 },
];
const VOLUMES: PlannedVolume[] = [
  {
    box: 'M',
    items: [
      { id: 'bota', quantity: 1 },
      { id: 'meia', quantity: 3 },
    ],
    weightGrams: 1530,
    dimensions: { comprimento: 30, largura: 20, altura: 15 },
  },
  {
    box: 'M',
    items: [{ id: 'bota', quantity: 1 }],
    weightGrams: 1380,
    dimensions: { comprimento: 30, largura: 20, altura: 15, extra: 1 },
  },
];
const form: Record<string, string> = {
  'recipient.nome': ' Joana Pereira ',
  'recipient.cpfCnpj': '',
  'recipient.telefone': '21999990000',
  'recipient.email': '   ',
  'recipient.endereco.cep': '20040-020',
  'recipient.endereco.logradouro': 'Rua da Assembleia',
  'recipient.endereco.numero': '100',
  'recipient.endereco.complemento': '',
  'recipient.endereco.bairro': 'Centro',
  'recipient.endereco.cidade': 'Rio de Janeiro',
  'recipient.endereco.uf': 'rj',
  'sender.nome': 'Loja',
  'sender.endereco.cep': '01310-100',
  'sender.endereco.logradouro': 'Avenida Paulista',
  'sender.endereco.numero': '1578',
  'sender.endereco.complemento': 'sala 2',
  'sender.endereco.bairro': 'Bela Vista',
  'sender.endereco.cidade': 'São Paulo',
  'sender.endereco.uf': 'SP',
};
const value = (name: string) => form[name] ?? '';

describe('the issue form’s requests', () => {
  it('plans the lines without their value, and declares Σ quantity × value in whole centavos', () => {
    expect(planRequest(LINES).items[1]).toEqual({
      id: 'meia',
      comprimento: 10,
      largura: 8,
      altura: 3,
      weightGrams: 50,
      quantity: 3,
    });
    // 2 × 79.90 + 3 × 0.10, not 160.10000000000002
    expect(declaredValue(LINES)).toBe(160.1);
  });

  it('makes one label per volume (order, volume 1…n), each declaring what its own box holds, every one valid for the BFF', () => {
    const requests = labelRequests(
      {
        orderId: 'PED-7',
        serviceId: 'correios-pac',
        sender: partyFrom(value, 'sender'),
        recipient: partyFrom(value, 'recipient'),
        lines: LINES,
      },
      VOLUMES,
    );
    expect(requests.map((r) => [r.orderId, r.volume, r.weightGrams])).toEqual([
      ['PED-7', 1, 1530],
      ['PED-7', 2, 1380],
    ]);
    expect(requests[0]?.declaredItems).toEqual([
      { conteudo: 'bota', quantidade: 1, valor: 79.9 },
      { conteudo: 'meia', quantidade: 3, valor: 0.1 },
    ]);
    expect(requests[1]?.dimensions).toEqual({ comprimento: 30, largura: 20, altura: 15 });
    for (const request of requests) expect(AgentLabelInputSchema.safeParse(request).success).toBe(true);
  });

  it('leaves blank optional party fields out and writes the UF in capitals', () => {
    expect(partyFrom(value, 'recipient')).toEqual({
      nome: 'Joana Pereira',
      telefone: '21999990000',
      endereco: {
        cep: '20040-020',
        logradouro: 'Rua da Assembleia',
        numero: '100',
        bairro: 'Centro',
        cidade: 'Rio de Janeiro',
        uf: 'RJ',
      },
    });
    expect(partyFrom(value, 'sender').endereco.complemento).toBe('sala 2');
  });
});

describe('a label answer in the results', () => {
  it('tells created, told-again, refused (with its field), unknown, not sent, waiting and carrier-refused apart', () => {
    const created = resultOf(pt, 1, 2, 201, {
      prepostagemId: 'PP123456',
      trackingCode: 'QB1BR',
      attemptId: 'a1',
    });
    expect(created).toEqual({
      kind: 'created',
      text: 'Volume 1 de 2: criada — pré-postagem PP123456, rastreio QB1BR.',
      attemptId: 'a1',
    });
    expect(resultOf(pt, 1, 2, 200, { prepostagemId: 'PP123456', attemptId: 'a1' }).kind).toBe('replayed');
    expect(
      resultOf(pt, 2, 2, 422, {
        reason: 'implausible_weight',
        status: '0.8 g is not a weight',
        field: 'weightGrams',
      }),
    ).toEqual({
      kind: 'refused',
      text: 'Volume 2 de 2: recusada — peso implausível.',
      detail: '0.8 g is not a weight',
      field: 'weightGrams',
    });
    expect(
      resultOf(pt, 1, 1, 200, { reason: 'outcome_unknown', status: 'lost', attemptId: 'u1' }),
    ).toMatchObject({
      kind: 'unknown',
      attemptId: 'u1',
    });
    expect(resultOf(pt, 1, 1, 200, { reason: 'not_sent', status: 'x', attemptId: 'n1' }).kind).toBe(
      'not_sent',
    );
    expect(resultOf(pt, 1, 1, 200, { reason: 'approval_pending', approvalId: 'p1' }).kind).toBe('approval');
    expect(
      resultOf(pt, 1, 1, 200, { reason: 'prepostagem_rejected', status: 'CEP inexistente' }),
    ).toMatchObject({
      kind: 'rejected',
      detail: 'CEP inexistente',
    });
  });

  it('names the field of a 400 from its path, and reads an answer it cannot parse as a failure', () => {
    expect(
      resultOf(pt, 1, 1, 400, {
        error: { code: 'invalid_body', message: 'recipient.endereco.cep: Invalid input' },
      }),
    ).toMatchObject({
      kind: 'refused',
      field: 'recipient.endereco.cep',
      text: 'Volume 1 de 1: recusada — dados inválidos.',
    });
    expect(resultOf(pt, 1, 1, 502, 'Bad gateway').kind).toBe('refused');
  });
});

describe('the policy form', () => {
  it('is no policy when every field is empty, and otherwise one the BFF accepts', () => {
    const empty = {
      maxLabelsPerDay: '',
      maxDeclaredValuePerDay: ' ',
      services: [],
      approval: 'never',
      approvalAmount: '',
    };
    expect(policyOf(empty)).toBeNull();
    const policy = policyOf({
      maxLabelsPerDay: '20',
      maxDeclaredValuePerDay: '1500.5',
      services: [' correios-pac', '', 'correios-sedex '],
      approval: 'above',
      approvalAmount: '300',
    });
    expect(policy).toEqual({
      maxLabelsPerDay: 20,
      maxDeclaredValuePerDay: 1500.5,
      services: ['correios-pac', 'correios-sedex'],
      approval: 300,
    });
    expect(AgentPolicySchema.safeParse(policy).success).toBe(true);
    expect(policyOf({ ...empty, approval: 'always' })).toEqual({ approval: 'always' });
    expect(policyOf({ ...empty, issue: 'app' })).toEqual({ issue: 'app' });
    expect(policyOf({ ...empty, decidesApprovals: 'yes' })).toEqual({ decidesApprovals: true });
    expect(policyOf({ ...empty, decidesApprovals: '' })).toBeNull();
    expect(AgentPolicySchema.safeParse(policyOf({ ...empty, issue: 'app' })).success).toBe(true);
  });
});

describe('the desk’s words', () => {
  it('has every word in every language, none left empty, the same reasons and states in each', () => {
    const shape = (messages: object) =>
      Object.entries(messages).map(([key, word]) =>
        typeof word === 'object' ? [key, Object.keys(word as object).sort()] : [key, typeof word],
      );
    for (const lang of LOCALES) {
      const t = MESSAGES[lang];
      expect(shape(t)).toEqual(shape(pt));
      for (const [key, word] of Object.entries(t)) {
        if (typeof word === 'string') expect([lang, key, word.trim().length > 0]).toEqual([lang, key, true]);
        if (typeof word === 'function') {
          expect(String((word as (...args: unknown[]) => unknown)(1, 2, 'x', 'y')).length).toBeGreaterThan(0);
        }
      }
    }
  });
});
