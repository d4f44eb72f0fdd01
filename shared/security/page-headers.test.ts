import { describe, expect, it } from 'vitest';
import { pageHeaders } from './page-headers.ts';

describe('pageHeaders', () => {
  it('allows nothing inline or foreign, posts only here, and is never framed, cached or sniffed', () => {
    const headers = pageHeaders();
    const csp = headers['Content-Security-Policy'] ?? '';
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      "style-src 'self'",
      "img-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]);
    expect(csp).not.toMatch(/unsafe|script-src|\*/);
    expect(headers).toMatchObject({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'same-origin',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
    });
  });

  it('adds the form targets a consent redirects to, and only those', () => {
    const csp = pageHeaders(['https://client.example', 'myapp:'])['Content-Security-Policy'];
    expect(csp).toContain("form-action 'self' https://client.example myapp:;");
  });
});
