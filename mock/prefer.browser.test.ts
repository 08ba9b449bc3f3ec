import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, serveFrontendPage } from './launchChromium.ts';
import { testMock, type TestMock } from './testing.ts';

let browser: Browser;
let frontend: Awaited<ReturnType<typeof serveFrontendPage>>;
let mock: TestMock;

beforeAll(async () => {
  browser = await launchChromium();
  frontend = await serveFrontendPage();
  mock = await testMock();
});
afterAll(async () => {
  await browser?.close();
  await frontend?.close();
  await mock?.app.close();
});

it('lets a page render its 429 screen with Prefer: code=429 and read Retry-After', async () => {
  const base = `${await mock.app.listen({ host: '127.0.0.1', port: 0 })}/v1`;
  mock.clock.advance(45_000);
  const page = await browser.newPage();
  await page.goto(`${frontend.origin}/`);
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
  expect(seen).toMatchObject({ status: 429, body: { status: 429 }, retryAfter: '15', remaining: '59', applied: 'code=429' });
  expect(seen.text).toBe('Too many requests: try again in 15 s');
});
