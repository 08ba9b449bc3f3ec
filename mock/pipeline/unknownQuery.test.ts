import { afterEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;
afterEach(() => mock.app.close());

/** A mock whose log lines (JSON) the test reads. */
async function loggingMock(options: { strict?: boolean } = {}) {
  const lines: string[] = [];
  mock = await testMock({ ...options, logLevel: 'warn', logStream: { write: (text: string) => lines.push(text) } });
  const warnings = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string; ignoredQuery?: string[] }).filter((line) => line.level === 40);
  return { warnings };
}

describe('query parameters the contract does not define', () => {
  it('answers as if they were absent and names them in X-Mock-Ignored-Query', async () => {
    mock = await testMock();
    const plain = await mock.call({ url: '/v1/pets?limit=5' });
    const paged = await mock.call({ url: '/v1/pets?limit=5&offset=100&page=2' });
    expect(paged.statusCode).toBe(200);
    expect(paged.json()).toEqual(plain.json());
    expect(paged.headers['x-mock-ignored-query']).toBe('offset, page');
    expect(plain.headers['x-mock-ignored-query']).toBeUndefined();
  });

  it('names them on every operation, and on a 401 before the key is checked', async () => {
    mock = await testMock();
    expect((await mock.call({ url: '/v1/pets/1?expand=owner' })).headers['x-mock-ignored-query']).toBe('expand');
    const keyless = await mock.call({ url: '/v1/pets?cursor=abc', key: null });
    expect(keyless.statusCode).toBe(401);
    expect(keyless.headers['x-mock-ignored-query']).toBe('cursor');
  });

  it('exposes the header to pages on another origin', async () => {
    mock = await testMock();
    const res = await mock.call({ url: '/v1/pets?offset=1', headers: { origin: 'http://localhost:5173' } });
    expect(String(res.headers['access-control-expose-headers']).split(/,\s*/)).toContain('X-Mock-Ignored-Query');
  });

  it('keeps the header readable whatever the names: percent-encoded when not plain ASCII, at most 20 listed', async () => {
    mock = await testMock();
    expect((await mock.call({ url: '/v1/pets?se%C3%B1al=1&a%2Cb=2' })).headers['x-mock-ignored-query']).toBe('se%C3%B1al, a%2Cb');
    const many = Array.from({ length: 25 }, (_, i) => `p${i}=1`).join('&');
    const header = String((await mock.call({ url: `/v1/pets?${many}` })).headers['x-mock-ignored-query']);
    expect(header.split(', ')).toHaveLength(21);
    expect(header.endsWith('p19, ...')).toBe(true);
  });

  it('warns in the log naming the parameter and the ones the operation takes, once for a name sent again and again', async () => {
    const { warnings } = await loggingMock();
    for (let i = 0; i < 3; i++) await mock.call({ url: '/v1/pets?offset=100' });
    await mock.call({ url: '/v1/pets?offset=100&page=2' });
    expect(warnings().map((w) => w.ignoredQuery)).toEqual([['offset'], ['page']]);
    expect(warnings()[0]!.msg).toBe('GET /v1/pets takes only limit and status, not "offset": the contract does not define it, and the mock answers as if it were absent (--strict refuses it with 400); the answer names it in X-Mock-Ignored-Query. Logged once a minute per name.');
  });

  describe('with strict', () => {
    it('refuses them with 400 UNKNOWN_QUERY_PARAMETER, naming them and the parameters the operation takes', async () => {
      mock = await testMock({ strict: true });
      const res = await mock.call({ url: '/v1/pets?limit=5&offset=100&page=2', key: 'demo-free' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 'UNKNOWN_QUERY_PARAMETER',
        status: 400,
        message: 'The query parameters "offset", "page" are not defined for GET /v1/pets, which takes only limit and status. Remove them, or start the mock without --strict (strict: false) to have them ignored.',
      });
      expect(res.headers['x-ratelimit-remaining']).toBe('59');
      const read = await mock.call({ url: '/v1/pets/1?expand=owner' });
      expect(read.json().message).toBe('The query parameter "expand" is not defined for GET /v1/pets/1, which takes no query parameters. Remove it, or start the mock without --strict (strict: false) to have it ignored.');
    });

    it('checks the key first, and lets defined parameters through', async () => {
      mock = await testMock({ strict: true });
      expect((await mock.call({ url: '/v1/pets?offset=1', key: null })).statusCode).toBe(401);
      expect((await mock.call({ url: '/v1/pets?limit=2&status=sold' })).statusCode).toBe(200);
    });
  });
});
