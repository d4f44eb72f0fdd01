import { describe, expect, it } from 'vitest';
import { escapeHtml, html, readCookie } from './html.ts';

describe('html', () => {
  it('escapes every interpolation except nested html, so no value can open a tag or leave an attribute', () => {
    const value = `"><script>alert('x')</script>&`;
    expect(html`<p title="${value}">${value}</p>`.text).toBe(
      `<p title="${escapeHtml(value)}">${escapeHtml(value)}</p>`,
    );
    expect(escapeHtml(value)).not.toMatch(/[<>"']/);
    expect(html`<div>${html`<b>${'<i>'}</b>`}</div>`.text).toBe('<div><b>&#60;i&#62;</b></div>');
    expect(html`${[html`<li>1</li>`, '<li>']}${undefined}${false}`.text).toBe('<li>1</li>&#60;li&#62;');
  });

  it('reads one cookie among several, and not a look-alike name', () => {
    expect(readCookie('a=1; oauth_csrf=xyz=; b=2', 'oauth_csrf')).toBe('xyz=');
    expect(readCookie('xoauth_csrf=1', 'oauth_csrf')).toBeUndefined();
    expect(readCookie(undefined, 'oauth_csrf')).toBeUndefined();
  });
});
