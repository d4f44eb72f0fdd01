import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LINK_TTL_MS, TrackingLinks } from './links.ts';

/** Signed links on their own, with a clock the test moves (orders.test.ts opens them through a started BFF). */
const SECRET = Buffer.from('a-link-secret-for-tests-only-000');
const ATTEMPT = '3f2c8a1e-9b7d-4c6e-8f10-2a4b6c8d0e1f';
let clock = 1_763_800_000_000;
const links = (secret = SECRET) =>
  new TrackingLinks({ secret, publicUrl: 'https://frete.loja.example', now: () => clock });

describe('TrackingLinks', () => {
  it('signs a token that names the label and when it expires, and nothing else', () => {
    const token = links().token(ATTEMPT);
    const [payload, tag] = token.split('.');
    expect(Buffer.from(payload ?? '', 'base64url').toString()).toBe(
      `${ATTEMPT}.${Math.floor((clock + LINK_TTL_MS) / 1000)}`,
    );
    expect(tag).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(links().verify(token)).toBe(ATTEMPT);
  });

  it('writes the absolute link, with ?lang= only for a language other than pt-BR', () => {
    const token = links().token(ATTEMPT);
    expect(links().url(ATTEMPT)).toBe(`https://frete.loja.example/track/s/${token}`);
    expect(links().url(ATTEMPT, 'pt-BR')).toBe(`https://frete.loja.example/track/s/${token}`);
    expect(links().url(ATTEMPT, 'es')).toBe(`https://frete.loja.example/track/s/${token}?lang=es`);
  });

  it('opens for 90 days, to the second, and not after', () => {
    const token = links().token(ATTEMPT);
    const issued = clock;
    try {
      clock = issued + LINK_TTL_MS - 1_000;
      expect(links().verify(token)).toBe(ATTEMPT);
      clock = Math.floor((issued + LINK_TTL_MS) / 1000) * 1000 - 1;
      expect(links().verify(token)).toBe(ATTEMPT);
      clock += 1;
      expect(links().verify(token)).toBeUndefined();
    } finally {
      clock = issued;
    }
  });

  it('refuses a token signed with another key, a changed tag, a changed payload, or one cut short', () => {
    const token = links().token(ATTEMPT);
    const [payload = '', tag = ''] = token.split('.');
    expect(links(Buffer.from('another-secret-of-the-same-size-0')).verify(token)).toBeUndefined();
    const flipped = `${tag.slice(0, -1)}${tag.endsWith('A') ? 'B' : 'A'}`;
    expect(links().verify(`${payload}.${flipped}`)).toBeUndefined();
    const other = Buffer.from(`${ATTEMPT.replace('3f', '4f')}.${Math.floor(clock / 1000) + 999}`).toString(
      'base64url',
    );
    expect(links().verify(`${other}.${tag}`)).toBeUndefined();
    expect(links().verify(`${payload}.${tag.slice(0, 21)}`)).toBeUndefined();
    expect(links().verify(`${payload}.${tag}A`)).toBeUndefined();
    expect(links().verify(`x${payload}.${tag}`)).toBeUndefined();
    expect(links().verify(`${payload}.${tag}.x`)).toBeUndefined();
    expect(links().verify('')).toBeUndefined();
  });

  it('refuses a payload signed with our key that names no label or no expiry in whole seconds', () => {
    const later = Math.floor(clock / 1000) + 60;
    for (const text of [
      ATTEMPT,
      `${ATTEMPT}.`,
      `.${later}`,
      `${ATTEMPT}.a${later}`,
      `${ATTEMPT}.${later}a`,
      `${ATTEMPT}.-${later}`,
    ]) {
      expect(links().verify(signed(text))).toBeUndefined();
    }
    // the same signing, over a well-formed payload, opens: the refusals above are the payload's
    expect(links().verify(signed(`${ATTEMPT}.${later}`))).toBe(ATTEMPT);
  });
});

/** A token whose tag is right for any payload: what a holder of the key could sign, to test `verify` on its own. */
function signed(text: string): string {
  const payload = Buffer.from(text).toString('base64url');
  const tag = createHmac('sha256', SECRET).update(payload).digest().subarray(0, 16).toString('base64url');
  return `${payload}.${tag}`;
}
