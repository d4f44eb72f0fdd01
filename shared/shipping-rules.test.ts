import { describe, expect, it } from 'vitest';
import { MAX_RULES, parseRules, rulesProblemText } from './shipping-rules.ts';

const refusal = (body: unknown) => {
  const parsed = parseRules(body);
  if (!('problem' in parsed)) throw new Error('accepted');
  return parsed.problem;
};

describe('parseRules', () => {
  it('accepts every effect of the contract, in order, and an empty list', () => {
    const rules = [
      {
        id: 'sudeste-gratis',
        when: { ufs: ['SP', 'RJ'], minSubtotalBRL: 150, services: ['correios-pac'] },
        then: { free: true },
      },
      { id: 'fixo', when: { cepRanges: [['01000-000', '01999-999']] }, then: { priceBRL: 9.9 } },
      { id: 'embalagem', then: { markupPercent: 10, markupBRL: 3 } },
      { id: 'desconto', when: { maxWeightKg: 2 }, then: { markupPercent: -15 } },
      { id: 'manuseio', then: { extraDays: 2 } },
      { id: 'sem-sedex-norte', when: { ufs: ['AM'], skus: ['SKU-1'] }, then: { hide: true } },
      { id: 'nome', then: { label: 'Entrega econômica' } },
    ];
    // CEP ranges are kept as their 8 digits, as the evaluator compares them
    const stored = rules.map((rule) =>
      rule.when?.cepRanges ? { ...rule, when: { cepRanges: [['01000000', '01999999']] } } : rule,
    );
    expect(parseRules({ rules })).toEqual({ rules: stored });
    expect(parseRules({ rules: [] })).toEqual({ rules: [] });
  });

  it('names the rule by its id and the field when an effect is out of bounds', () => {
    const problem = refusal({
      rules: [
        { id: 'ok', then: { free: true } },
        { id: 'typo', then: { markupPercent: 5000 } },
      ],
    });
    expect(problem).toMatchObject({ rule: '"typo"', field: 'then.markupPercent' });
    expect(rulesProblemText(problem)).toContain('rule "typo": then.markupPercent');
  });

  it('names the rule by its place when its id is missing, and the nested field', () => {
    expect(refusal({ rules: [{ then: { free: true } }] })).toMatchObject({ rule: '#1', field: 'id' });
    expect(
      refusal({
        rules: [
          { id: 'a', then: { hide: true } },
          { id: 'b', when: { cepRanges: [['0100', '02000000']] }, then: { hide: true } },
        ],
      }),
    ).toMatchObject({ rule: '"b"', field: 'when.cepRanges.0.0' });
    expect(refusal({ rules: [{ id: 'x', when: { ufs: ['XX'] }, then: { hide: true } }] })).toMatchObject({
      rule: '"x"',
      field: 'when.ufs.0',
    });
  });

  it('refuses two effects in one rule, an empty markup, a backwards range and a repeated id', () => {
    expect(refusal({ rules: [{ id: 'two', then: { free: true, priceBRL: 3 } }] })).toMatchObject({
      field: 'then',
    });
    expect(refusal({ rules: [{ id: 'empty', then: {} }] })).toMatchObject({ rule: '"empty"', field: 'then' });
    expect(refusal({ rules: [{ id: 'zero', then: { markupPercent: 0 } }] })).toMatchObject({ field: 'then' });
    expect(
      refusal({
        rules: [{ id: 'back', when: { cepRanges: [['09000-000', '01000-000']] }, then: { hide: true } }],
      }),
    ).toMatchObject({ rule: '"back"', field: 'when.cepRanges.0' });
    expect(
      refusal({
        rules: [
          { id: 'a', then: { hide: true } },
          { id: 'a', then: { free: true } },
        ],
      }),
    ).toMatchObject({ rule: '"a"', field: 'id' });
  });

  it('refuses hostile documents without throwing: no list, prototypes, extra keys, too many rules', () => {
    expect(refusal(null)).toMatchObject({ field: 'rules' });
    expect(refusal({ rules: 'all free' })).toMatchObject({ field: 'rules' });
    expect(refusal({ rules: [], version: 9 })).toMatchObject({ message: expect.any(String) });
    expect(refusal({ rules: [{ id: '__proto__', then: { free: true }, extra: 1 }] })).toMatchObject({
      rule: '"__proto__"',
    });
    expect(refusal({ rules: [{ id: 'a b', then: { free: true } }] })).toMatchObject({ field: 'id' });
    expect(refusal({ rules: [{ id: 'n', then: { extraDays: 1.5 } }] })).toMatchObject({
      field: 'then.extraDays',
    });
    expect(refusal({ rules: [{ id: 'p', then: { priceBRL: -1 } }] })).toMatchObject({
      field: 'then.priceBRL',
    });
    const many = Array.from({ length: MAX_RULES + 1 }, (_, i) => ({ id: `r${i}`, then: { hide: true } }));
    expect(refusal({ rules: many })).toMatchObject({ field: 'rules' });
  });
});
