import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from './parseTrustProxy.ts';

describe('parseTrustProxy', () => {
  it('reads a number of proxy hops', () => {
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy(' 2 ')).toBe(2);
  });

  it('reads a list of addresses, CIDR ranges and named ranges', () => {
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1,fd00::/8,loopback')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback']);
  });

  it.each(['0', '101', 'true', '', 'nginx', '10.0.0.0/33', '300.1.1.1', '10.0.0.0/8/1', '::1/129'])('refuses %j, saying what to give', (value) => {
    expect(() => parseTrustProxy(value)).toThrow(/neither a number of proxy hops from 1 to 100 nor a list of proxy addresses\. Give for example 1/);
  });
});
