import { afterEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;
afterEach(() => mock.app.close());

const preflight = (origin: string, url = '/v1/pets') => mock.call({
  method: 'OPTIONS',
  url,
  key: null,
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
});

async function restrictedMock() {
  const lines: string[] = [];
  const access: string[] = [];
  mock = await testMock({
    corsOrigins: ['http://localhost:5173', 'https://app.example.com'],
    logLevel: 'warn',
    logStream: { write: (text: string) => lines.push(text) },
    accessLog: (text) => access.push(text),
  });
  const warnings = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string; origin?: string; allowed?: string[] }).filter((line) => line.level === 40);
  return { warnings, access };
}

describe('a refused CORS preflight', () => {
  it('is logged as refused, with the origin and the allowed origins', async () => {
    const { warnings } = await restrictedMock();
    expect((await preflight('http://localhost:3000')).headers['access-control-allow-origin']).toBeUndefined();
    expect(warnings()).toEqual([expect.objectContaining({
      origin: 'http://localhost:3000',
      allowed: ['http://localhost:5173', 'https://app.example.com'],
      msg: 'CORS preflight refused: POST /v1/pets from the origin http://localhost:3000, which is not allowed (allowed: http://localhost:5173, https://app.example.com), so the browser will not send the request. Add the origin with --cors-origin (corsOrigins), or give * for any. Logged once a minute per origin.',
    })]);
  });

  it('is not logged when the origin is allowed, and is logged once for an origin retrying', async () => {
    const { warnings } = await restrictedMock();
    expect((await preflight('http://localhost:5173')).headers['access-control-allow-origin']).toBe('http://localhost:5173');
    for (let i = 0; i < 3; i++) await preflight('http://localhost:3000');
    await preflight('http://localhost:3000', '/__mock/reset');
    expect(warnings().map((w) => w.origin)).toEqual(['http://localhost:3000', 'http://localhost:3000']);
  });

  it('is marked cors=refused in its access-log line, which an allowed one is not', async () => {
    const { access } = await restrictedMock();
    await preflight('http://localhost:5173');
    await preflight('http://evil.test');
    await mock.app.close();
    const [allowed, refused] = access.join('').trimEnd().split('\n');
    expect(allowed).toMatch(/ OPTIONS \/v1\/pets 204 .* 127\.0\.0\.1$/);
    expect(refused).toMatch(/ OPTIONS \/v1\/pets 204 .* 127\.0\.0\.1 cors=refused$/);
  });
});
