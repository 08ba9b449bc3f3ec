// The frontend guide's (docs/frontend.md) Playwright example, run as it is printed (only the import of the adapter differs).
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { routePetsMock } from '../playwright.ts';

const api = 'http://127.0.0.1:4010/v1'; // what the app calls; nothing listens there
const app = 'http://app.test'; // the app's own origin: another origin than the API's

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', // or leave out for Playwright's own browser
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'],
  });
});
afterAll(() => browser.close());

beforeEach(async () => {
  context = await browser.newContext();
  await routePetsMock(context); // this context gets a mock of its own
  // Your dev server would serve the app; here a route serves a blank page on its origin.
  await context.route(`${app}/`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }));
  page = await context.newPage();
  await page.goto(`${app}/`);
});
afterEach(() => context.close());

it('lists, creates and reads back from another origin, and reads X-RateLimit-Remaining', async () => {
  const result = await page.evaluate(async (api) => {
    const headers = { authorization: 'Bearer demo-free', 'content-type': 'application/json' };
    const list = await fetch(`${api}/pets?limit=3`, { headers });
    const created = await fetch(`${api}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }) });
    const pet = await created.json();
    const read = await fetch(`${api}/pets/${pet.id}`, { headers });
    return { listed: (await list.json()).length, created: created.status, readBack: await read.json(), remaining: read.headers.get('x-ratelimit-remaining') };
  }, api);
  expect(result.listed).toBe(3);
  expect(result.created).toBe(201);
  expect(result.readBack).toMatchObject({ name: 'Biscuit', categoryId: 2 });
  expect(result.remaining).toBe('57'); // demo-free: 60 a minute, three spent
});

it('answers 401 with an Error body without a key', async () => {
  const result = await page.evaluate(async (api) => {
    const res = await fetch(`${api}/pets`);
    return { status: res.status, body: await res.json() };
  }, api);
  expect(result).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED', status: 401 } });
});

it('keeps each browser context apart', async () => {
  const create = (api: string) => fetch(`${api}/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Only here', categoryId: 1 }),
  }).then((res) => res.json());
  const pet = await page.evaluate(create, api);

  const other = await browser.newContext();
  await routePetsMock(other);
  const otherPage = await other.newPage();
  const status = await otherPage.evaluate(async ([api, id]) => (await fetch(`${api}/pets/${id}`, { headers: { authorization: 'Bearer demo-pro' } })).status, [api, pet.id] as const);
  await other.close();
  expect(status).toBe(404);
});
