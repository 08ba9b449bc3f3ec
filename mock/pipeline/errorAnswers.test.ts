import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileSchema } from '../../spec/compileSchema.ts';
import { componentSchema } from '../../spec/loadSpec.ts';
import { ApiError, errorCatalogue, type ErrorCode } from '../errors/errorCatalogue.ts';
import { testMock, testSpec, type TestMock } from '../testing.ts';

let mock: TestMock;
beforeEach(async () => {
  mock = await testMock();
});
afterEach(() => mock.app.close());

describe('unknown routes and methods', () => {
  it.each(['/', '/pets', '/v1', '/v1/', '/v2/pets', '/v1/pets/1/owner', '/favicon.ico'])('answers 404 ROUTE_NOT_FOUND with an Error body for %s', async (url) => {
    const res = await mock.call({ url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', status: 404 });
  });

  it.each([
    ['malformed JSON', 'application/json', '{bad', 'MALFORMED_JSON', 400],
    ['a __proto__ key', 'application/json', '{"__proto__":{"a":1}}', 'INVALID_BODY', 400],
    ['more bytes than the body limit', 'application/json', `"${'x'.repeat(1024 * 1024)}"`, 'PAYLOAD_TOO_LARGE', 413],
  ])('answers a body with %s on a path outside /v1 with its Error and the rate-limit headers', async (_, type, payload, code, status) => {
    const res = await mock.call({ method: 'PUT', url: '/pets', key: 'demo-free', headers: { 'content-type': type }, payload });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code, status });
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  });

  it('points a path outside /v1 to /v1', async () => {
    expect((await mock.call({ url: '/pets' })).json().message).toMatch(/under \/v1/);
  });

  it.each([
    ['DELETE', '/v1/pets', 'GET, HEAD, POST, OPTIONS'],
    ['PUT', '/v1/pets', 'GET, HEAD, POST, OPTIONS'],
    ['PATCH', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
    ['POST', '/v1/pets/1', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/v1/store/orders', 'GET, HEAD, OPTIONS'],
  ])('answers %s %s with 405 and Allow: %s', async (method, url, allow) => {
    const res = await mock.call({ method: method as 'GET', url });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 });
  });

  it('leaves OPTIONS out of Allow when CORS is off', async () => {
    await mock.app.close();
    mock = await testMock({ corsOrigins: false });
    const res = await mock.call({ method: 'OPTIONS', url: '/v1/pets' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
  });

  it('ignores a trailing slash', async () => {
    expect((await mock.call({ url: '/v1/pets/' })).statusCode).toBe(200);
  });
});

describe('bad input never gets a 5xx or HTML', () => {
  const cases: [string, Parameters<TestMock['call']>[0]][] = [
    ['a huge limit', { url: '/v1/pets?limit=99999999999999999999999' }],
    ['an encoded NUL in the path', { url: '/v1/pets/%00' }],
    ['a broken percent-encoding', { url: '/v1/pets/%E0%A4%A' }],
    ['a deeply nested body', { method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json' }, payload: `${'['.repeat(5000)}${']'.repeat(5000)}` }],
    ['invalid UTF-8', { method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json' }, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }],
    ['an unknown content encoding', { method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, payload: '{}' }],
  ];
  it.each(cases)('answers %s with a 4xx Error body', async (_, options) => {
    const res = await mock.call(options);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toEqual({ code: expect.any(String), message: expect.any(String), status: res.statusCode });
    expect(Object.keys(errorCatalogue)).toContain(body.code);
  });
});

it.each([
  '{"name":"Rex","categoryId":1,"__proto__":{"admin":true}}',
  '{"name":"Rex","categoryId":1,"constructor":{"prototype":{"admin":true}}}',
])('answers valid JSON with a prototype key (%s) as an invalid body that says so, not as malformed JSON', async (payload) => {
  const res = await mock.call({ method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json' }, payload });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'INVALID_BODY', status: 400, message: expect.stringMatching(/valid JSON.*__proto__/) });
  expect(({} as Record<string, unknown>).admin).toBeUndefined();
});

it('names what JSON.parse found in a malformed body', async () => {
  const res = await mock.call({ method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json' }, payload: '{"name": "Rex",' });
  expect(res.json()).toMatchObject({ code: 'MALFORMED_JSON', message: expect.stringMatching(/JSON/) });
});

it('names the id as sent in a 404 even when the raw URL carries a fragment and a stray %', async () => {
  const res = await mock.call({ url: '/v1/pets/999999#%' });
  expect(res.statusCode).toBe(404);
  expect(res.json()).toMatchObject({ code: 'PET_NOT_FOUND', status: 404, message: expect.stringContaining('999999') });
});

it('ignores a body sent with GET, which has no meaning there (RFC 9110, 9.3.1)', async () => {
  const res = await mock.call({ url: '/v1/pets', headers: { 'content-type': 'application/json' }, payload: '{bad' });
  expect(res.statusCode).toBe(200);
});

describe('the error catalogue', () => {
  it('gives every code a body that matches the spec\'s Error schema', async () => {
    const validate = compileSchema(componentSchema(await testSpec(), 'Error'));
    for (const code of Object.keys(errorCatalogue) as ErrorCode[]) {
      const body = new ApiError(code).toBody();
      expect(validate(body), code).toBe(true);
      expect(body.status).toBe(errorCatalogue[code].status);
    }
  });

  it('has a code for every error status the spec documents', async () => {
    const statuses = new Set<number>(Object.values(errorCatalogue).map((e) => e.status));
    for (const op of (await testSpec()).operations) {
      for (const status of Object.keys(op.operation.responses).map(Number).filter((s) => s >= 400)) {
        expect(statuses.has(status), `${op.operationId} ${status}`).toBe(true);
      }
    }
  });

  it('is the table in docs/contract-choices.md, code for code and status for status', async () => {
    const readme = await readFile(fileURLToPath(new URL('../../docs/contract-choices.md', import.meta.url)), 'utf8');
    const rows = [...readme.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(rows).toEqual(Object.entries(errorCatalogue).map(([code, { status }]) => [code, status]));
  });

  it('words every message as what failed and what to do', () => {
    for (const { message } of Object.values(errorCatalogue)) expect(message).toMatch(/\.\s.+\.$/);
  });
});
