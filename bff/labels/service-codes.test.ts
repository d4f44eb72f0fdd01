import { describe, expect, it } from 'vitest';
import { ServiceCodes } from './service-codes.ts';

/** From quote to label (spec 2.2): a quote's serviceId to the carrier's contract code, and back; every answer exact. */
describe('ServiceCodes', () => {
  const mapped = new ServiceCodes({ 'correios-pac': '03298', 'correios-sedex': '03220' });
  const KNOWN = 'Mapped services (serviceId → serviceCode): correios-pac → 03298, correios-sedex → 03220.';
  const unmapped = new ServiceCodes({});
  const ANY = 'Give the carrier contract code (5 digits, e.g. "03298" for PAC, "03220" for SEDEX).';

  it('adds the contract code to the rates whose service it maps, and leaves the others as they are', () => {
    const rates = [
      { serviceId: 'correios-pac', price: 1 },
      { serviceId: 'jadlog', price: 2 },
    ];
    expect(mapped.withCodes(rates)).toEqual([
      { serviceId: 'correios-pac', price: 1, serviceCode: '03298' },
      { serviceId: 'jadlog', price: 2 },
    ]);
    expect(mapped.codeOf('correios-sedex')).toBe('03220');
    expect(mapped.codeOf('jadlog')).toBeUndefined();
    expect(mapped.idOf('03220')).toBe('correios-sedex');
    expect(mapped.idOf('03298')).toBe('correios-pac');
    expect(mapped.idOf('03140')).toBeUndefined();
  });

  it('resolves a serviceId, a contract code (trimmed), or both when they agree', () => {
    expect(mapped.resolve({ serviceId: 'correios-pac' })).toEqual({
      ok: true,
      serviceCode: '03298',
      serviceId: 'correios-pac',
    });
    expect(mapped.resolve({ serviceCode: ' 03220 ' })).toEqual({
      ok: true,
      serviceCode: '03220',
      serviceId: 'correios-sedex',
    });
    expect(mapped.resolve({ serviceId: 'correios-pac', serviceCode: '03298' })).toEqual({
      ok: true,
      serviceCode: '03298',
      serviceId: 'correios-pac',
    });
    expect(unmapped.resolve({ serviceCode: '03140' })).toEqual({
      ok: true,
      serviceCode: '03140',
      serviceId: undefined,
    });
  });

  it('refuses an unmapped serviceId, a contradicting pair and a code that is not the store’s, listing its services', () => {
    expect(mapped.resolve({ serviceId: 'jadlog' })).toEqual({
      ok: false,
      message: `serviceId "jadlog" is not one of this store's services. ${KNOWN}`,
    });
    expect(mapped.resolve({ serviceId: 'correios-pac', serviceCode: '03220' })).toEqual({
      ok: false,
      message: `serviceId "correios-pac" is contract code 03298, not "03220": give one of the two. ${KNOWN}`,
    });
    for (const serviceCode of ['PAC', '3298', '032980', '03140']) {
      expect(mapped.resolve({ serviceCode })).toEqual({
        ok: false,
        message: `"${serviceCode}" is not a contract product code of this store (a presentation name such as "PAC" or "SEDEX" is not one). ${KNOWN}`,
      });
    }
    expect(unmapped.resolve({})).toEqual({
      ok: false,
      message: `"" is not a contract product code of this store (a presentation name such as "PAC" or "SEDEX" is not one). ${ANY}`,
    });
    expect(unmapped.resolve({ serviceId: 'correios-pac' })).toEqual({
      ok: false,
      message: `serviceId "correios-pac" is not one of this store's services. ${ANY}`,
    });
  });
});
