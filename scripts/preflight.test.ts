import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decide, installCommand, missingPackages, wrongOverrides } from './preflight.ts';

// In /tmp, not the run's TMPDIR: readable by the user the last test runs the script as, whatever the run's folder is.
const dir = mkdtempSync('/tmp/preflight-');
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A machine in a folder: a PATH directory and a PostgreSQL directory holding these executables, Chromium optional. */
function machine(name: string, commands: string[], options: { pg?: boolean; chromium?: boolean } = {}) {
  const root = join(dir, name);
  const bin = join(root, 'bin');
  const pg = join(root, 'pg');
  mkdirSync(bin, { recursive: true });
  mkdirSync(pg, { recursive: true });
  const touch = (file: string) => {
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o755);
  };
  for (const command of commands) touch(join(bin, command));
  if (options.pg !== false) for (const command of ['initdb', 'pg_ctl', 'createdb']) touch(join(pg, command));
  if (options.chromium !== false) touch(join(root, 'chromium'));
  return { PATH: bin, PG_BIN: pg, CHROMIUM_PATH: join(root, 'chromium') };
}

const EVERYTHING = ['redis-server', 'redis-cli', 'sqlite3', 'systemd-analyze'];
const SCRIPT = new URL('./preflight.ts', import.meta.url).pathname;

/**
 * Node and the script where `nobody` can reach them: a clone in a private folder (the soak's `mkdtemp`, maybe a CI's)
 * is not, and `nobody` would fail on the path instead of the preflight's message. The script imports only node:
 * modules, so a copy alone runs; Node is hard-linked when it can be (no 100 MB copy), else copied.
 */
function reachableByNobody(): { node: string; script: string } {
  const place = join(dir, 'nobody');
  mkdirSync(place, { mode: 0o755 });
  const node = join(place, 'node');
  try {
    linkSync(process.execPath, node);
  } catch {
    copyFileSync(process.execPath, node);
  }
  chmodSync(node, 0o755);
  const script = join(place, 'preflight.ts');
  copyFileSync(SCRIPT, script);
  chmodSync(script, 0o644);
  return { node, script };
}

describe('npm test\u2019s preflight', () => {
  it('finds nothing missing on a machine that has every program', () => {
    expect(missingPackages(machine('full', EVERYTHING))).toEqual([]);
    expect(decide([], { root: false, apt: false }, {})).toEqual({ action: 'ready' });
  });

  it('names the Debian package of each missing program, once', () => {
    const env = machine('bare', ['sqlite3', 'redis-cli'], { pg: false, chromium: false });
    expect(missingPackages(env)).toEqual(['chromium', 'redis-server', 'postgresql', 'systemd']);
  });

  it('installs as root where apt-get is, and stops with the exact command otherwise', () => {
    const env = machine('bare2', [], { pg: false });
    const packages = missingPackages(env);
    expect(decide(packages, { root: true, apt: true }, env)).toEqual({ action: 'install', packages });
    const stop = decide(packages, { root: false, apt: true }, env);
    expect(stop.action).toBe('stop');
    if (stop.action !== 'stop') return;
    expect(stop.message).toContain(`sudo sh -c '${installCommand(packages)}'`);
    expect(stop.message).toContain('redis-server (the Redis tests)');
    expect(stop.message).toContain('postgresql (the PostgreSQL tests)');
    const noApt = decide(packages, { root: true, apt: false }, env);
    expect(noApt.action === 'stop' && noApt.message).toContain('redis-server, postgresql, sqlite3, systemd');
  });

  it('never installs over a path the person chose that holds nothing', () => {
    const env = { ...machine('chosen', EVERYTHING), CHROMIUM_PATH: join(dir, 'nowhere/chromium') };
    expect(wrongOverrides(env)).toEqual([`CHROMIUM_PATH=${join(dir, 'nowhere/chromium')}`]);
  });

  it('stops before any test, as a user without root, with one message naming the packages', () => {
    // apt-get here, but the script runs as a user who may not use it: it must not try.
    const env = machine('user', ['sqlite3', 'systemd-analyze', 'apt-get']);
    const asRoot = process.getuid?.() === 0;
    const { node, script } = asRoot ? reachableByNobody() : { node: process.execPath, script: SCRIPT };
    const asUser = asRoot ? ['/usr/sbin/runuser', '-p', '-u', 'nobody', '--'] : [];
    const [command = node, ...args] = [...asUser, node, script];
    const run = spawnSync(command, args, { encoding: 'utf8', env });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('npm test: missing redis-server (the Redis tests).');
    expect(run.stderr).toContain(`sudo sh -c '${installCommand(['redis-server'])}'`);
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/);
  });
});
