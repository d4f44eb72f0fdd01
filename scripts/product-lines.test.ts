import { describe, expect, it } from 'vitest';
import { isProductCode, nonBlankLines, productLines } from './product-lines.ts';

describe('lines of product code (issue 49)', () => {
  it('counts sources of bff/, shared/, sandbox/ and widget/, never tests nor test helpers', () => {
    expect(isProductCode('bff/labels/service.ts')).toBe(true);
    expect(isProductCode('widget/calculator/app.tsx')).toBe(true);
    expect(isProductCode('shared/money.ts')).toBe(true);
    expect(isProductCode('bff/labels/service.test.ts')).toBe(false);
    expect(isProductCode('widget/calculator/app.test.tsx')).toBe(false);
    expect(isProductCode('bff/testing.ts')).toBe(false);
    expect(isProductCode('bff/orders/testing.ts')).toBe(false);
    expect(isProductCode('bff/labels/testing/scripted-platform.ts')).toBe(false);
    expect(isProductCode('widget/package/fixtures/react/App.tsx')).toBe(false);
    expect(isProductCode('testing/servers.ts')).toBe(false);
    expect(isProductCode('scripts/test.ts')).toBe(false);
    expect(isProductCode('widget/dist/index.d.ts')).toBe(false);
    expect(isProductCode('bff/page/track.css')).toBe(false);
  });

  it('counts non-blank lines only', () => {
    expect(nonBlankLines('a\n\n  \nb\n')).toBe(2);
  });

  it('sums the folders into the total', () => {
    const counts = productLines();
    const { total, ...folders } = counts;
    expect(total).toBeGreaterThan(10_000);
    expect(Object.values(folders).reduce((sum, n) => sum + n, 0)).toBe(total);
  });
});
