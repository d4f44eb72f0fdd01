import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 47, "debug text off the storefront pages": what a demo storefront page says before any script runs is a
// shopper's words. The e2e tests state the words after a choice; this holds every page, including a new one.
const DEMO = join(import.meta.dirname, '..', '..', 'demo');
const pages = readdirSync(DEMO).filter((name) => name.endsWith('.html'));

describe('the demo storefront pages', () => {
  it('are read (the check below can fail)', () => {
    expect(pages).toEqual(expect.arrayContaining(['product.html', 'cart.html', 'product-variants.html']));
  });

  it.each(pages)('%s carries no debug line', (name) => {
    const text = readFileSync(join(DEMO, name), 'utf8');
    expect(text).not.toMatch(/Escolhido:|nenhum frete|console\.log|debug/i);
    if (text.includes('id="chosen"')) expect(text).toContain('Frete: escolha uma opção acima');
  });
});
