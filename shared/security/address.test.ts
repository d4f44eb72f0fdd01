import { describe, expect, it } from 'vitest';
import { addressKey, senderKey } from './address.ts';

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, folds IPv6 to its /64 and refuses anything else', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('not-an-ip')).toBeUndefined();
    expect(addressKey('203.0.113.7, 10.0.0.1')).toBeUndefined();
    expect(addressKey('')).toBeUndefined();
  });

  it('unwraps only a whole IPv4-mapped address, in either case, with any octet widths', () => {
    expect(addressKey('::FFFF:198.51.100.23')).toBe('198.51.100.23');
    // an IPv6 address that merely ends in a dotted quad is a /64 like any other
    expect(addressKey('2001:db8::ffff:203.0.113.7')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::ffff:203.0.113.7/24')).toBeUndefined();
    expect(addressKey('::ffff:999.1.1.1')).toBeUndefined();
  });

  it('expands a compressed IPv6 address in the right place before taking its /64', () => {
    expect(addressKey('2001::2:3:4:5:6:7')).toBe('2001:0:2:3::/64');
    expect(addressKey('2001:db8:a::1')).toBe('2001:db8:a:0::/64');
    expect(addressKey('2001:DB8:0001:0002::1')).toBe('2001:db8:1:2::/64');
  });

  it('counts a request by its valid req.ip, else by its socket, never by a forwarded string', () => {
    expect(senderKey({ ip: '2001:db8:1:2::9', socket: { remoteAddress: '127.0.0.1' } })).toBe(
      '2001:db8:1:2::/64',
    );
    expect(senderKey({ ip: 'evil, 1.2.3.4', socket: { remoteAddress: '::ffff:127.0.0.1' } })).toBe(
      '127.0.0.1',
    );
    expect(senderKey({ socket: {} })).toBe('unknown');
  });
});
