import { afterEach, describe, expect, it } from 'vitest';
import { useBrowserAndFrontend } from '../launchChromium.ts';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;

const chromium = useBrowserAndFrontend();
afterEach(() => mock?.app.close());

async function openFrontend(options: Parameters<typeof testMock>[0] = {}) {
  mock = await testMock(options);
  const base = `${await mock.app.listen({ host: '127.0.0.1', port: 0 })}/v1`;
  const page = await chromium.browser.newPage();
  await page.goto(`${chromium.frontend.origin}/`);
  return { page, base };
}

describe('a page on another origin, in Chromium', () => {
  it('lists pets, creates one, reads it back and reads X-RateLimit-Remaining', async () => {
    const { page, base } = await openFrontend();
    const result = await page.evaluate(async (api) => {
      const headers = { authorization: 'Bearer demo-free' };
      const list = await fetch(`${api}/pets?limit=5`, { headers });
      const pets = await list.json();
      const created = await fetch(`${api}/pets`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Biscuit', categoryId: 2, status: 'pending' }),
      });
      const pet = await created.json();
      const read = await fetch(`${api}/pets/${pet.id}`, { headers });
      return {
        origin: location.origin,
        listed: pets.length,
        createdStatus: created.status,
        location: created.headers.get('location'),
        readBack: await read.json(),
        sunset: read.headers.get('sunset'),
        remaining: read.headers.get('x-ratelimit-remaining'),
        limit: read.headers.get('x-ratelimit-limit'),
      };
    }, base);
    expect(result.origin).not.toBe(new URL(base).origin);
    expect(result.listed).toBe(5);
    expect(result.createdStatus).toBe(201);
    expect(result.location).toBe(`/v1/pets/${result.readBack.id}`);
    expect(result.readBack).toMatchObject({ name: 'Biscuit', categoryId: 2, status: 'pending' });
    expect(result.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(result.limit).toBe('60');
    expect(result.remaining).toBe('57');
  });

  it('can read a 401 Error body from the page', async () => {
    const { page, base } = await openFrontend();
    const result = await page.evaluate(async (api) => {
      const res = await fetch(`${api}/pets`, { headers: { authorization: 'Bearer wrong' } });
      return { status: res.status, body: await res.json(), remaining: res.headers.get('x-ratelimit-remaining') };
    }, base);
    expect(result).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', status: 401 }, remaining: '59' });
  });

  it('is blocked by the browser when its origin is not allowed', async () => {
    const { page, base } = await openFrontend({ corsOrigins: ['http://allowed.test'] });
    const outcome = await page.evaluate(async (api) => {
      try {
        await fetch(`${api}/pets`, { headers: { authorization: 'Bearer demo-free' } });
        return 'fetched';
      } catch (error) {
        return (error as Error).name;
      }
    }, base);
    expect(outcome).toBe('TypeError');
  });
});

describe('a page rendering its error states, in Chromium', () => {
  it('renders its 429 screen with Prefer: code=429 and reads Retry-After', async () => {
    const { page, base } = await openFrontend();
    mock.clock.advance(45_000);
    const seen = await page.evaluate(async (api) => {
      const res = await fetch(`${api}/pets`, { headers: { authorization: 'Bearer demo-free', prefer: 'code=429' } });
      const body = await res.json();
      document.body.textContent = `Too many requests: try again in ${res.headers.get('retry-after')} s`;
      return {
        status: res.status,
        body,
        retryAfter: res.headers.get('retry-after'),
        remaining: res.headers.get('x-ratelimit-remaining'),
        applied: res.headers.get('preference-applied'),
        text: document.body.textContent,
      };
    }, base);
    expect(seen).toMatchObject({ status: 429, body: { status: 429 }, retryAfter: '15', remaining: '0', applied: 'code=429' });
    expect(seen.text).toBe('Too many requests: try again in 15 s');
  });
});
