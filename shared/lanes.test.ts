import { describe, expect, it } from 'vitest';
import { isCapitalCep, laneOf, regionOf } from './lanes.ts';

describe('laneOf', () => {
  it.each([
    ['01310-100', { prefix: '013', uf: 'SP', area: 'capital', region: 'SE' }],
    ['08410-000', { prefix: '084', uf: 'SP', area: 'capital', region: 'SE' }],
    ['13035-680', { prefix: '130', uf: 'SP', area: 'interior', region: 'SE' }],
    ['20040-020', { prefix: '200', uf: 'RJ', area: 'capital', region: 'SE' }],
    ['24020-000', { prefix: '240', uf: 'RJ', area: 'interior', region: 'SE' }],
    ['69005-000', { prefix: '690', uf: 'AM', area: 'capital', region: 'N' }],
    ['69400-000', { prefix: '694', uf: 'AM', area: 'interior', region: 'N' }],
    ['73000-000', { prefix: '730', uf: 'DF', area: 'capital', region: 'CO' }],
    ['72800-000', { prefix: '728', uf: 'GO', area: 'interior', region: 'CO' }],
    ['90010-000', { prefix: '900', uf: 'RS', area: 'capital', region: 'S' }],
  ])('places %s', (cep, lane) => {
    expect(laneOf(cep)).toEqual(lane);
  });

  it.each(['00000-502', '0131010', '013101000', 'abc', ''])('has no lane for %j', (cep) => {
    expect(laneOf(cep)).toBeUndefined();
  });

  it('puts every capital in its own state and region', () => {
    expect(isCapitalCep('01001000')).toBe(true);
    expect(isCapitalCep('06000000')).toBe(false);
    expect(regionOf('TO')).toBe('N');
    expect(regionOf('MS')).toBe('CO');
  });
});
