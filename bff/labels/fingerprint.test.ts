import { describe, expect, it } from 'vitest';
import { canonical, canonicalRequest, fingerprint } from './fingerprint.ts';

// The request's identity decides whether an answer lost on the way belongs to this order: it must not depend on how
// the request was written down, and must change with any character of what is sent.
describe('canonical', () => {
  it('writes objects with sorted keys, at every depth, and leaves arrays in their order', () => {
    expect(canonical({ b: 1, a: { d: [3, 1], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,1]},"b":1}');
    expect(canonical({ z: 1, a: 2, m: 3 })).toBe(canonical({ m: 3, z: 1, a: 2 }));
    expect(canonical([{ b: 2, a: 1 }, 'x', null, 5])).toBe('[{"a":1,"b":2},"x",null,5]');
  });

  it('leaves out undefined fields (an optional field not given reads like one omitted), keeps null and false', () => {
    expect(canonical({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(canonical({ a: null, b: false, c: 0, d: '' })).toBe('{"a":null,"b":false,"c":0,"d":""}');
    expect(canonical({})).toBe('{}');
    expect(canonical([])).toBe('[]');
  });

  it('quotes keys and strings as JSON does, so no value can pass for structure', () => {
    expect(canonical({ 'a"b': 'c,d:e}' })).toBe('{"a\\"b":"c,d:e}"}');
    expect(canonical('x')).toBe('"x"');
    expect(canonical(12.5)).toBe('12.5');
  });
});

describe('fingerprint', () => {
  const order = {
    serviceCode: '03298',
    sender: { nome: 'Loja', cep: '01310100' },
    recipient: { nome: 'Maria Silva', cep: '20040020', numero: '12' },
    items: [{ descricao: 'Camiseta', quantidade: 1 }],
  };
  const asInput = (value: unknown) => value as Parameters<typeof fingerprint>[0];

  it('is the same for the same request written in another key order, and ignores instanceId', () => {
    const reordered = {
      items: order.items,
      recipient: { numero: '12', cep: '20040020', nome: 'Maria Silva' },
      serviceCode: '03298',
      sender: { cep: '01310100', nome: 'Loja' },
      instanceId: 'another-store-id',
    };
    expect(fingerprint(asInput(reordered))).toBe(fingerprint(asInput(order)));
    expect(canonicalRequest(asInput({ ...order, instanceId: 'x' }))).not.toContain('instanceId');
    expect(fingerprint(asInput(order))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with one character of the recipient, and with the order of the items', () => {
    const other = { ...order, recipient: { ...order.recipient, numero: '13' } };
    expect(fingerprint(asInput(other))).not.toBe(fingerprint(asInput(order)));
    const twoItems = { ...order, items: [{ a: 1 }, { a: 2 }] };
    const swapped = { ...order, items: [{ a: 2 }, { a: 1 }] };
    expect(fingerprint(asInput(twoItems))).not.toBe(fingerprint(asInput(swapped)));
  });
});
