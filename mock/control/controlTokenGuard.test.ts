// The control API behind a token (issue 17): a shared sandbox is not open to everyone.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildMock } from '../buildMock.ts';
import { testMock, testSpec, type TestMock } from '../testing.ts';

const token = 'c0ntrol-t0ken_for.tests~42';

let mock: TestMock;
beforeEach(async () => {
  mock = await testMock({ controlToken: token });
});
afterEach(() => mock.app.close());

const control = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' | 'OPTIONS' = 'GET') => mock.app.inject({ method, url: `/__mock${url}`, headers });

describe('the control API with a control token', () => {
  it('refuses a request without the token with 401 CONTROL_TOKEN_REQUIRED, saying what to send, and changes nothing', async () => {
    await mock.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Kept', categoryId: 1 } });
    const res = await control('/reset', {}, 'POST');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'CONTROL_TOKEN_REQUIRED', status: 401, message: expect.stringContaining('Send "Authorization: Bearer <token>" with the token the mock was started with (--control-token or PETS_MOCK_CONTROL_TOKEN)') });
    expect(res.json().message).toMatch(/^The control API needs a token and the request has no Authorization header\./);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="pets-mock control"');
    expect((await mock.call({ url: '/v1/pets/61' })).json()).toMatchObject({ name: 'Kept' });
  });

  it('refuses a wrong token with 401 CONTROL_TOKEN_INVALID, showing it only redacted', async () => {
    const res = await control('/requests', { authorization: `Bearer ${token}x` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'CONTROL_TOKEN_INVALID', status: 401 });
    expect(res.json().message).toMatch(/^The control token sent \(c0nt…\(27\)\) is not the one the mock was started with\. Send /);
    expect(res.body).not.toContain(token);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="pets-mock control", error="invalid_token"');
  });

  it('refuses another scheme and a malformed header, naming what was wrong', async () => {
    const basic = await control('/clock', { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` });
    expect(basic.statusCode).toBe(401);
    expect(basic.json()).toMatchObject({ code: 'CONTROL_TOKEN_REQUIRED', message: expect.stringMatching(/^The Authorization header uses the "Basic" scheme; the control API takes a bearer token\./) });
    const malformed = await control('/clock', { authorization: `Bearer "${token}"` });
    expect(malformed.json()).toMatchObject({ code: 'CONTROL_TOKEN_REQUIRED', message: expect.stringMatching(/^The Authorization header is malformed\./) });
    expect(malformed.headers['www-authenticate']).toBe('Bearer realm="pets-mock control", error="invalid_request"');
  });

  it('serves a request with the token, the scheme in any case (RFC 9110, 11.1)', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const res = await control('/clock', { authorization: `${scheme} ${token}` });
      expect(res.statusCode, scheme).toBe(200);
      expect(res.json()).toMatchObject({ frozen: false });
    }
    expect((await control('/reset', { authorization: `Bearer ${token}` }, 'POST')).statusCode).toBe(200);
  });

  it('hides even which control routes exist from a request without the token', async () => {
    expect((await control('/no-such-route')).json()).toMatchObject({ code: 'CONTROL_TOKEN_REQUIRED', status: 401 });
    expect((await control('/no-such-route', { authorization: `Bearer ${token}` })).json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', status: 404 });
  });

  it('leaves the API as it is: /v1 takes API keys, not the control token', async () => {
    expect((await mock.call({ url: '/v1/pets?limit=1', key: 'demo-pro' })).statusCode).toBe(200);
    expect((await mock.call({ url: '/v1/pets?limit=1', key: null })).json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await mock.call({ url: '/v1/pets?limit=1', key: token })).json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('answers a CORS preflight without the token, and lets a page read the 401 and its WWW-Authenticate', async () => {
    const origin = 'http://app.test';
    const preflight = await control('/reset', { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' }, 'OPTIONS');
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    const refused = await control('/reset', { origin }, 'POST');
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect(String(refused.headers['access-control-expose-headers'])).toContain('WWW-Authenticate');
  });

  it('stays open without a token, as for local use', async () => {
    await mock.app.close();
    mock = await testMock();
    expect((await control('/clock')).statusCode).toBe(200);
  });

  it('refuses to build with a token no client could send as a bearer token, before opening any state', async () => {
    await expect(buildMock({ spec: await testSpec(), controlToken: 'has spaces' })).rejects.toThrow(/^controlToken \(10 characters\) has characters a bearer token cannot carry\. Use letters, digits/);
    await expect(buildMock({ spec: await testSpec(), controlToken: '' })).rejects.toThrow(/^controlToken is empty\./);
  });
});
