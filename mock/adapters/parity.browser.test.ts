// One behaviour, three surfaces: the same script against the HTTP server, the MSW handlers and the
// Playwright routing must give the same statuses, headers and bodies.
import { setupServer } from 'msw/node';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, startMockServer } from '../index.ts';
import { useBrowserAndFrontend } from '../launchChromium.ts';
import { createPetsHandlers } from './msw.ts';
import { routePetsMock } from './playwright.ts';
import { serveBrowserPage } from '../testing/serveBrowserPage.ts';

/** The headers the issue lists, plus the type; all are ones a cross-origin page may read. */
const compared = ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'www-authenticate', 'retry-after', 'location', 'deprecation', 'sunset', 'preference-applied'];

interface Sent { method: string; url: string; headers: Record<string, string>; body?: string }
interface Seen { status: number; headers: Record<string, string | null>; body: unknown }
type Send = (request: Sent) => Promise<Seen>;

// Every surface runs on a clock standing at the same instant, so windows, Reset and Retry-After agree.
const start = Date.UTC(2026, 5, 1, 12, 30, 0);

async function observe(res: Response): Promise<Seen> {
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(compared.map((h) => [h, res.headers.get(h)])), body: text ? JSON.parse(text) : null };
}

/** The scripted session, sent through `send` to a mock whose API is at `api` and control API at `control`. */
async function runScript(send: Send, api: string, control: string): Promise<[string, Seen][]> {
  const seen: [string, Seen][] = [];
  const step = async (name: string, request: Sent) => {
    const answer = await send(request);
    seen.push([name, answer]);
    return answer;
  };
  const as = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });
  const json = { 'content-type': 'application/json' };

  await step('freeze the clock', { method: 'POST', url: `${control}/clock`, headers: json, body: '{"freeze":true}' });
  await step('list', { method: 'GET', url: `${api}/pets?limit=5&status=available`, headers: as('demo-pro') });
  const created = await step('create', { method: 'POST', url: `${api}/pets`, headers: as('demo-pro', json), body: JSON.stringify({ name: 'Parity', categoryId: 3, status: 'pending' }) });
  await step('read back', { method: 'GET', url: `${api}/pets/${(created.body as { id: number }).id}`, headers: as('demo-pro') });
  await step('bad body', { method: 'POST', url: `${api}/pets`, headers: as('demo-pro', json), body: JSON.stringify({ name: 'Parity', categoryId: '3' }) });
  await step('no key', { method: 'GET', url: `${api}/pets`, headers: {} });
  for (let i = 1; i <= 60; i++) await step(`free request ${i}`, { method: 'GET', url: `${api}/pets?limit=1`, headers: as('demo-free') });
  await step('free request 61', { method: 'GET', url: `${api}/pets?limit=1`, headers: as('demo-free') });
  await step('advance the clock', { method: 'POST', url: `${control}/clock`, headers: json, body: '{"advanceSeconds":60}' });
  await step('free request after the minute', { method: 'GET', url: `${api}/pets?limit=1`, headers: as('demo-free') });
  await step('Prefer: code=404', { method: 'GET', url: `${api}/pets/1`, headers: as('demo-pro', { prefer: 'code=404' }) });
  await step('unknown route', { method: 'GET', url: `${api}/owners`, headers: as('demo-pro') });
  await step('wrong method', { method: 'DELETE', url: `${api}/pets/1`, headers: as('demo-pro') });
  await step('Prefer: code=500', { method: 'GET', url: `${api}/pets`, headers: as('demo-pro', { prefer: 'code=500' }) });
  await step('add a fault rule', { method: 'POST', url: `${control}/faults`, headers: json, body: JSON.stringify({ operationId: 'createPet', status: 503, times: 1 }) });
  await step('create meets the fault', { method: 'POST', url: `${api}/pets`, headers: as('demo-pro', json), body: JSON.stringify({ name: 'Faulted', categoryId: 1 }) });
  await step('create after the fault', { method: 'POST', url: `${api}/pets`, headers: as('demo-pro', json), body: JSON.stringify({ name: 'After', categoryId: 1 }) });
  await step('list after creating', { method: 'GET', url: `${api}/pets?limit=2`, headers: as('demo-pro') });
  return seen;
}

const nodeFetch: Send = async ({ method, url, headers, body }) => observe(await fetch(url, { method, headers, ...(body ? { body } : {}) }));

let reference: [string, Seen][];
const chromium = useBrowserAndFrontend();

/** The reference after the browser example's own first request (it lists five pets on load). */
let referenceAfterPageLoad: [string, Seen][];

beforeAll(async () => {
  for (const pageLoad of [false, true]) {
    const server = await startMockServer({ host: '127.0.0.1', port: 0, clock: new ManualClock(start) });
    try {
      if (pageLoad) await fetch(`${server.url}/pets?limit=5`, { headers: { authorization: 'Bearer demo-pro' } });
      const seen = await runScript(nodeFetch, server.url, server.url.replace(/\/v1$/, '/__mock'));
      if (pageLoad) referenceAfterPageLoad = seen;
      else reference = seen;
    } finally {
      await server.close();
    }
  }
});

describe('one script, three surfaces', () => {
  it('is a script that meets every state: the HTTP server answers it as expected', () => {
    const status = (name: string) => reference.find(([n]) => n === name)?.[1].status;
    expect(['list', 'create', 'read back', 'bad body', 'no key'].map(status)).toEqual([200, 201, 200, 400, 401]);
    expect(reference.filter(([n]) => n.startsWith('free request ')).map(([, s]) => s.status)).toEqual([...Array(60).fill(200), 429, 200]);
    expect(['Prefer: code=404', 'unknown route', 'wrong method', 'Prefer: code=500'].map(status)).toEqual([404, 404, 405, 500]);
    expect(['create meets the fault', 'create after the fault', 'list after creating'].map(status)).toEqual([503, 201, 200]);
    expect((reference.find(([n]) => n === 'list after creating')![1].body as { name: string }[]).map((pet) => pet.name)).toEqual(['After', 'Parity']);
    const throttled = reference.find(([n]) => n === 'free request 61')![1];
    expect(throttled.headers['retry-after']).toBe('60');
    expect(reference.find(([n]) => n === 'no key')![1].headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('the MSW handlers answer it exactly as the HTTP server does', async () => {
    const { handlers } = await createPetsHandlers({ clock: new ManualClock(start) });
    const msw = setupServer(...handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const seen = await runScript(nodeFetch, 'http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/__mock');
      expect(seen).toEqual(reference);
    } finally {
      msw.close();
    }
  });

  it('the Playwright routing answers it exactly as the HTTP server does, to a page on another origin', async () => {
    const context = await chromium.browser.newContext();
    try {
      await routePetsMock(context, { clock: new ManualClock(start) });
      const page: Page = await context.newPage();
      await page.goto(`${chromium.frontend.origin}/`);
      const inPage: Send = (request) => page.evaluate(async ({ request, compared }) => {
        const res = await fetch(request.url, { method: request.method, headers: request.headers, ...(request.body ? { body: request.body } : {}) });
        const text = await res.text();
        return { status: res.status, headers: Object.fromEntries(compared.map((h) => [h, res.headers.get(h)])), body: text ? JSON.parse(text) : null };
      }, { request, compared });
      const seen = await runScript(inPage, 'http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/__mock');
      expect(seen).toEqual(reference);
    } finally {
      await context.close();
    }
  });

  it('MSW in the browser (setupWorker, in a page Vite built) answers it exactly as the HTTP server does', async () => {
    const page = await serveBrowserPage();
    const context = await chromium.browser.newContext();
    try {
      const tab: Page = await context.newPage();
      await tab.goto(`${page.origin}/?clock=${start}`);
      await tab.waitForFunction(() => (window as { petsMockReady?: boolean }).petsMockReady === true);
      // The page itself listed pets through the worker, as the example shows.
      expect(await tab.locator('#pets li').count()).toBe(5);
      const inPage: Send = (request) => tab.evaluate(async ({ request, compared }) => {
        const res = await fetch(request.url, { method: request.method, headers: request.headers, ...(request.body ? { body: request.body } : {}) });
        const text = await res.text();
        return { status: res.status, headers: Object.fromEntries(compared.map((h) => [h, res.headers.get(h)])), body: text ? JSON.parse(text) : null };
      }, { request, compared });
      // The page listed once before the script: the same request, made first, on the server's side too.
      const seen = await runScript(inPage, `${page.origin}/v1`, `${page.origin}/__mock`);
      expect(seen).toEqual(referenceAfterPageLoad);
    } finally {
      await context.close();
      await page.close();
    }
  });
});
