import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layout a newcomer relies on (CONTRIBUTING.md, "A newcomer's questions, and the file that answers each"): a
// folder's file named after it is a door with logic of its own (it builds the capability), never a list of
// re-exports every importer walks past (../shared/STYLE.md); no file of logic a reader cannot hold in their head.

const ROOT = join(import.meta.dirname, '..');
const BFF = join(ROOT, 'bff');

/** The folders directly under bff/: each is a part of the BFF (its code, with its tests and testing helpers). */
function bffFolders(): string[] {
  return readdirSync(BFF, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** The relative specifiers a file imports or re-exports from (`from './x/y.ts'`, `import('./x/y.ts')`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g)];
  return specifiers.map((match) => match[1] ?? match[2] ?? '');
}

/** Whether a file's statements are all re-exports (`export … from '…'`): a barrel. Comments and blank lines aside. */
function isBarrel(text: string): boolean {
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .trim();
  if (code === '') return false;
  const statements = code.split(/;\s*/).filter((statement) => statement.trim() !== '');
  return statements.every((statement) =>
    /^export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s+'[^']+'$/.test(statement.trim()),
  );
}

describe('no barrels in bff/', () => {
  it('no folder of bff/ has a file named after it that only re-exports', () => {
    const folders = bffFolders();
    expect(folders.length).toBeGreaterThan(15);
    const barrels = folders
      .map((folder) => join(BFF, folder, `${folder}.ts`))
      .filter((file) => existsSync(file) && isBarrel(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(barrels).toEqual([]);
  });

  it('tells a barrel from a door with logic (the check above can fail)', () => {
    expect(isBarrel("export { a } from './a.ts';\nexport type { B } from './b.ts';\n")).toBe(true);
    expect(isBarrel("/** doc */\nexport * from './a.ts';\n// why\n")).toBe(true);
    expect(isBarrel("export { a } from './a.ts';\nexport function b() {\n  return 1;\n}\n")).toBe(false);
    expect(isBarrel("import { a } from './a.ts';\nexport const b = a;\n")).toBe(false);
  });
});

/** Files of logic over this many lines are split by noun, unless listed below. */
const MAX_LINES = 400;

/**
 * The files over `MAX_LINES` today, each with its reason: a catalog or data table (long because it lists things), a
 * test suite kept in a testing/ folder, or not split yet. Shrinking this list is welcome; growing it needs a reason.
 */
const LONG_FILES: Record<string, string> = {
  'bff/http/openapi.ts': 'data table: the OpenAPI document of every public route',
  'bff/labels/testing/store-contract.ts': 'a test suite: the ledger store contract both stores pass',
  'shared/oauth/testing/suite.ts': 'a test suite: the OAuth promises both servers pass',
  'shared/oauth/pages.ts': 'not split yet: the login and consent pages and their checks',
  'bff/desk/client/issue.ts': 'not split yet: the desk issue form in the browser',
  'bff/stores/connection-store.ts':
    'not split yet: the tables of the connections, install states and held installs; approval and an install connect under the platform lock',
  'bff/stores/connections.ts':
    "not split yet: a store connection's life (grant, renewal, held install, approval, revoke); its sealing is sealed-grants.ts",
};

/** Every non-test .ts/.tsx file under the code folders, as a path from the repository root. */
function logicFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (['node_modules', 'dist', 'fixtures'].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (
        /\.tsx?$/.test(entry.name) &&
        !/\.test\.tsx?$/.test(entry.name) &&
        !entry.name.endsWith('.d.ts')
      )
        files.push(relative(ROOT, path));
    }
  };
  for (const dir of ['bff', 'shared', 'sandbox', 'widget', 'scripts', 'testing']) walk(join(ROOT, dir));
  return files.sort();
}

const linesOf = (file: string) => readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1;

describe('files of logic a reader can hold', () => {
  it(`no non-test file exceeds ${MAX_LINES} lines, except the listed catalogs, suites and files not split yet`, () => {
    const files = logicFiles();
    expect(files.length).toBeGreaterThan(200);
    const long = files.filter((file) => linesOf(file) > MAX_LINES && !(file in LONG_FILES));
    expect(long).toEqual([]);
  });

  it('lists only files that exist and are still long (a split file leaves the list)', () => {
    const files = new Set(logicFiles());
    const stale = Object.keys(LONG_FILES).filter((file) => !files.has(file) || linesOf(file) <= MAX_LINES);
    expect(stale).toEqual([]);
  });
});

/**
 * Import circles allowed, each with its reason: none. A circle is a type left in the wrong file (the type goes to the
 * file named for it: STYLE.md); one that must stay is listed here with why.
 */
const CIRCLES: Record<string, string> = {};

/** The import graph of the code's non-test files (relative imports and re-exports, type-only ones included). */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(join(ROOT, file))
      .map((specifier) => relative(ROOT, join(ROOT, dirname(file), specifier)))
      .filter((target) => known.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected groups of more than one file (Tarjan), each as its files sorted and joined by ' > '. */
function circlesOf(graph: Map<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === file) break;
    }
    if (group.length > 1) circles.push(group.sort().join(' > '));
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles.sort();
}

describe('a house that reads top-down', () => {
  it('has no import circle between files but the listed ones', () => {
    expect(circlesOf(importGraph(logicFiles()))).toEqual(Object.keys(CIRCLES).sort());
  });

  it('finds a circle made of type-only imports (the check above can fail)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circlesOf(graph)).toEqual(['a.ts > b.ts > c.ts']);
  });
});
