/**
 * `npm run test:deploy`: installs the BFF as docs/deploy.md says, into a temporary directory (the tracked files,
 * `npm install --omit=dev`, the built `dist/widget/` and `dist/desk/` copied in), then starts it with the exact commands of the
 * page's "Without systemd" block and its production lines as `bff.env`, and checks that it runs on Node 24 with
 * only runtime dependencies, reads the env file's quoted value, serves the widget and the tracking API against a
 * sandbox, and that an older Node gets the clear message. Not part of `npm test`: `npm install` talks to the npm
 * registry (about 15 s with a warm cache; `--prefer-offline` uses the cache when it can).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { startSandbox } from '../sandbox/testing.ts';
import { deployBlock } from './deploy-doc.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const OLD_NODE = process.env.OLD_NODE ?? '/usr/bin/node';
const log = (line: string) => process.stdout.write(`deploy-check: ${line}\n`);
/** The page's production lines with this machine's values for the key, the platform and the data directory. */
function bffEnv(sandboxUrl: string, dataDir: string): string {
  const ours: Record<string, string> = {
    SHIPPING_SECRET_KEY: 'mk_test_demo',
    SHIPPING_API_URL: sandboxUrl,
    BFF_DATA_DIR: dataDir,
  };
  const lines = deployBlock('bff-env')
    .split('\n')
    .map((line) => {
      const name = /^([A-Z_]+)=/.exec(line)?.[1];
      return name && ours[name] !== undefined ? `${name}=${ours[name]}` : line;
    });
  for (const name of Object.keys(ours)) assert.ok(lines.includes(`${name}=${ours[name]}`), `no ${name} line`);
  return `${lines.join('\n')}\nBFF_PORT=0\n`;
}

assert.ok(existsSync(join(ROOT, 'dist/widget/shipping-widget.js')), 'run npm run build first');
const dir = mkdtempSync(join(tmpdir(), 'frete-kit-deploy-'));
const files = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0');
for (const file of files.filter(Boolean)) {
  if (!existsSync(join(ROOT, file))) continue;
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  cpSync(join(ROOT, file), join(dir, file));
}
log(`copied ${files.length - 1} tracked files to ${dir}`);

const lockBefore = readFileSync(join(dir, 'package-lock.json'), 'utf8');
const started = Date.now();
const install = spawnSync(
  'npm',
  ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
  { cwd: dir, encoding: 'utf8', timeout: 300_000 },
);
assert.equal(install.status, 0, `npm install --omit=dev failed:\n${install.stderr}`);
log(`npm install --omit=dev: ${((Date.now() - started) / 1000).toFixed(1)} s`);
for (const devOnly of ['vite', 'vitest', 'typescript', 'node', '@biomejs/biome', 'playwright-core']) {
  assert.ok(
    !existsSync(join(dir, 'node_modules', devOnly)),
    `${devOnly} must not be installed with --omit=dev`,
  );
}
assert.equal(
  readFileSync(join(dir, 'package-lock.json'), 'utf8'),
  lockBefore,
  'npm install --omit=dev rewrote package-lock.json',
);
cpSync(join(ROOT, 'dist/widget'), join(dir, 'dist/widget'), { recursive: true });
cpSync(join(ROOT, 'dist/desk'), join(dir, 'dist/desk'), { recursive: true });

// docs/deploy.md, "Without systemd": its commands as written, with this machine's paths and no sudo.
const sandbox = await startSandbox();
const envFile = join(dir, 'etc-frete-kit', 'bff.env');
mkdirSync(dirname(envFile));
writeFileSync(envFile, bffEnv(sandbox.url, join(dir, 'var-lib-frete-kit')), { mode: 0o640 });
const commands = deployBlock('without-systemd')
  .replaceAll('/srv/frete-kit', dir)
  .replaceAll('/etc/frete-kit/bff.env', envFile)
  .replaceAll('sudo -u frete ', '');
assert.match(commands, /^node --env-file=\S+ bff\/start\.js$/m);
// Node 24 first in the PATH, as the page asks; a process group of its own, so the BFF stops with the shell.
const bff = spawn('bash', ['-c', commands], {
  env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
try {
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the BFF did not start within 30 s')), 30_000);
    for (const stream of [bff.stdout, bff.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        const found = /BFF listening on (http:\/\/[^"\s]+)/.exec(line)?.[1];
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      });
    }
    bff.on('exit', (code) => reject(new Error(`the BFF exited with ${code}`)));
  });
  log(`BFF (Node ${process.versions.node}, runtime dependencies only, bff.env) listening on ${url}`);
  const ready = await fetch(`${url}/readyz`);
  assert.equal(ready.status, 200, await ready.text());
  // The store name of bff.env, spaces, quotes and all, as the page shows it (HTML-escaped).
  const storeName = /^BFF_STORE_NAME='([^']+)'$/m.exec(deployBlock('bff-env'))?.[1];
  assert.ok(storeName, 'the bff-env block sets BFF_STORE_NAME in single quotes');
  const escaped = storeName.replace(/[&"'<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  assert.ok((await (await fetch(`${url}/track`)).text()).includes(escaped), `/track shows ${storeName}`);
  for (const path of [
    '/widget/v1/shipping-widget.js',
    '/widget/v1/integrity.json',
    '/track',
    '/openapi.json',
  ]) {
    const res = await fetch(`${url}${path}`);
    assert.equal(res.status, 200, path);
  }
  const tracked = await fetch(`${url}/api/tracking`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ codes: ['DG049186226BR'] }),
  });
  assert.equal(tracked.status, 200);
  log(
    `/readyz 200; /track shows ${storeName}; widget, integrity.json, /openapi.json and POST /api/tracking answer`,
  );
} finally {
  if (bff.pid !== undefined) process.kill(-bff.pid, 'SIGTERM');
  await sandbox.close();
}

if (existsSync(OLD_NODE)) {
  const old = spawnSync(OLD_NODE, ['bff/start.js'], { cwd: dir, encoding: 'utf8' });
  const version = spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (Number(version.slice(1).split('.')[0]) < 24) {
    assert.equal(old.status, 1);
    assert.match(old.stderr, /Node 24 or newer is required/);
    log(`${OLD_NODE} (${version}): exit 1 with "${old.stderr.trim().slice(0, 60)}…"`);
  }
}
rmSync(dir, { recursive: true, force: true });
log('ok');
