import { describe, expect, it } from 'vitest';
import { randomToken, sameSecret, sha256Hex } from './hash.ts';

describe('hash', () => {
  it('hashes to the SHA-256 hex digest', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('compares secrets of any lengths, equal only when identical', () => {
    expect(sameSecret('senha-do-lojista', 'senha-do-lojista')).toBe(true);
    expect(sameSecret('senha-do-lojista', 'senha-do-lojist')).toBe(false);
    expect(sameSecret('senha-do-lojista', 'senha-do-lojistA')).toBe(false);
    expect(sameSecret('', 'x'.repeat(10_000))).toBe(false);
    expect(sameSecret('', '')).toBe(true);
  });

  it('makes 256-bit base64url tokens, never the same twice', () => {
    const tokens = new Set(Array.from({ length: 100 }, randomToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
