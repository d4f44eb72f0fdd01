import { describe, expect, it } from 'vitest';
import { CsrfGuard, fromOwnPage } from './csrf.ts';
import { randomToken } from './hash.ts';
import type { Arrival, OriginPolicy } from './origin-policy.ts';

const POLICY: OriginPolicy = { publicUrl: 'https://frete.loja.example', loopback: 'this-port' };
const LOOPBACK_SOCKET = { localAddress: '127.0.0.1', localPort: 4000 };
const post = (headers: Record<string, string>, socket: Arrival['socket'] = {}): Arrival => ({
  headers,
  socket,
});

describe('fromOwnPage', () => {
  it("passes the server's public origin and its own loopback origin", () => {
    expect(fromOwnPage(POLICY, post({ origin: 'https://frete.loja.example' }))).toBe(true);
    expect(fromOwnPage(POLICY, post({ origin: 'http://127.0.0.1:4000' }, LOOPBACK_SOCKET))).toBe(true);
  });

  it('refuses a foreign, look-alike or null Origin whatever Sec-Fetch-Site says', () => {
    for (const origin of [
      'https://evil.example',
      'https://frete.loja.example.evil.example',
      'http://frete.loja.example',
      'null',
      'http://127.0.0.1:4001',
    ]) {
      expect(fromOwnPage(POLICY, post({ origin, 'sec-fetch-site': 'same-origin' }, LOOPBACK_SOCKET))).toBe(
        false,
      );
    }
  });

  it('without an Origin, refuses what Sec-Fetch-Site says came from another site, and leaves the rest to the token', () => {
    expect(fromOwnPage(POLICY, post({ 'sec-fetch-site': 'cross-site' }))).toBe(false);
    expect(fromOwnPage(POLICY, post({ 'sec-fetch-site': 'same-site' }))).toBe(false);
    expect(fromOwnPage(POLICY, post({ 'sec-fetch-site': 'same-origin' }))).toBe(true);
    expect(fromOwnPage(POLICY, post({ 'sec-fetch-site': 'none' }))).toBe(true);
    expect(fromOwnPage(POLICY, post({}))).toBe(true);
  });
});

describe('CsrfGuard', () => {
  const guard = new CsrfGuard({ cookie: 'form_csrf', path: '/forms', secure: true, origins: POLICY });

  /** A token issued by the guard, and the Cookie header a browser would send back. */
  function issued(): { token: string; cookie: string } {
    const set: string[] = [];
    const token = guard.issue({
      appendHeader(_name: string, value: string) {
        set.push(String(value));
        return this;
      },
    });
    expect(set).toEqual([`form_csrf=${token}; Path=/forms; HttpOnly; SameSite=Strict; Secure`]);
    return { token, cookie: `other=1; ${set[0]?.split(';')[0]}` };
  }

  it('double-submit: passes the form token that matches the cookie, from our own page or a client without Origin', () => {
    const { token, cookie } = issued();
    expect(
      guard.checkDoubleSubmit(post({ cookie, origin: 'https://frete.loja.example' }), token),
    ).toBeUndefined();
    expect(guard.checkDoubleSubmit(post({ cookie }), token)).toBeUndefined();
  });

  it('double-submit: refuses a missing, different, short or non-text token, or a missing cookie', () => {
    const { token, cookie } = issued();
    expect(guard.checkDoubleSubmit(post({ cookie }), undefined)).toBe('bad_token');
    expect(guard.checkDoubleSubmit(post({ cookie }), randomToken())).toBe('bad_token');
    expect(guard.checkDoubleSubmit(post({ cookie }), [token])).toBe('bad_token');
    expect(guard.checkDoubleSubmit(post({}), token)).toBe('bad_token');
    // A cookie an attacker could plant (not one we issued: too short) is not a token, even matched by the form.
    expect(guard.checkDoubleSubmit(post({ cookie: 'form_csrf=abc' }), 'abc')).toBe('bad_token');
    expect(guard.checkDoubleSubmit(post({ cookie: 'form_csrf=' }), '')).toBe('bad_token');
  });

  it('refuses a post from another page even with a valid token (the Origin is checked first)', () => {
    const { token, cookie } = issued();
    expect(guard.checkDoubleSubmit(post({ cookie, origin: 'https://evil.example' }), token)).toBe(
      'foreign_origin',
    );
    expect(guard.checkDoubleSubmit(post({ cookie, 'sec-fetch-site': 'cross-site' }), token)).toBe(
      'foreign_origin',
    );
    const session = randomToken();
    expect(guard.checkSession(post({ origin: 'null' }), session, session)).toBe('foreign_origin');
  });

  it("session: passes the session's own token only, never the double-submit cookie's", () => {
    const session = randomToken();
    const { token, cookie } = issued();
    expect(
      guard.checkSession(post({ origin: 'https://frete.loja.example' }), session, session),
    ).toBeUndefined();
    expect(guard.checkSession(post({ cookie }), session, token)).toBe('bad_token');
    expect(guard.checkSession(post({ cookie }), undefined, token)).toBe('bad_token');
    expect(guard.checkSession(post({}), undefined, undefined)).toBe('bad_token');
  });
});
