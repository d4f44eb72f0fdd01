import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from './html.ts';

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
});
