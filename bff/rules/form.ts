import type { Rule } from '../../shared/shipping-rules.ts';

/**
 * The desk's rules form (`/admin/rules`), one row a rule, as the merchant types it: states as "SP, RJ", CEP ranges
 * as "01000-000 a 09999-999; 20000-000 a 28999-999", amounts with a comma or a dot, one effect and its value. Turned
 * into the rules document (`rulesOfForm`) that `parseRules` checks, as a `PUT` would be; and back (`rowsOf`).
 */
export interface RuleRow {
  position: string;
  id: string;
  ufs: string;
  ceps: string;
  minSubtotal: string;
  maxWeight: string;
  services: string;
  skus: string;
  effect: Effect;
  value: string;
  remove: boolean;
}

export const EFFECTS = ['free', 'price', 'markup', 'extraDays', 'hide', 'label'] as const;
export type Effect = (typeof EFFECTS)[number];

/** Blank rows the form offers after the rules, to add some. */
export const NEW_ROWS = 2;
/** The most rows a form is read for (`MAX_RULES` and the blank ones). */
const MAX_ROWS = 110;

const list = (text: string, upper = false) =>
  text
    .split(/[\s,;]+/)
    .map((part) => (upper ? part.toUpperCase() : part))
    .filter((part) => part !== '');
/** "150,90" or "150.90" → 150.9; "" → undefined; anything else → the text, for the check to refuse by name. */
function amount(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const number = Number(trimmed.replace(',', '.'));
  return Number.isFinite(number) ? number : trimmed;
}

/** The rows of the posted form (`application/x-www-form-urlencoded`, fields `<name>-<row>`). */
export function rowsOfForm(body: Record<string, unknown>): RuleRow[] {
  const field = (name: string, i: number) => {
    const value = body[`${name}-${i}`];
    return typeof value === 'string' ? value : '';
  };
  const count = Math.min(Number(body.rows) || 0, MAX_ROWS);
  const rows: RuleRow[] = [];
  for (let i = 0; i < count; i++) {
    const effect = field('effect', i);
    rows.push({
      position: field('position', i),
      id: field('id', i).trim(),
      ufs: field('ufs', i),
      ceps: field('ceps', i),
      minSubtotal: field('minSubtotal', i),
      maxWeight: field('maxWeight', i),
      services: field('services', i),
      skus: field('skus', i),
      effect: (EFFECTS as readonly string[]).includes(effect) ? (effect as Effect) : 'free',
      value: field('value', i),
      remove: field('remove', i) === 'on',
    });
  }
  return rows;
}

/** Whether a row holds a rule (a blank row, or one marked to remove, holds none). */
const kept = (row: RuleRow) =>
  !row.remove &&
  [row.id, row.ufs, row.ceps, row.minSubtotal, row.maxWeight, row.services, row.skus, row.value].some(
    (text) => text.trim() !== '',
  );

/** The rows' rules as a `PUT` body, in the order of their position (then of the form). */
export function rulesOfForm(rows: readonly RuleRow[]): { rules: unknown[] } {
  const ordered = rows
    .map((row, i) => ({ row, at: Number(row.position.replace(',', '.')) || i + 1, i }))
    .filter(({ row }) => kept(row))
    .sort((a, b) => a.at - b.at || a.i - b.i);
  return { rules: ordered.map(({ row }) => ruleOf(row)) };
}

function ruleOf(row: RuleRow): unknown {
  const when: Record<string, unknown> = {};
  if (row.ufs.trim()) when.ufs = list(row.ufs, true);
  if (row.ceps.trim())
    when.cepRanges = row.ceps
      .split(';')
      .filter((range) => range.trim() !== '')
      .map((range) => range.match(/\d{5}-?\d{3}/g) ?? [range.trim()]);
  const min = amount(row.minSubtotal);
  if (min !== undefined) when.minSubtotalBRL = min;
  const max = amount(row.maxWeight);
  if (max !== undefined) when.maxWeightKg = max;
  if (row.services.trim()) when.services = list(row.services);
  if (row.skus.trim()) when.skus = list(row.skus);
  return { id: row.id, ...(Object.keys(when).length > 0 ? { when } : {}), then: thenOf(row) };
}

function thenOf(row: RuleRow): unknown {
  const value = row.value.trim();
  switch (row.effect) {
    case 'free':
      return { free: true };
    case 'hide':
      return { hide: true };
    case 'label':
      return { label: value };
    case 'price':
      return { priceBRL: amount(value) ?? '' };
    case 'extraDays':
      return { extraDays: amount(value) ?? '' };
    case 'markup': {
      // "10%", "3", "10% + 3", "-5% - 2,50"
      const percent = /(-?\s*\d+(?:[.,]\d+)?)\s*%/.exec(value);
      const rest = (percent ? value.replace(percent[0], '') : value).replace(/\s/g, '').replace(/^\+/, '');
      return {
        ...(percent ? { markupPercent: amount((percent[1] ?? '').replace(/\s/g, '')) } : {}),
        ...(rest ? { markupBRL: amount(rest) } : {}),
      };
    }
  }
}

/** The rules in force as rows of the form. */
export function rowsOf(rules: readonly Rule[]): RuleRow[] {
  return rules.map((rule, i) => {
    const { when = {}, then } = rule;
    const effect: Effect = then.free
      ? 'free'
      : then.hide
        ? 'hide'
        : then.label !== undefined
          ? 'label'
          : then.priceBRL !== undefined
            ? 'price'
            : then.extraDays !== undefined
              ? 'extraDays'
              : 'markup';
    const markup = [
      then.markupPercent !== undefined ? `${then.markupPercent}%` : '',
      then.markupBRL !== undefined ? String(then.markupBRL) : '',
    ]
      .filter(Boolean)
      .join(' + ');
    return {
      position: String(i + 1),
      id: rule.id,
      ufs: (when.ufs ?? []).join(', '),
      ceps: (when.cepRanges ?? []).map(([from, to]) => `${from} a ${to}`).join('; '),
      minSubtotal: when.minSubtotalBRL === undefined ? '' : String(when.minSubtotalBRL),
      maxWeight: when.maxWeightKg === undefined ? '' : String(when.maxWeightKg),
      services: (when.services ?? []).join(', '),
      skus: (when.skus ?? []).join(', '),
      effect,
      value:
        effect === 'label'
          ? (then.label ?? '')
          : effect === 'price'
            ? String(then.priceBRL)
            : effect === 'extraDays'
              ? String(then.extraDays)
              : effect === 'markup'
                ? markup
                : '',
      remove: false,
    };
  });
}

/** A blank row, to add a rule. */
export function blankRow(position: number): RuleRow {
  return {
    position: String(position),
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
  };
}
