import { describe, expect, it } from 'vitest';
import { DeviceCookies } from './device-cookie.ts';

/** What `issue` set, as the `Cookie` header a browser sends back. */
function issued(cookies: DeviceCookies, account: string): { header: string; setCookie: string; id: string } {
  const set: string[] = [];
  const id = cookies.issue({ appendHeader: (_name, value) => set.push(value) }, account);
  const setCookie = set[0] ?? '';
  return { header: setCookie.split(';')[0] ?? '', setCookie, id };
}

describe('DeviceCookies', () => {
  let now = 1_763_800_000_000;
  const cookies = new DeviceCookies({ secret: 'k'.repeat(32), secure: true, now: () => now });

  it('reads back the device id of a cookie it issued for that account, with the cookie scoped and hidden from scripts', () => {
    const { header, setCookie, id } = issued(cookies, 'merchant');
    expect(setCookie).toMatch(
      /^login_device_[0-9a-f]{16}=[0-9a-z]+\.[\w-]{22}\.[\w-]{43}; Path=\/; Max-Age=7776000; HttpOnly; SameSite=Strict; Secure$/,
    );
    expect(cookies.read(`other=1; ${header}`, 'merchant')).toBe(id);
  });

  it('refuses it for another account, from another key, tampered, or past 90 days', () => {
    const { header } = issued(cookies, 'loja-demo@sandbox.example');
    expect(cookies.read(header, 'sem-plano@sandbox.example')).toBeUndefined();
    // Moved under the other account's cookie name: still signed for the first account.
    const moved = header.replace(/^[^=]+/, DeviceCookies.nameFor('sem-plano@sandbox.example'));
    expect(cookies.read(moved, 'sem-plano@sandbox.example')).toBeUndefined();
    const otherKey = new DeviceCookies({ secret: 'j'.repeat(32), secure: true, now: () => now });
    expect(otherKey.read(header, 'loja-demo@sandbox.example')).toBeUndefined();
    const [name, value = ''] = header.split('=');
    const [at, id, signature = ''] = value.split('.');
    // The last character carries 2 unused bits: A and B decode alike, and both must not pass.
    const last = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const first = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (const forged of [
      `${at}.${id}.${last}`,
      `${at}.${id}.${first}`,
      `${(Number.parseInt(at ?? '', 36) + 1).toString(36)}.${id}.${signature}`,
      `${at}.${id}`,
      `${at}.${id}.${signature}.x`,
      '',
    ]) {
      expect(cookies.read(`${name}=${forged}`, 'loja-demo@sandbox.example')).toBeUndefined();
    }
    expect(cookies.read(header, 'loja-demo@sandbox.example')).toBeDefined();
    now += 90 * 86_400_000 + 1_000;
    expect(cookies.read(header, 'loja-demo@sandbox.example')).toBeUndefined();
  });
});
