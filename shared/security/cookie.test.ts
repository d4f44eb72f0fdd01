import { describe, expect, it } from 'vitest';
import { readCookie, setStrictCookie } from './cookie.ts';

describe('cookies', () => {
  it('reads one cookie by its exact name, keeping any "=" in its value', () => {
    expect(readCookie('a=1; oauth_csrf=xyz=; b=2', 'oauth_csrf')).toBe('xyz=');
    expect(readCookie('xoauth_csrf=1', 'oauth_csrf')).toBeUndefined();
    expect(readCookie(undefined, 'oauth_csrf')).toBeUndefined();
  });

  it('sets HttpOnly, SameSite=Strict cookies limited to a path, Secure on https, beside any other cookie', () => {
    const set: string[] = [];
    const res = {
      appendHeader(name: string, value: string) {
        expect(name).toBe('Set-Cookie');
        set.push(String(value));
        return res;
      },
    };
    setStrictCookie(res, { name: 'a', value: 'x', path: '/oauth', secure: false });
    setStrictCookie(res, { name: 'b', value: 'y', path: '/admin', secure: true });
    setStrictCookie(res, { name: 'c', value: 'z', path: '/', secure: true, maxAgeSeconds: 60 });
    expect(set).toEqual([
      'a=x; Path=/oauth; HttpOnly; SameSite=Strict',
      'b=y; Path=/admin; HttpOnly; SameSite=Strict; Secure',
      'c=z; Path=/; Max-Age=60; HttpOnly; SameSite=Strict; Secure',
    ]);
  });
});
