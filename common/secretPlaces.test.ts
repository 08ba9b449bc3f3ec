import { describe, expect, it } from 'vitest';
import { hideHeaderValue, hideKeyValues } from './secretPlaces.ts';

describe('hideKeyValues', () => {
  it('hides the value of every key-named query parameter, the rest of the URL as it was', () => {
    expect(hideKeyValues('/v1/pets?limit=5&api_key=demo-pro&status=sold')).toBe(`/v1/pets?limit=5&api_key=${encodeURIComponent('…(8)')}&status=sold`);
    for (const name of ['apikey', 'API_KEY', 'access_token', 'token', 'Key', 'api-key']) expect(hideKeyValues(`/v1/pets?${name}=abcdefghij`)).not.toContain('abcdefghij');
  });

  it('hides key-named cookies and JSON fields, whatever their spacing', () => {
    expect(hideKeyValues('api_key=demo-free; session=abc')).toBe(`api_key=${encodeURIComponent('…(9)')}; session=abc`);
    expect(hideKeyValues('{"name":"Rex","apiKey" : "demo-free","token":"t0k3n"}')).toBe('{"name":"Rex","apiKey" : "…(9)","token":"…(5)"}');
  });

  it('leaves text without a key-named value as it was, names that only contain a key word included', () => {
    expect(hideKeyValues('/v1/pets?limit=20&monkey=1')).toBe('/v1/pets?limit=20&monkey=1');
    expect(hideKeyValues('{"name":"key","keyring":"x"}')).toBe('{"name":"key","keyring":"x"}');
  });
});

describe('hideHeaderValue', () => {
  it('hides a credential header after its scheme, an API-key header whole, and leaves other headers', () => {
    expect(hideHeaderValue('Authorization', 'Token demo-business')).toBe('Token …(13)');
    expect(hideHeaderValue('x-api-key', 'demo-enterprise')).toBe('…(15)');
    expect(hideHeaderValue('cookie', 'api_key=demo-free')).toBe(`api_key=${encodeURIComponent('…(9)')}`);
    expect(hideHeaderValue('accept', 'application/json')).toBe('application/json');
  });
});
