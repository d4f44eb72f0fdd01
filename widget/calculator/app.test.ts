import { afterEach, describe, expect, it, vi } from 'vitest';
import { lightestOf } from './app.tsx';

afterEach(() => vi.restoreAllMocks());

describe('lightestOf (the variants attribute)', () => {
  it('takes the lightest variant, one unit of it, whatever quantity the store wrote', () => {
    const variants = [
      { name: 'G', unitPriceBRL: 89.9, weightKg: 0.5 },
      { name: 'P', unitPriceBRL: 79.9, weightKg: 0.25, quantity: 3, sku: 'CAM-P' },
      { name: 'M', unitPriceBRL: 84.9, weightKg: 0.4 },
    ];
    expect(lightestOf(JSON.stringify(variants))).toEqual({
      name: 'P',
      quantity: 1,
      unitPriceBRL: 79.9,
      weightKg: 0.25,
    });
  });

  it('gives nothing without the attribute, and warns once for a list it cannot take', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(lightestOf(null)).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
    for (const text of ['[]', 'not json', '{}', '[{"name":"P","unitPriceBRL":-1,"weightKg":0.2}]', 'null'])
      expect(lightestOf(text), text).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(5);
  });
});
