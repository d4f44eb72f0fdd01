import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { API, type Project, SymbolFlags } from 'typescript/unstable/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// No two files export the same name (issue 39): a name found by search, an auto-import or a stack trace leads to one
// thing. Type-only exports count. A re-export (`export { x } from`, or an imported name exported again) is the same
// symbol under the same name, not a second one: the TypeScript checker resolves each export to its declaration.
// `typescript` is TypeScript 7 here, whose compiler API is `typescript/unstable/sync` (it talks to the tsgo binary).

const ROOT = join(import.meta.dirname, '..');
const FOLDERS = ['shared', 'bff', 'sandbox', 'widget', 'scripts', 'testing', 'e2e', 'bench'];
/** Built output, dependencies, the throwaway apps the widget's package test installs into (tsconfig.json skips them). */
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'fixtures']);

/**
 * Names two files export on purpose, each with why. Empty is the goal: a name here is a rename not yet done, and the
 * last test fails when a listed name is no longer shared.
 */
const ALLOWED: Readonly<Record<string, string>> = {};

/** Every non-test .ts/.tsx file of the folders above, relative to the repo. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        files.push(relative(ROOT, path));
      }
    }
  };
  for (const folder of FOLDERS) walk(join(ROOT, folder));
  return files.sort();
}

/** Each name that two distinct symbols export, with the files that declare them. */
function sharedNames(project: Project, files: readonly string[]): Map<string, string[]> {
  const declared = new Map<string, Map<number, string>>();
  for (const file of files) {
    const source = project.program.getSourceFile(join(ROOT, file));
    const module = source && project.checker.getSymbolAtLocation(source);
    if (!module) continue; // no import or export: a script, or a .d.ts of `declare module` blocks only
    for (const exported of project.checker.getExportsOfModule(module)) {
      if (exported.name === 'default' || exported.name === 'export=') continue;
      const symbol =
        exported.flags & SymbolFlags.Alias ? project.checker.getAliasedSymbol(exported) : exported;
      const home = symbol.declarations[0]?.path;
      const where = home ? relative(ROOT, home) : file;
      const symbols = declared.get(exported.name) ?? new Map<number, string>();
      symbols.set(symbol.id, where);
      declared.set(exported.name, symbols);
    }
  }
  return new Map(
    [...declared]
      .filter(([, symbols]) => symbols.size > 1)
      .map(([name, symbols]) => [name, [...new Set(symbols.values())].sort()]),
  );
}

/** Two modules that must be found sharing a name (never on disk: served to the compiler from here). */
const PROBE_DIRECTORY = '.exports-probe';
const PROBES: Readonly<Record<string, string>> = {
  'a.ts': `export type Refusal = { reason: string }; export const one = 1, { two } = { two: 2 };
    export interface Three {} export function four(): void {} export function four(x?: number): void {}`,
  'b.ts': `import { one } from './a.ts'; export interface Refusal { code: number }
    export { one, one as uno }; export { two } from './a.ts'; export type { Three as Tres } from './a.ts';`,
  'c.ts': `export { four } from './a.ts'; export class Three {} export default function two() {}`,
};
const probePath = (name: string) => join(ROOT, PROBE_DIRECTORY, name);
const PROBE_FILES = new Map(Object.entries(PROBES).map(([name, text]) => [probePath(name), text]));
const CONFIG = join(ROOT, PROBE_DIRECTORY, 'tsconfig.json');

let api: API;
let project: Project;
let files: string[];

beforeAll(() => {
  files = sourceFiles();
  const config = JSON.stringify({
    extends: '../tsconfig.json',
    compilerOptions: { noEmit: true },
    files: [...files.map((file) => join(ROOT, file)), ...PROBE_FILES.keys()],
  });
  api = new API({
    cwd: ROOT,
    fs: {
      readFile: (path) => (path === CONFIG ? config : PROBE_FILES.get(path)),
      fileExists: (path) => (path === CONFIG || PROBE_FILES.has(path) ? true : undefined),
      directoryExists: (path) => (path === join(ROOT, PROBE_DIRECTORY) ? true : undefined),
    },
  });
  const found = api.updateSnapshot({ openProjects: [CONFIG] }).getProject(CONFIG);
  if (!found) throw new Error(`the compiler opened no project for ${CONFIG}`);
  project = found;
});

afterAll(() => api?.close());

describe('exported names', () => {
  it('finds two symbols of one name, type-only ones included, and not a re-export of the same one', () => {
    const probes = Object.keys(PROBES).map((name) => join(PROBE_DIRECTORY, name));
    expect(Object.fromEntries(sharedNames(project, probes))).toEqual({
      Refusal: [join(PROBE_DIRECTORY, 'a.ts'), join(PROBE_DIRECTORY, 'b.ts')],
      Three: [join(PROBE_DIRECTORY, 'a.ts'), join(PROBE_DIRECTORY, 'c.ts')],
    });
  });

  it('no two files of the repo export the same name', () => {
    expect(files).toContain('shared/labels/plausibility.ts');
    expect(project.program.getSourceFile(join(ROOT, 'shared/labels/plausibility.ts'))).toBeDefined();
    const shared = [...sharedNames(project, files)]
      .filter(([name]) => !(name in ALLOWED))
      .map(([name, where]) => `${name}: ${where.join(', ')}`);
    expect(shared).toEqual([]);
  });

  it('allows only names that are still shared', () => {
    const shared = sharedNames(project, files);
    expect(Object.keys(ALLOWED).filter((name) => !shared.has(name))).toEqual([]);
  });
});
