import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellBlocks } from './doc-blocks.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const SKIP = new Set(['node_modules', 'dist', '.git', 'artifacts']);

/** Every file under `dir` whose name passes `keep`, relative to the repository's root. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

/**
 * The text of every test that reads a doc block by name: the vitest files, and `npm run test:deploy`'s
 * scripts/deploy-check.ts (docs/deploy.md's production install, run for real).
 */
const TESTS = ['scripts', 'e2e', 'bff', 'sandbox', 'shared', 'widget']
  .flatMap((dir) => filesUnder(dir, (name) => name.endsWith('.test.ts') || name === 'deploy-check.ts'))
  .filter((path) => relative('scripts', path) !== 'doc-blocks.test.ts')
  .map((path) => readFileSync(join(ROOT, path), 'utf8'));

/** What is wrong with each shell block of `page`: unmarked, or marked as tested by a name no test reads. */
function problemsOf(page: string, text: string, tests: readonly string[]): string[] {
  return shellBlocks(text).flatMap((block) => {
    if (block.tested)
      return tests.some((test) => test.includes(`'${block.tested}'`))
        ? []
        : [`${page}:${block.line}: no test reads the block "${block.tested}"`];
    if (block.notRun) return [];
    return [`${page}:${block.line}: neither <!-- tested: name --> above it nor _not run: why_ beside it`];
  });
}

describe('the shell blocks of docs/', () => {
  it('are each run by a test, or say why not', () => {
    const pages = filesUnder('docs', (name) => name.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(10);
    const problems = pages.flatMap((page) => problemsOf(page, readFileSync(join(ROOT, page), 'utf8'), TESTS));
    expect(problems).toEqual([]);
  });

  it('finds an unmarked block and a name no test reads, so the check above can fail', () => {
    const page = [
      'Run it:',
      '',
      '```sh',
      'npm run bff',
      '```',
      '',
      '<!-- tested: no-such-block -->',
      '```bash',
      'npm start',
      '```',
      '',
      '```sh',
      'sudo systemctl restart frete-kit',
      '```',
      '',
      '_not run: it restarts a production service_',
      '',
      '_not run: a shell session on the server_',
      '```console',
      '$ whoami',
      '```',
      '',
      '```json',
      '{}',
      '```',
    ].join('\n');
    expect(shellBlocks(page)).toEqual([
      { line: 3 },
      { line: 8, tested: 'no-such-block' },
      { line: 12, notRun: 'it restarts a production service' },
      { line: 19, notRun: 'a shell session on the server' },
    ]);
    expect(problemsOf('page.md', page, ["deployBlock('bff-env')"])).toEqual([
      'page.md:3: neither <!-- tested: name --> above it nor _not run: why_ beside it',
      'page.md:8: no test reads the block "no-such-block"',
    ]);
  });
});
