import { describe, expect, test } from 'vitest';
import { hideKeyValues, isKeyName } from '../../common/secretPlaces.ts';
import { redactUrl } from './redactUrl.ts';

describe('redactUrl', () => {
  test('a key in a key-like query parameter is redacted, the rest kept as sent', () => {
    expect(redactUrl('/v1/pets?limit=5&api_key=demo-pro-secret&status=sold')).toBe(`/v1/pets?limit=5&api_key=${encodeURIComponent('demo…(15)')}&status=sold`);
  });
  test('every spelling of a key parameter is redacted, its name in any case or percent-encoded', () => {
    for (const name of ['apikey', 'API_KEY', 'access_token', 'token', 'Key', 'api%5Fkey']) {
      expect(redactUrl(`/v1/pets?${name}=abcdefghij`)).not.toContain('abcdefghij');
    }
  });
  test('hides every name the toolkit\'s one list of key names holds (common/secretPlaces.ts), as the proxy\'s and the suite\'s reports do', () => {
    for (const name of ['api-key', 'auth_token', 'accessToken', 'secret', 'password']) {
      expect(isKeyName(name), name).toBe(true);
      expect(redactUrl(`/v1/pets?${name}=abcdefghij`), name).not.toContain('abcdefghij');
      expect(hideKeyValues(`/v1/pets?${name}=abcdefghij`), name).not.toContain('abcdefghij');
    }
  });
  test('a URL without a key-like parameter is returned unchanged', () => {
    expect(redactUrl('/v1/pets?limit=20&status=available')).toBe('/v1/pets?limit=20&status=available');
    expect(redactUrl('/v1/pets?monkey=1')).toBe('/v1/pets?monkey=1');
  });
});

describe('a key sent in the query string', () => {
  test('is written in clear neither to the access log, the request log nor the client report', async () => {
    const { testMock } = await import('../testing.ts');
    let accessLog = '';
    const mock = await testMock({ accessLog: (text) => (accessLog += text) });
    try {
      for (const url of ['/v1/pets?api_key=demo-pro', '/v1/pets?limit=2&access_token=demo-business']) {
        expect((await mock.call({ url, key: null })).statusCode).toBe(401);
      }
      expect((await mock.call({ url: '/v1/pets?key=demo-free', key: 'demo-pro' })).statusCode).toBe(200);
      const requests = (await mock.app.inject({ url: '/__mock/requests' })).body;
      const report = (await mock.app.inject({ url: '/__mock/client-report' })).body;
      await mock.app.close();
      expect(requests).toContain('"api_key":"demo…(8)"');
      for (const written of [accessLog, requests, report]) {
        for (const key of ['demo-pro', 'demo-business', 'demo-free']) expect(written).not.toContain(key);
      }
    } finally {
      await mock.app.close();
    }
  });
});
