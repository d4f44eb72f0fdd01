import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appDocument, appPalette, deskButtons } from './documents.ts';

const desk = readFileSync(new URL('../../desk/desk.css', import.meta.url), 'utf8');

describe("the apps' documents", () => {
  it("take the desk's palette: light on :root, dark by the host's theme or, while it says none, the system's", () => {
    const palette = appPalette(desk);
    expect(palette).toContain('--accent: #1d4ed8');
    expect(palette).toMatch(/:root\[data-theme="dark"\] \{ color-scheme: dark;[^}]*--accent: #8ab4ff/);
    expect(palette).toMatch(
      /prefers-color-scheme: dark\) \{ :root:not\(\[data-theme\]\) \{[^}]*--accent: #8ab4ff/,
    );
  });

  it("take the desk's buttons", () => {
    expect(deskButtons(desk)).toMatch(/^button,\s*a\.button \{/);
    expect(deskButtons(desk)).toContain('button.primary');
  });

  it('refuse a desk.css without its palettes or buttons, so the checks above can fail', () => {
    expect(() => appPalette('body { color: red }')).toThrow(/palette/);
    expect(() => deskButtons('body { color: red }')).toThrow(/button/);
  });

  it('inline the script whole: a "</script" inside it cannot end the element', () => {
    const html = appDocument('quote', 'body{}', 'const s = "</script><img src=x>";');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('"<\\/script><img src=x>"');
    expect(html).toContain('data-app="quote"');
  });
});
