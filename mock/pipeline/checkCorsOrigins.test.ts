import { describe, expect, it } from 'vitest';
import { buildMock } from '../buildMock.ts';
import { testSpec } from '../testing.ts';
import { checkCorsOrigins } from './checkCorsOrigins.ts';

const problem = (origins: string[]) => {
  try {
    checkCorsOrigins(origins, '--cors-origin');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('checking the allowed CORS origins', () => {
  it.each(['*', 'http://localhost:5173', 'https://app.example.com', 'http://127.0.0.1:3000', 'http://[::1]:5173', 'https://example.com:8443'])('accepts %s', (origin) => {
    expect(problem([origin])).toBeUndefined();
  });

  it('refuses an origin without a scheme, naming it and the origin to give', () => {
    expect(problem(['localhost:5173'])).toBe('--cors-origin: "localhost:5173" is not an origin: it has no scheme, so it would never match. Give "http://localhost:5173".');
  });

  it.each([
    ['http://localhost:5173/', 'http://localhost:5173'],
    ['http://localhost:5173/app', 'http://localhost:5173'],
    ['HTTP://LocalHost:5173', 'http://localhost:5173'],
    ['http://localhost:80', 'http://localhost'],
    ['https://example.com:443', 'https://example.com'],
    ['localhost', 'http://localhost'],
  ])('refuses %s, which a browser never sends, and shows %s', (value, fix) => {
    expect(problem([value])).toBe(`--cors-origin: ${JSON.stringify(value)} is not an origin: ${value.includes('://') ? 'a browser sends an origin as a scheme (http or https), a host and an optional port, with no path, no default port and in lower case' : 'it has no scheme'}, so it would never match. Give ${JSON.stringify(fix)}.`);
  });

  it('refuses other schemes, patterns, several origins in one value, null and empty values, saying what to do', () => {
    expect(problem(['ftp://files.example.com'])).toBe('--cors-origin: "ftp://files.example.com" is not an origin: its scheme is ftp, and a page\'s origin is http or https, so it would never match. Give an origin such as "http://localhost:5173".');
    expect(problem(['https://*.example.com'])).toMatch(/"https:\/\/\*\.example\.com" is a pattern, and only whole origins are matched\. List each origin, or give \* for any\./);
    expect(problem(['http://a.test,localhost:3000'])).toMatch(/holds several values\. Give each origin as a value of its own: "http:\/\/a\.test" "http:\/\/localhost:3000"\./);
    expect(problem(['null'])).toMatch(/"null" is the origin of file:\/\/ pages/);
    expect(problem([''])).toMatch(/"" is empty\./);
    expect(problem(['5173'])).toBe('--cors-origin: "5173" is not an origin: it has no scheme, so it would never match. Give an origin such as "http://localhost:5173".');
  });

  it('names every bad value at once', () => {
    expect(problem(['http://ok.test', 'localhost:5173', 'app.test'])).toMatch(/"localhost:5173".*"app\.test"/);
  });

  it('stops buildMock before anything starts', async () => {
    await expect(buildMock({ spec: await testSpec(), corsOrigins: ['localhost:5173'] })).rejects.toThrow('corsOrigins: "localhost:5173" is not an origin: it has no scheme, so it would never match. Give "http://localhost:5173".');
  });
});
