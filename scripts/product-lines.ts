/**
 * `node scripts/product-lines.ts [commit]`: the lines of product code (non-blank lines of .ts/.tsx under bff/, shared/,
 * sandbox/ and widget/), tests and test helpers apart, per folder and in all: the measure of issue 49's "down by
 * ≥ 1,000". A test helper is a `testing.ts`, anything under a `testing/` or `fixtures/` folder, or a `*.test.ts(x)`.
 * With a commit, it counts that commit's tree (`git show`), so two commits compare side by side.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const FOLDERS = ['bff', 'shared', 'sandbox', 'widget'];

/** Whether a tracked path is product code: a .ts/.tsx source under one of FOLDERS that is neither test nor helper. */
export function isProductCode(path: string): boolean {
  if (!FOLDERS.includes(path.split('/')[0] ?? '')) return false;
  if (!/\.tsx?$/.test(path) || path.endsWith('.d.ts')) return false;
  if (/\.test\.tsx?$/.test(path)) return false;
  const parts = path.split('/');
  if (parts.some((part) => ['testing', 'fixtures', 'node_modules', 'dist'].includes(part))) return false;
  return !/(^|\/)testing\.tsx?$/.test(path);
}

/**
 * The product's files as they are on disk now, tracked or not (a file being written counts before it is committed), as
 * paths from the repository root, sorted: what the layout's "one implementation" tests scan.
 */
export function productFilesOnDisk(): string[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (isProductCode(relative(ROOT, path))) files.push(relative(ROOT, path));
    }
  };
  for (const folder of FOLDERS) walk(join(ROOT, folder));
  return files.sort();
}

/** Non-blank lines of a text. */
export const nonBlankLines = (text: string) => text.split('\n').filter((line) => line.trim() !== '').length;

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/**
 * The texts of `paths` at a commit, or in git's index when none is given, read by one `git cat-file --batch` (a `git
 * show` a file was 500 processes, 20 s on a starved machine: the test of this file timed out in a stressed soak).
 */
function textsAt(paths: readonly string[], commit?: string): string[] {
  const input = paths.map((path) => `${commit ?? ''}:${path}\n`).join('');
  const out = execFileSync('git', ['cat-file', '--batch'], {
    cwd: ROOT,
    input,
    maxBuffer: 256 * 1024 * 1024,
  });
  const texts: string[] = [];
  let at = 0;
  for (const path of paths) {
    const headerEnd = out.indexOf(10, at);
    const header = out.subarray(at, headerEnd).toString('utf8');
    const size = Number(header.split(' ')[2]);
    if (!header.includes(' blob ') || !Number.isInteger(size))
      throw new Error(`git cat-file: ${header} (${path})`);
    texts.push(out.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'));
    at = headerEnd + 1 + size + 1;
  }
  return texts;
}

/** Product lines per top folder (and `total`) at a commit, or of the tracked files as staged (git's index) when none is given. */
export function productLines(commit?: string): Record<string, number> {
  const paths = (commit ? git(['ls-tree', '-r', '--name-only', commit]) : git(['ls-files']))
    .split('\n')
    .filter(isProductCode);
  const counts: Record<string, number> = { total: 0 };
  const texts = textsAt(paths, commit);
  for (const [i, path] of paths.entries()) {
    const folder = path.split('/')[0] ?? '';
    const lines = nonBlankLines(texts[i] ?? '');
    counts[folder] = (counts[folder] ?? 0) + lines;
    counts.total = (counts.total ?? 0) + lines;
  }
  return counts;
}

if (import.meta.main) {
  const commit = process.argv[2];
  const counts = productLines(commit);
  for (const [folder, lines] of Object.entries(counts)) process.stdout.write(`${folder}\t${lines}\n`);
}
