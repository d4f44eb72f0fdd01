import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStoreKey, parseStoreKey, STORE_KEY_FILE, TokenBox } from './store-key.ts';

const TOKEN = 'shpat_0123456789abcdef0123456789abcdef';

describe('TokenBox', () => {
  const box = new TokenBox(randomBytes(32));

  it('opens what it sealed for the same row, and the sealed text holds nothing of the token', () => {
    const sealed = box.seal(TOKEN, 'shopify:loja.myshopify.com:token');
    expect(sealed).not.toContain(TOKEN);
    expect(sealed).not.toContain('0123456789abcdef');
    expect(box.open(sealed, 'shopify:loja.myshopify.com:token')).toBe(TOKEN);
    // A fresh IV each time: the same token sealed twice is two texts.
    expect(box.seal(TOKEN, 'shopify:loja.myshopify.com:token')).not.toBe(sealed);
  });

  it('does not open a value moved to another store or field, another key, or one byte changed', () => {
    const sealed = box.seal(TOKEN, 'shopify:loja.myshopify.com:token');
    expect(box.open(sealed, 'shopify:outra.myshopify.com:token')).toBeUndefined();
    expect(box.open(sealed, 'shopify:loja.myshopify.com:refresh')).toBeUndefined();
    expect(new TokenBox(randomBytes(32)).open(sealed, 'shopify:loja.myshopify.com:token')).toBeUndefined();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    expect(box.open(parts.join('.'), 'shopify:loja.myshopify.com:token')).toBeUndefined();
    expect(box.open('v2.a.b.c', 'shopify:loja.myshopify.com:token')).toBeUndefined();
    expect(box.open('not sealed at all', 'shopify:loja.myshopify.com:token')).toBeUndefined();
  });
});

describe('the store key', () => {
  it('reads 32 bytes as hex or base64 and nothing else', () => {
    const key = randomBytes(32);
    expect(parseStoreKey(key.toString('hex'))).toEqual(key);
    expect(parseStoreKey(key.toString('base64'))).toEqual(key);
    expect(parseStoreKey(key.toString('hex').slice(2))).toBeUndefined();
    expect(parseStoreKey(randomBytes(31).toString('base64'))).toBeUndefined();
    expect(parseStoreKey('a'.repeat(64).replace('a', 'g'))).toBeUndefined();
  });

  it('is made once in the data directory, readable by its owner alone, and the same at the next start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-key-'));
    const first = loadStoreKey(undefined, dir);
    expect(statSync(join(dir, STORE_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(loadStoreKey(undefined, dir)).toEqual(first);
    const configured = randomBytes(32);
    expect(loadStoreKey(configured, dir)).toEqual(configured);
  });

  it('refuses a damaged key file rather than making another key (the stored tokens would not open)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-key-'));
    writeFileSync(join(dir, STORE_KEY_FILE), 'not a key\n');
    expect(() => loadStoreKey(undefined, dir)).toThrow(/is not 32 bytes/);
    expect(readFileSync(join(dir, STORE_KEY_FILE), 'utf8')).toBe('not a key\n');
  });
});
