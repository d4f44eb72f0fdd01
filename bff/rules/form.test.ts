import { describe, expect, it } from 'vitest';
import type { Rule } from '../../shared/shipping-rules.ts';
import { blankRow, NEW_ROWS, type RuleRow, rowsOf, rowsOfForm, rulesOfForm } from './form.ts';

/** The desk's rules form as the merchant types it, read into rules and written back, without a server. */
const row = (change: Partial<RuleRow> = {}): RuleRow => ({ ...blankRow(1), ...change });

describe('rowsOfForm: the posted fields <name>-<row>', () => {
  it('reads each row’s fields, the id trimmed, "on" as remove, an unknown effect as free', () => {
    const rows = rowsOfForm({
      rows: '2',
      'position-0': '2',
      'id-0': '  frete-sp  ',
      'ufs-0': 'sp, rj',
      'ceps-0': '01000-000 a 09999-999',
      'minSubtotal-0': '150,90',
      'maxWeight-0': '5',
      'services-0': 'correios-pac',
      'skus-0': 'CAM-1',
      'effect-0': 'markup',
      'value-0': '10%',
      'remove-0': 'on',
      'id-1': 'outra',
      'effect-1': 'teleport',
      'remove-1': 'yes',
    });
    expect(rows).toEqual([
      {
        position: '2',
        id: 'frete-sp',
        ufs: 'sp, rj',
        ceps: '01000-000 a 09999-999',
        minSubtotal: '150,90',
        maxWeight: '5',
        services: 'correios-pac',
        skus: 'CAM-1',
        effect: 'markup',
        value: '10%',
        remove: true,
      },
      { ...blankRow(1), position: '', id: 'outra', effect: 'free', remove: false },
    ]);
  });

  it('reads a field that is not text (repeated, so an array) as empty', () => {
    expect(rowsOfForm({ rows: '1', 'id-0': ['a', 'b'], 'effect-0': ['hide'] })).toEqual([
      { ...blankRow(1), position: '', id: '', effect: 'free' },
    ]);
  });

  it('reads as many rows as `rows` says, none when it is missing or not a number, and 110 at most', () => {
    expect(rowsOfForm({ 'id-0': 'a' })).toEqual([]);
    expect(rowsOfForm({ rows: 'many', 'id-0': 'a' })).toEqual([]);
    expect(rowsOfForm({ rows: '3' })).toHaveLength(3);
    expect(rowsOfForm({ rows: '110' })).toHaveLength(110);
    expect(rowsOfForm({ rows: '111' })).toHaveLength(110);
  });
});

describe('rulesOfForm: the rows as a PUT body', () => {
  it('leaves out blank rows and rows marked to remove, and a row of spaces', () => {
    expect(
      rulesOfForm([
        row(),
        row({ id: 'fora', remove: true }),
        row({ ufs: '   ', value: ' ' }),
        row({ id: 'a' }),
      ]),
    ).toEqual({ rules: [{ id: 'a', then: { free: true } }] });
  });

  it('keeps a row with any one field typed, even without an id (the check names it then)', () => {
    for (const field of ['ufs', 'ceps', 'minSubtotal', 'maxWeight', 'services', 'skus', 'value'] as const) {
      expect(rulesOfForm([row({ [field]: '1' })]).rules, field).toHaveLength(1);
    }
  });

  it('orders by position (a comma is a decimal point), then by the form’s order; no position is the row’s place', () => {
    const rules = rulesOfForm([
      row({ id: 'c', position: '3' }),
      row({ id: 'a', position: '1,5' }),
      row({ id: 'b', position: '1.5' }),
      row({ id: 'first', position: '' }),
      row({ id: 'z', position: 'x' }),
    ]).rules as { id: string }[];
    // '' and 'x' read as their place: 4 and 5
    expect(rules.map((rule) => rule.id)).toEqual(['a', 'b', 'c', 'first', 'z']);
    expect(
      (
        rulesOfForm([row({ id: 'late', position: '10' }), row({ id: 'early', position: '0,5' })]).rules as {
          id: string;
        }[]
      ).map((rule) => rule.id),
    ).toEqual(['early', 'late']);
  });

  it('writes states upper case and lists split at spaces, commas and semicolons', () => {
    expect(
      rulesOfForm([
        row({ id: 'r', ufs: ' sp,rj;  mg ', services: 'correios-pac, Correios-Sedex', skus: 'a;B c' }),
      ]),
    ).toEqual({
      rules: [
        {
          id: 'r',
          when: {
            ufs: ['SP', 'RJ', 'MG'],
            services: ['correios-pac', 'Correios-Sedex'],
            skus: ['a', 'B', 'c'],
          },
          then: { free: true },
        },
      ],
    });
  });

  it('reads CEP ranges separated by semicolons, each its two CEPs whatever sits between, else the text itself', () => {
    expect(
      rulesOfForm([row({ id: 'r', ceps: '01000-000 a 09999-999; ;20000000 até 28999999;  zona norte  ' })])
        .rules,
    ).toEqual([
      {
        id: 'r',
        when: { cepRanges: [['01000-000', '09999-999'], ['20000000', '28999999'], ['zona norte']] },
        then: { free: true },
      },
    ]);
  });

  it('reads amounts with a comma or a dot; what is not a number stays text, for the check to refuse by name', () => {
    expect(rulesOfForm([row({ id: 'r', minSubtotal: ' 150,90 ', maxWeight: '2.5' })]).rules).toEqual([
      { id: 'r', when: { minSubtotalBRL: 150.9, maxWeightKg: 2.5 }, then: { free: true } },
    ]);
    expect(rulesOfForm([row({ id: 'r', minSubtotal: 'cem', maxWeight: '0' })]).rules).toEqual([
      { id: 'r', when: { minSubtotalBRL: 'cem', maxWeightKg: 0 }, then: { free: true } },
    ]);
  });

  it('writes each effect with its value', () => {
    const then = (effect: RuleRow['effect'], value: string) =>
      (rulesOfForm([row({ id: 'r', effect, value })]).rules[0] as { then: unknown }).then;
    expect(then('free', 'ignored')).toEqual({ free: true });
    expect(then('hide', 'ignored')).toEqual({ hide: true });
    expect(then('label', '  Entrega local  ')).toEqual({ label: 'Entrega local' });
    expect(then('price', '19,90')).toEqual({ priceBRL: 19.9 });
    expect(then('price', ' ')).toEqual({ priceBRL: '' });
    expect(then('extraDays', '2')).toEqual({ extraDays: 2 });
    expect(then('extraDays', '')).toEqual({ extraDays: '' });
    expect(then('extraDays', 'dois')).toEqual({ extraDays: 'dois' });
  });

  it('reads a markup as a percentage, an amount, or both, with their signs', () => {
    const markup = (value: string) =>
      (rulesOfForm([row({ id: 'r', effect: 'markup', value })]).rules[0] as { then: unknown }).then;
    expect(markup('10%')).toEqual({ markupPercent: 10 });
    expect(markup('3')).toEqual({ markupBRL: 3 });
    expect(markup('10% + 3')).toEqual({ markupPercent: 10, markupBRL: 3 });
    expect(markup('-5% - 2,50')).toEqual({ markupPercent: -5, markupBRL: -2.5 });
    expect(markup('- 7,5 %')).toEqual({ markupPercent: -7.5 });
    expect(markup('+ 4')).toEqual({ markupBRL: 4 });
    expect(markup('muito')).toEqual({ markupBRL: 'muito' });
    expect(markup('')).toEqual({});
  });
});

describe('rowsOf: the rules in force as rows of the form', () => {
  it('writes every condition as the merchant types it, the position counted from 1', () => {
    const rules: Rule[] = [
      { id: 'gratis', then: { free: true } },
      {
        id: 'sul',
        when: {
          ufs: ['PR', 'SC'],
          cepRanges: [
            ['80000-000', '89999-999'],
            ['90000-000', '99999-999'],
          ],
          minSubtotalBRL: 0,
          maxWeightKg: 2.5,
          services: ['correios-pac', 'correios-sedex'],
          skus: ['A', 'B'],
        },
        then: { hide: true },
      },
    ];
    expect(rowsOf(rules)).toEqual([
      { ...blankRow(1), id: 'gratis', effect: 'free' },
      {
        position: '2',
        id: 'sul',
        ufs: 'PR, SC',
        ceps: '80000-000 a 89999-999; 90000-000 a 99999-999',
        minSubtotal: '0',
        maxWeight: '2.5',
        services: 'correios-pac, correios-sedex',
        skus: 'A, B',
        effect: 'hide',
        value: '',
        remove: false,
      },
    ]);
  });

  it('tells each effect and its value, a markup as "percent% + amount"', () => {
    const effectOf = (then: Rule['then']) => {
      const [only] = rowsOf([{ id: 'r', then }]);
      return { effect: only?.effect, value: only?.value };
    };
    expect(effectOf({ free: true })).toEqual({ effect: 'free', value: '' });
    expect(effectOf({ hide: true })).toEqual({ effect: 'hide', value: '' });
    expect(effectOf({ label: 'Entrega local' })).toEqual({ effect: 'label', value: 'Entrega local' });
    expect(effectOf({ label: '' })).toEqual({ effect: 'label', value: '' });
    expect(effectOf({ priceBRL: 0 })).toEqual({ effect: 'price', value: '0' });
    expect(effectOf({ priceBRL: 19.9 })).toEqual({ effect: 'price', value: '19.9' });
    expect(effectOf({ extraDays: 0 })).toEqual({ effect: 'extraDays', value: '0' });
    expect(effectOf({ extraDays: 2 })).toEqual({ effect: 'extraDays', value: '2' });
    expect(effectOf({ markupPercent: 10, markupBRL: 3 })).toEqual({ effect: 'markup', value: '10% + 3' });
    expect(effectOf({ markupPercent: 0 })).toEqual({ effect: 'markup', value: '0%' });
    expect(effectOf({ markupBRL: 0 })).toEqual({ effect: 'markup', value: '0' });
  });

  it('reads back what the form wrote', () => {
    const typed = [
      row({ id: 'a', ufs: 'SP, RJ', effect: 'markup', value: '10% + 3' }),
      row({
        id: 'b',
        position: '2',
        ceps: '01000-000 a 09999-999',
        minSubtotal: '150.9',
        effect: 'price',
        value: '5',
      }),
    ];
    const rules = rulesOfForm(typed).rules as Rule[];
    expect(rowsOf(rules)).toEqual([
      { ...typed[0], position: '1' },
      { ...typed[1], position: '2' },
    ]);
  });
});

describe('blankRow', () => {
  it('is an empty free-shipping row at its position, and the form offers two', () => {
    expect(blankRow(7)).toEqual({
      position: '7',
      id: '',
      ufs: '',
      ceps: '',
      minSubtotal: '',
      maxWeight: '',
      services: '',
      skus: '',
      effect: 'free',
      value: '',
      remove: false,
    });
    expect(NEW_ROWS).toBe(2);
  });
});
