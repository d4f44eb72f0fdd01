/**
 * `npm run test:deploy`: installs the BFF as docs/deploy.md says, into a temporary directory (the tracked files,
 * `npm install --omit=dev`, the built `dist/widget/` copied in) and checks that it starts on Node 24 from `.env`
 * with only runtime dependencies, serves the widget and the tracking API against a sandbox, and that an older Node
 * gets the clear message. Not part of `npm test`: `npm install` talks to the npm registry (about 15 s with a warm
 * cache; `--prefer-offline` uses the cache when it can).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { startSandbox } from '../sandbox/testing.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const OLD_NODE = process.env.OLD_NODE ?? '/usr/bin/node';
const log = (line: string) => process.stdout.write(`deploy-check: ${line}\n`);

assert.ok(existsSync(join(ROOT, 'dist/widget/shipping-widget.js')), 'run npm run build first');
const dir = mkdtempSync(join(tmpdir(), 'frete-kit-deploy-'));
const files = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0');
for (const file of files.filter(Boolean)) {
  if (!existsSync(join(ROOT, file))) continue;
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  cpSync(join(ROOT, file), join(dir, file));
}
log(`copied ${files.length - 1} tracked files to ${dir}`);

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
cpSync(join(ROOT, 'dist/widget'), join(dir, 'dist/widget'), { recursive: true });

const sandbox = await startSandbox();
writeFileSync(
  join(dir, '.env'),
  `SHIPPING_SECRET_KEY=mk_test_demo\nSHIPPING_API_URL=${sandbox.url}\nBFF_PORT=0\nBFF_TRUST_PROXY=1\n`,
);
const bff = spawn(process.execPath, ['bff/start.js'], {
  cwd: dir,
  env: { PATH: process.env.PATH ?? '' },
  stdio: ['ignore', 'pipe', 'pipe'],
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
  log(`BFF (Node ${process.versions.node}, runtime dependencies only) listening on ${url}`);
  const ready = await fetch(`${url}/readyz`);
  assert.equal(ready.status, 200, await ready.text());
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
  log('/readyz 200; widget, integrity.json, /track, /openapi.json and POST /api/tracking answer');
} finally {
  bff.kill('SIGTERM');
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
