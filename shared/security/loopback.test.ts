import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, isLoopbackHostname, isLoopbackUrl } from './loopback.ts';

describe('isLoopbackHostname', () => {
  it('names this machine: localhost, 127.0.0.0/8 and [::1], in any case', () => {
    for (const name of [
      'localhost',
      'LOCALHOST',
      '127.0.0.1',
      '127.1.2.3',
      '127.255.255.255',
      '[::1]',
      '::1',
    ]) {
      expect(isLoopbackHostname(name)).toBe(true);
    }
  });

  it('does not count look-alikes, other addresses or names that merely start like one', () => {
    for (const name of [
      '127.0.0.1.evil.example',
      '127.evil.example',
      '127.0.0',
      '127.0.0.256',
      '128.0.0.1',
      '0.0.0.0',
      '::',
      '[::2]',
      'localhost.evil.example',
      'evil-localhost',
      '',
    ]) {
      expect(isLoopbackHostname(name)).toBe(false);
    }
  });
});

describe('isLoopbackUrl', () => {
  it('counts a URL whose host is this machine, and nothing that is no URL', () => {
    for (const url of ['http://127.0.0.1:4010', 'https://localhost/x', 'http://[::1]:4000/demo/'])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of ['https://loja.example', 'http://127.0.0.1.example', 'http://[::2]/', '127.0.0.1', ''])
      expect(isLoopbackUrl(url), url).toBe(false);
  });
});

describe('isLoopbackAddress', () => {
  it('counts the loopback address a local client connects from, in IPv4, IPv6 and IPv4-mapped form', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
  });

  it('counts nothing else, nor a missing address', () => {
    for (const address of [
      '127.0.0.2',
      '10.0.0.5',
      '192.168.1.2',
      '::ffff:10.0.0.1',
      '::',
      'localhost',
      undefined,
    ]) {
      expect(isLoopbackAddress(address)).toBe(false);
    }
  });
});
