import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';

/** The manifest `npm run build` writes beside the bundles, and the BFF serves at `/widget/v1/integrity.json`. */
export const INTEGRITY_FILE = 'integrity.json';

/** `{ "<file>.js": "sha384-<base64>" }`: the value of a `<script integrity>` attribute for each built script. */
export const IntegrityManifestSchema = /* @__PURE__ */ z.record(
  z.string().check(z.regex(/^[\w.-]+\.js$/)),
  z.string().check(z.regex(/^sha384-[A-Za-z0-9+/]{64}$/)),
);
export type IntegrityManifest = z.infer<typeof IntegrityManifestSchema>;

/** The Subresource Integrity value of some bytes (sha384, as Stripe.js and the CDNs publish it). */
export function sriHash(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** Hashes every script in `dir` (source maps and the manifest itself are not scripts a page loads). */
export function buildIntegrityManifest(dir: string): IntegrityManifest {
  const scripts = readdirSync(dir).filter((name) => name.endsWith('.js'));
  return Object.fromEntries(scripts.sort().map((file) => [file, sriHash(readFileSync(join(dir, file)))]));
}

/** Writes `dir/integrity.json`; the build calls it after each bundle, so it always covers every script in `dir`. */
export function writeIntegrityManifest(dir: string): IntegrityManifest {
  const manifest = buildIntegrityManifest(dir);
  writeFileSync(join(dir, INTEGRITY_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
