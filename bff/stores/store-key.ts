import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Store tokens at rest (docs/checkout/connect.md, "Tokens at rest"): AES-256-GCM with `BFF_STORE_KEY`, a key kept
 * outside the database, so a copy of the database (a backup, a dump) holds no usable token. Each sealed value is bound
 * to its row (`platform:shop:field` as additional data): a value moved to another store's row does not open.
 */
export const STORE_KEY_FILE = 'store.key';

/** 32 bytes as 64 hex digits or as base64 (44 characters); anything else is undefined. */
export function parseStoreKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(value)) {
    const key = Buffer.from(value, 'base64');
    return key.length === 32 ? key : undefined;
  }
  return undefined;
}

/**
 * The key: `BFF_STORE_KEY`, or (one instance on node:sqlite) `store.key` in `BFF_DATA_DIR`, made once with mode 0600
 * beside the database file, never in it. Instances sharing a PostgreSQL must share `BFF_STORE_KEY` (config.ts asks).
 */
export function loadStoreKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  const file = join(dataDir, STORE_KEY_FILE);
  try {
    const key = parseStoreKey(readFileSync(file, 'utf8'));
    if (key) return key;
    throw new Error(`${file} is not 32 bytes in hex: remove it (the stores connect again) or fix it`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

/** Seals and opens store secrets; a value that does not open (another key, another row, tampered) is undefined. */
export class TokenBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('a store key is 32 bytes');
    this.key = key;
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url, a fresh 12-byte IV each time. */
  seal(plain: string, binding: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(binding, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string, binding: string): string | undefined {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(binding, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return undefined;
    }
  }
}
