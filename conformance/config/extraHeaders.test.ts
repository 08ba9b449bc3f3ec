import { describe, expect, it } from 'vitest';
import { headerMap, parseHeader } from './extraHeaders.ts';

describe('--header', () => {
  it('reads "Name: value" into a lower-case name and a trimmed value, a later one winning', () => {
    expect(parseHeader('X-Tenant:  acme ')).toEqual(['x-tenant', 'acme']);
    expect(parseHeader('X-Empty:')).toEqual(['x-empty', '']);
    expect(parseHeader('X-Url: https://a.example/b')).toEqual(['x-url', 'https://a.example/b']);
    expect(headerMap(['X-Tenant: a', 'x-tenant: b', 'X-Waf: t'])).toEqual({ 'x-tenant': 'b', 'x-waf': 't' });
  });

  it('refuses Authorization, in any case, and says the key has its own option', () => {
    for (const line of ['Authorization: Bearer x', 'authorization: Basic eA==']) {
      expect(() => parseHeader(line)).toThrow(/cannot be set with --header\. The API key has its own option: give it with --api-key or PETS_API_KEY/);
    }
  });

  it.each([
    ['X-Tenant acme', /is not a header\. Give it as "Name: value"/],
    [': acme', /is not a header/],
    ['X Tenant: acme', /"X Tenant" is not a valid header name/],
    ['Host: evil.example', /The HTTP client sets Host from --base-url/],
    ['Content-Length: 5', /cannot be set with --header/],
  ])('refuses %j with a reason', (line, reason) => {
    expect(() => parseHeader(line)).toThrow(reason);
  });
});
