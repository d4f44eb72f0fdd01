import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productFilesOnDisk } from './product-lines.ts';

// One implementation of each mechanism (issue 49): a rule written twice drifts, and a change to one leaves its twin
// behind. Each mechanism below is recognised by the shape of its code, not by its name, in every module-level
// declaration of the product (exported or not; tests and test helpers apart, as scripts/product-lines.ts counts them):
// the test lists what implements it and fails on a second. The sandbox signs bodies as the platforms do; the checking is
// the BFF's.

const ROOT = join(import.meta.dirname, '..');
const DECLARATION =
  /^(?:export )?(?:default )?(?:declare )?(?:abstract )?(?:async )?(?:function\*? |class |const |let |interface |type )(\w+)/;

/** A file's module-level declarations (Biome writes them at column 0), comments left out: `file:name` → its text. */
function declarations(file: string): Map<string, string> {
  const found = new Map<string, string>();
  let name: string | undefined;
  let text: string[] = [];
  const close = () => {
    if (name) found.set(`${file}:${name}`, text.join('\n'));
  };
  for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('//') || trimmed.startsWith('/*') || trimmed.startsWith('*')) continue;
    const match = DECLARATION.exec(line);
    if (match) {
      close();
      name = match[1];
      text = [];
    }
    text.push(line);
  }
  close();
  return found;
}

const ALL = new Map(productFilesOnDisk().flatMap((file) => [...declarations(file)]));

/** The declarations whose text has the shape, `file:name`, sorted. */
function implementing(shape: RegExp, within: ReadonlyMap<string, string> = ALL): string[] {
  return [...within]
    .filter(([, text]) => shape.test(text))
    .map(([where]) => where)
    .sort();
}

/** Per mechanism: each of its shapes, and the declarations that may have it (one, unless said why). */
const MECHANISMS: Record<string, [shape: string, pattern: RegExp, homes: string[]][]> = {
  outbox: [
    [
      'claims due rows for a lease, counting a try',
      /SET lease_until = \?, tries = tries \+ 1/,
      ['shared/sql/outbox.ts:OutboxTable'],
    ],
    [
      'skips the rows another instance has locked',
      /FOR UPDATE SKIP LOCKED/,
      ['shared/sql/sql.ts:skipLocked'],
    ],
    ['gives a row up past its window', /give_up_at FROM/, ['shared/sql/outbox.ts:OutboxTable']],
    [
      'drains: claims, delivers, again until nothing is due',
      /for \(;;\)[\s\S]*\.claim\(\)/,
      ['shared/sql/outbox.ts:OutboxDrain'],
    ],
    [
      'backs off a failed row, with jitter',
      /2 \*\* Math\.max\(0, tries - 1\)/,
      ['shared/sql/outbox.ts:retryDelayMs'],
    ],
  ],
  'business days': [
    [
      'knows which days are business days',
      /weekday !== 0 && weekday !== 6/,
      ['shared/business-days.ts:isBusinessDay'],
    ],
    [
      'counts the business days between two days',
      /isBusinessDay\(\w+\)\)? \w+ \+= 1/,
      ['shared/business-days.ts:businessDaysAfter'],
    ],
    [
      'adds business days to a day',
      /isBusinessDay\(\w+\)\)? \w+ -= 1/,
      ['shared/business-days.ts:addBusinessDays'],
    ],
  ],
  money: [
    [
      'turns BRL into whole centavos',
      /Math\.round\([^;]*(?:brl|BRL|price|Price|valor|amount|cost)[^;]*\* ?100\b/,
      // formatBRL rounds as Intl.NumberFormat does (the double's exact value: 999.995 shows R$ 999,99, and its test
      // holds it to Intl), for display only, beside `centavos` in the money's one home.
      ['shared/money.ts:centavos', 'shared/money.ts:formatBRL'],
    ],
  ],
  'signed-body check': [
    [
      "computes a platform's signature of a body to compare it with the one presented",
      // A call (not the declarations of the signing functions, shared/checkouts/). The sandbox emulates the platforms:
      // it signs what it sends with those functions, and checks nothing (SIGNERS).
      /(?<!function )\b\w*[Hh]mac\([^)]*\bbody\b/,
      ['bff/stores/signed-body.ts:expectedSignature'],
    ],
  ],
};

/** Where the sandbox signs the bodies it sends as Shopify and Nuvemshop: a signer, not a second check. */
const SIGNERS = /^sandbox\/checkouts\//;

describe.each(Object.entries(MECHANISMS))('one implementation of the %s', (_, shapes) => {
  it.each(shapes)('%s: nowhere else', (shape, pattern, homes) => {
    const found = implementing(pattern);
    expect(shape.includes('signature') ? found.filter((where) => !SIGNERS.test(where)) : found).toEqual(
      homes,
    );
  });
});

describe('the scan', () => {
  it('finds a twin: a copy of the count of business days in another file is a second implementation', () => {
    const twin = new Map(ALL);
    twin.set(
      'bff/twin.ts:daysBetween',
      'function daysBetween(a: number, b: number) {\n  let n = 0;\n  for (let day = a; day < b; day++) if (isBusinessDay(day)) n += 1;\n}',
    );
    const [, pattern] = MECHANISMS['business days']?.[1] ?? [];
    expect(pattern && implementing(pattern, twin)).toEqual([
      'bff/twin.ts:daysBetween',
      'shared/business-days.ts:businessDaysAfter',
    ]);
  });

  it('reads every product file, and no test or test helper', () => {
    const files = productFilesOnDisk();
    expect(files).toContain('shared/sql/outbox.ts');
    expect(files.filter((file) => /\.test\.tsx?$|(^|\/)testing(\.ts|\/)/.test(file))).toEqual([]);
  });
});
