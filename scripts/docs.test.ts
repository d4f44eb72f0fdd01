import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { sqliteLedger } from '../bff/labels/testing/ledgers.ts';
import { DEPLOY_DOC, deployBlock } from './deploy-doc.ts';
import { brokenCitations, brokenLinks, citedSections, headingAnchors, markdownLinks } from './doc-links.ts';

// Runs the blocks of docs/deploy.md marked `<!-- tested: name -->` (scripts/deploy-doc.ts), so a command the docs
// show cannot rot unnoticed.

/** Runs a shell line with Node 24 (this process's node) first in PATH, as the server's `node` must be. */
function sh(line: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], {
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const OrderSchema = z.object({ orderId: z.string() });

/**
 * The env file format docs/deploy.md states ("Configure"): `NAME=value` with no spaces around `=`, comments on lines
 * of their own, and a value that holds a space, a quote, `#`, `$`, `\`, or a backtick in single quotes. Node, systemd
 * and a shell then read the same values.
 */
const ENV_LINE = /^[A-Z][A-Z0-9_]*=('[^'\n]*'|[^\s'"#$\\`]*)$/;

/** The values a shell gets from sourcing `text` (`set -a; . file`), for the names given. */
function sourced(text: string, names: string[]): Record<string, string> {
  const file = join(mkdtempSync(join(tmpdir(), 'env-')), 'bff.env');
  writeFileSync(file, text);
  const run = spawnSync('env', ['-i', 'sh', '-c', 'set -a; . "$1"; set +a; env -0', 'sh', file], {
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  const all = new Map(
    run.stdout
      .split('\0')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  return Object.fromEntries(names.map((name) => [name, all.get(name) ?? '(unset)']));
}

/** Assignment lines of an env file, with `# NAME=…` examples uncommented (they are what a reader turns on). */
function assignments(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/^# (?=[A-Z][A-Z0-9_]*=)/, ''))
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line));
}

describe('env files: the format Node, systemd and a shell read alike', () => {
  const files = {
    '.env.example': readFileSync(new URL('../.env.example', import.meta.url), 'utf8'),
    "docs/deploy.md's production lines": deployBlock('bff-env'),
  };

  it.each(Object.entries(files))(
    '%s keeps to the format, and Node and a shell read the same values',
    (_, text) => {
      const lines = assignments(text);
      expect(lines.length).toBeGreaterThan(5);
      for (const line of lines) expect(line).toMatch(ENV_LINE);
      const node = parseEnv(lines.join('\n'));
      expect(sourced(lines.join('\n'), Object.keys(node))).toEqual(node);
    },
  );

  it("reads the production lines' store name with its spaces and quotes", () => {
    expect(parseEnv(deployBlock('bff-env')).BFF_STORE_NAME).toBe('Calçados "Dona Ana" & Filhos');
  });

  it('tells a line that breaks the format, so the checks above can fail', () => {
    const broken = [
      'BFF_STORE_NAME=Loja da Ana',
      'BFF_AGENT_TOKENS=[{"token":"abc","scopes":["rates"]}]',
      'BFF_ADMIN_PASSWORD=abc#def',
      'BFF_PORT=4000 # the port',
    ];
    for (const line of broken) expect(line).not.toMatch(ENV_LINE);
    const node = parseEnv(broken.slice(1).join('\n'));
    expect(sourced(broken.slice(1).join('\n'), Object.keys(node))).not.toEqual(node);
  });
});

const hasSystemd = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('docs/deploy.md: the systemd unit', () => {
  it.skipIf(!hasSystemd)('passes systemd-analyze verify with no warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'unit-'));
    const unit = join(dir, 'frete-kit.service');
    writeFileSync(unit, deployBlock('systemd-unit'));
    expect(deployBlock('systemd-unit')).toContain('ExecStart=/usr/bin/node bff/start.js');
    const run = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);

    // The instrument: a wrong value is reported, so the check above can fail.
    writeFileSync(unit, deployBlock('systemd-unit').replace('Type=simple', 'Type=bogus'));
    expect(spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' }).stderr).toMatch(/bogus/);
  });
});

describe('docs/deploy.md: ledger backup and restore', () => {
  it('backs up a ledger the BFF is writing to, and the copy opens as a ledger with every attempt taken before', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ledger-docs-'));
    const dataDir = join(root, 'lib');
    const backups = join(root, 'backups');
    mkdirSync(backups);
    const ledger = sqliteLedger({ dataDir });
    const order = (orderId: string) => JSON.stringify({ orderId });
    for (let i = 0; i < 200; i++) {
      await ledger.begin({
        fingerprint: `fp-${i}`,
        idempotencyKey: `key-${i}`,
        request: order(`pedido-${i}`),
      });
    }
    // The BFF keeps writing while the backup runs.
    let more = 0;
    const writer = setInterval(() => {
      void ledger.begin({ fingerprint: `fp-late-${more}`, request: order(`late-${more}`) });
      more++;
    }, 2);

    const line = deployBlock('ledger-backup')
      .split('\n')
      .find((command) => command.includes('node -e'));
    expect(line).toBeDefined();
    const command = (line ?? '')
      .replace(/^sudo -u frete /, '')
      .replaceAll('/var/lib/frete-kit', dataDir)
      .replaceAll('/var/backups/frete-kit', backups);
    const run = await sh(command);
    clearInterval(writer);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^backup: \d+ pages$/m);
    await ledger.close();

    const [copy] = readdirSync(backups);
    expect(copy).toMatch(/^labels-\d{4}-\d{2}-\d{2}-\d{4}\.sqlite$/);
    const backupFile = join(backups, copy ?? '');
    const check = new DatabaseSync(backupFile, { readOnly: true });
    expect(check.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    check.close();

    // Restore, as the docs do: a fresh data directory holding the copy as labels.sqlite.
    expect(deployBlock('ledger-restore')).toContain('/var/lib/frete-kit/labels.sqlite');
    const restoredDir = join(root, 'restored');
    mkdirSync(restoredDir);
    copyFileSync(backupFile, join(restoredDir, 'labels.sqlite'));
    const restored = sqliteLedger({ dataDir: restoredDir });
    try {
      const orders = (await restored.list()).map(
        (attempt) => OrderSchema.parse(JSON.parse(attempt.request)).orderId,
      );
      for (let i = 0; i < 200; i++) expect(orders).toContain(`pedido-${i}`);
      expect((await restored.byKey('key-199'))?.state).toBe('pending');
      expect(await restored.healthy()).toBe(true);
    } finally {
      await restored.close();
    }
  }, 60_000);

  it.skipIf(!existsSync('/usr/bin/sqlite3'))('the sqlite3 alternative is an online backup too', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-sqlite3-'));
    const ledger = sqliteLedger({ dataDir });
    await ledger.begin({
      fingerprint: 'fp',
      idempotencyKey: 'k',
      request: JSON.stringify({ orderId: 'pedido-1' }),
    });
    const run = await sh(`sqlite3 ${dataDir}/labels.sqlite ".backup ${dataDir}/copy.sqlite"`);
    await ledger.close();
    expect(run.status).toBe(0);
    expect(DEPLOY_DOC).toContain('sqlite3 /var/lib/frete-kit/labels.sqlite ".backup /var/backups/frete-kit/');
    const copy = new DatabaseSync(join(dataDir, 'copy.sqlite'), { readOnly: true });
    expect(copy.prepare('SELECT count(*) AS n FROM label_attempts').get()).toEqual({ n: 1 });
    copy.close();
  });
});

describe('every document link resolves to a file of the repository', () => {
  const ROOT = new URL('..', import.meta.url).pathname;
  const tracked = new Set(
    spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0').filter(Boolean),
  );
  const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

  it('in every tracked markdown file: relative links name tracked files, anchors name headings', () => {
    const markdown = [...tracked].filter((file) => file.endsWith('.md'));
    // Every page by reader is among them: the README's front door, docs/ and the parts' own READMEs.
    for (const page of [
      'README.md',
      'CONTRIBUTING.md',
      'docs/architecture.md',
      'docs/configuration.md',
      'docs/security.md',
      'docs/testing.md',
      'docs/agents/connect.md',
      'widget/README.md',
      'sandbox/README.md',
      'bench/README.md',
    ])
      expect(markdown).toContain(page);
    expect(markdown.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(20);
    expect(markdown.flatMap((file) => markdownLinks(read(file))).length).toBeGreaterThan(30);
    expect(brokenLinks(tracked, read)).toEqual([]);
  });

  it('the README stays a front door: at most 200 lines, every other page one link away', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    const linked = new Set(markdownLinks(readme).map(({ target }) => target.split('#')[0]));
    const pages = [...tracked].filter((file) => /^docs\/.+\.md$/.test(file));
    expect(
      pages.filter((page) => !linked.has(page) && !linked.has(`${page.split('/').slice(0, -1).join('/')}/`)),
    ).toEqual([]);
  });

  it('code comments cite pages and sections that exist', () => {
    const sources = new Map(
      [...tracked]
        .filter((file) => /\.(ts|tsx|js)$|^\.env\.example$/.test(file) && file !== 'scripts/docs.test.ts')
        .map((file) => [file, read(file)] as const),
    );
    const cited = [...sources.values()].flatMap((source) => citedSections(source));
    expect(cited.length).toBeGreaterThan(40);
    expect(brokenCitations(sources, tracked, read)).toEqual([]);
    // A page named without a section must exist too (by its path from the root, or from the file's folder).
    const named = [...sources].flatMap(([file, source]) =>
      [...source.matchAll(/(?<![\w./-])(?:docs\/[\w/.-]+|(?:[\w.-]+\/)*README|CONTRIBUTING)\.md\b/g)].map(
        (match) => ({ file, page: match[0] }),
      ),
    );
    expect(named.length).toBeGreaterThan(40);
    expect(
      named.filter(({ file, page }) => !tracked.has(page) && !tracked.has(join(dirname(file), page))),
    ).toEqual([]);
  });

  it('tells a citation of a missing page or section, so the check above can fail', () => {
    const pages: Record<string, string> = {
      'docs/a.md': '# A page\n## Events (bubbling, `composed`)\n## Logins',
      'README.md': '# Title\n## Benchmarks',
    };
    const q = '"';
    const sources = new Map([
      ['x.ts', `/** Fine (docs/a.md, ${q}Events${q}) and (README, ${q}Benchmarks${q}). */`],
      [
        'y.ts',
        `// (docs/a.md, ${q}Security bounds${q}), (README, ${q}Agent policies${q}),\n// (docs/gone.md, ${q}Logins${q}) and (docs/a.md, ${q}Logins and\n// more${q})`,
      ],
    ]);
    expect(brokenCitations(sources, new Set(Object.keys(pages)), (file) => pages[file] ?? '')).toEqual([
      'y.ts:1: docs/a.md, "Security bounds" names no heading of docs/a.md',
      'y.ts:1: README.md, "Agent policies" names no heading of README.md',
      'y.ts:2: docs/gone.md, "Logins" cites no file of the repository',
      'y.ts:2: docs/a.md, "Logins and more" names no heading of docs/a.md',
    ]);
  });

  it('no document refers to the files handed to the team outside the repository', () => {
    for (const file of [...tracked].filter((name) => name.endsWith('.md'))) {
      expect(read(file), file).not.toMatch(/ARCHITECTURE\.md|shipping-platform-spec|\.\.\/shared\//);
    }
  });

  it('tells each kind of broken link, so the check above can fail', () => {
    const files: Record<string, string> = {
      'README.md': [
        '# Title',
        '## Two words',
        '[ok](docs/a.md) [ok too](docs/a.md#a-heading) [here](#two-words) [folder](docs/) [web](https://x.example)',
        '[outside](../shared/ARCHITECTURE.md) [absolute](/work/shared/spec.md) [file](file:///etc/passwd)',
        '[missing](docs/b.md) [untracked](.env) [no heading](docs/a.md#nowhere) [no anchor here](#three)',
        '`[in code](nowhere.md)`',
        '```',
        '[in a block](nowhere.md)',
        '```',
        '![picture](docs/missing.png) <img src="docs/a.png">',
        '[ref]: docs/gone.md',
      ].join('\n'),
      'docs/a.md': '# A heading\n[back up](../README.md) [too far](../../x.md)',
      'docs/a.png': '',
    };
    const problems = brokenLinks(new Set(Object.keys(files)), (file) => files[file] ?? '');
    expect(problems).toEqual([
      'README.md:4: ../shared/ARCHITECTURE.md points outside the repository',
      'README.md:4: /work/shared/spec.md is not a relative link to a file of the repository',
      'README.md:4: file:///etc/passwd is not a relative link to a file of the repository',
      'README.md:5: docs/b.md names no file of the repository',
      'README.md:5: .env names no file of the repository',
      'README.md:5: docs/a.md#nowhere names no heading of docs/a.md',
      'README.md:5: #three names no heading of README.md',
      'README.md:10: docs/missing.png names no file of the repository',
      'README.md:11: docs/gone.md names no file of the repository',
      'docs/a.md:2: ../../x.md points outside the repository',
    ]);
  });

  it('anchors headings as GitHub does', () => {
    expect([
      ...headingAnchors(
        '## 8. What one instance holds\n### `<shipping-tracking>` on your own site\n### Events (bubbling, composed)\n## Notes\n## Notes',
      ),
    ]).toEqual([
      '8-what-one-instance-holds',
      'shipping-tracking-on-your-own-site',
      'events-bubbling-composed',
      'notes',
      'notes-1',
    ]);
  });
});
