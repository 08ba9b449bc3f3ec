import { describe, expect, it } from 'vitest';
import { MockAddress } from './mockAddress.ts';

describe('MockAddress', () => {
  it('maps the default base to the mock paths, query kept', () => {
    const address = new MockAddress();
    expect(address.baseUrl).toBe('http://127.0.0.1:4010/v1');
    expect(address.controlUrl).toBe('http://127.0.0.1:4010/__mock');
    expect(address.toMockPath('http://127.0.0.1:4010/v1/pets?limit=5&status=sold')).toBe('/v1/pets?limit=5&status=sold');
    expect(address.toMockPath('http://127.0.0.1:4010/v1')).toBe('/v1');
    expect(address.toMockPath('http://127.0.0.1:4010/__mock/reset')).toBe('/__mock/reset');
  });

  it('maps any origin and path onto /v1, with the control API beside the last segment', () => {
    const address = new MockAddress('https://api.example.com/adoption/v1/');
    expect(address.baseUrl).toBe('https://api.example.com/adoption/v1');
    expect(address.controlUrl).toBe('https://api.example.com/adoption/__mock');
    expect(address.toMockPath('https://api.example.com/adoption/v1/pets/7')).toBe('/v1/pets/7');
    expect(address.toMockPath('https://api.example.com/adoption/__mock/clock')).toBe('/__mock/clock');
    expect(address.fromMockPath('/v1/pets/7')).toBe('/adoption/v1/pets/7');
  });

  it('serves an API at the root of its origin', () => {
    const address = new MockAddress('http://localhost:8080');
    expect(address.toMockPath('http://localhost:8080/pets')).toBe('/v1/pets');
    expect(address.toMockPath('http://localhost:8080/__mock/pets')).toBe('/__mock/pets');
    expect(address.fromMockPath('/v1/pets/3')).toBe('/pets/3');
  });

  it('leaves other origins, other paths and look-alike prefixes alone', () => {
    const address = new MockAddress('http://127.0.0.1:4010/v1');
    expect(address.toMockPath('http://127.0.0.1:4011/v1/pets')).toBeUndefined();
    expect(address.toMockPath('https://127.0.0.1:4010/v1/pets')).toBeUndefined();
    expect(address.toMockPath('http://127.0.0.1:4010/v10/pets')).toBeUndefined();
    expect(address.toMockPath('http://127.0.0.1:4010/assets/app.js')).toBeUndefined();
    expect(address.toMockPath('http://127.0.0.1:4010/__mock/reset', { control: false })).toBeUndefined();
  });

  it('refuses a base it cannot serve, saying why', () => {
    expect(() => new MockAddress('/v1')).toThrow(/not an absolute URL.*jsdom/);
    expect(() => new MockAddress('ftp://example.com/v1')).toThrow(/not http\(s\)/);
    expect(() => new MockAddress('http://example.com/v1?x=1')).toThrow(/query or fragment/);
  });
});
