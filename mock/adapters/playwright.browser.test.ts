import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useBrowserAndFrontend } from '../launchChromium.ts';
import { routePetsMock } from './playwright.ts';

let context: BrowserContext;

const chromium = useBrowserAndFrontend();
afterEach(async () => {
  vi.useRealTimers();
  await context?.close();
});

/** A page of the frontend (a real server on another origin than the API's). */
async function frontendPage(): Promise<Page> {
  context = await chromium.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${chromium.frontend.origin}/`);
  return page;
}

describe('routePetsMock', () => {
  it('passes the page origin through, so the answer carries the CORS headers the server sends', async () => {
    const page = await frontendPage();
    const mock = await routePetsMock(page, { baseUrl: 'https://pets.example.com/v1', corsOrigins: [chromium.frontend.origin] });
    const result = await page.evaluate(async () => {
      const res = await fetch('https://pets.example.com/v1/pets/1', { headers: { authorization: 'Bearer demo-business' } });
      return { status: res.status, remaining: res.headers.get('x-ratelimit-remaining'), sunset: res.headers.get('sunset'), deprecation: res.headers.get('deprecation') };
    });
    expect(result).toEqual({ status: 200, remaining: '999', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', deprecation: expect.stringMatching(/^@\d+$/) });
    expect(await mock.requests()).toMatchObject([{ method: 'GET', path: '/v1/pets/1', status: 200 }]);
  });

  it('fails a call from an origin outside corsOrigins as the browser would, though the request reaches the mock past the preflight Playwright answers', async () => {
    const page = await frontendPage();
    const mock = await routePetsMock(page, { corsOrigins: ['http://allowed.test'] });
    const outcome = await page.evaluate(async () => {
      try {
        await fetch('http://127.0.0.1:4010/v1/pets', { method: 'POST', headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' }, body: '{"name":"Sneaky","categoryId":1}' });
        return 'read';
      } catch (error) {
        return (error as Error).name;
      }
    });
    expect(outcome).toBe('TypeError');
    // The server would have refused the preflight and never seen the POST; routed, the mock stores it.
    expect((await mock.pets()).some((p) => p.name === 'Sneaky')).toBe(true);
  });

  it('answers the page and the control handle under fake timers and Date, on the instant the handle froze', async () => {
    const page = await frontendPage();
    const mock = await routePetsMock(page);
    // All but setImmediate, on which Playwright's own client passes every message to its driver
    // (in this process): faking it stops Playwright whatever the mock does. (In the page, the
    // app's timers are faked with page.clock.)
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    await mock.freezeClock('2026-06-01T12:30:45Z');
    await mock.setKey('one-a-minute', { plan: 'free', perMinute: 1 });
    const statuses = await page.evaluate(async () => {
      const get = () => fetch('http://127.0.0.1:4010/v1/pets?limit=1', { headers: { authorization: 'Bearer one-a-minute' } });
      const first = await get();
      const second = await get();
      return [first.status, second.status, second.headers.get('retry-after')];
    });
    expect(statuses).toEqual([200, 429, '15']);
    await mock.reset();
    expect((await mock.clock()).frozen).toBe(false);
  });

  it('lets the page drive the control API over HTTP, as with the server', async () => {
    const page = await frontendPage();
    const mock = await routePetsMock(page);
    await mock.freezeClock();
    const statuses = await page.evaluate(async () => {
      const headers = { authorization: 'Bearer demo-free' };
      const out: number[] = [];
      for (let i = 0; i < 61; i++) out.push((await fetch('http://127.0.0.1:4010/v1/pets?limit=1', { headers })).status);
      await fetch('http://127.0.0.1:4010/__mock/clock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceSeconds: 60 }) });
      out.push((await fetch('http://127.0.0.1:4010/v1/pets?limit=1', { headers })).status);
      return out;
    });
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 200]);
  });

  it('takes a controlToken: the handle sends it, and the page\'s control calls need it', async () => {
    const page = await frontendPage();
    const mock = await routePetsMock(page, { controlToken: 'sandbox-token' });
    await mock.freezeClock();
    const statuses = await page.evaluate(async () => {
      const clock = (headers: Record<string, string>) => fetch('http://127.0.0.1:4010/__mock/clock', { headers }).then((r) => r.status);
      return [await clock({}), await clock({ authorization: 'Bearer sandbox-token' })];
    });
    expect(statuses).toEqual([401, 200]);
    expect((await mock.clock()).frozen).toBe(true);
  });

  it('grades the page as a client: a page that asks for 500 pets and reads the deprecated getPet is named in mock.clientReport()', async () => {
    const page = await frontendPage();
    const mock = await routePetsMock(page);
    await page.evaluate(async () => {
      const headers = { authorization: 'Bearer demo-pro' };
      await fetch('http://127.0.0.1:4010/v1/pets?limit=500', { headers });
      await fetch('http://127.0.0.1:4010/v1/pets/1', { headers });
    });
    const report = await mock.clientReport('demo-pro');
    expect(report.passed).toBe(false);
    expect(report.findings.map((f) => [f.rule, f.level])).toEqual([['client.limit-range', 'failure'], ['client.deprecated', 'warning']]);
    await mock.reset();
    expect(await mock.clientReport()).toEqual({ passed: true, findings: [], deprecatedUse: [] });
  });

  it('stops routing once closed, leaving other URLs to the network', async () => {
    const page = await frontendPage();
    const mock = await routePetsMock(page, { baseUrl: `${chromium.frontend.origin}/api/v1` });
    const call = () => page.evaluate(async () => (await fetch('/api/v1/pets', { headers: { authorization: 'Bearer demo-pro' } })).status);
    expect(await call()).toBe(200);
    // The frontend's own page still comes from its server.
    expect(await page.evaluate(async () => (await fetch('/')).status)).toBe(200);
    await mock.close();
    expect(await call()).toBe(200); // now the frontend's server answers: it serves its page for any path
    expect(await page.evaluate(async () => (await fetch('/api/v1/pets')).headers.get('content-type'))).toBe('text/html');
  });

  it('gives each page of one context its own mock when routed per page', async () => {
    const page = await frontendPage();
    const other = await context.newPage();
    await routePetsMock(page);
    await routePetsMock(other);
    const create = () => fetch('http://127.0.0.1:4010/v1/pets', { method: 'POST', headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' }, body: '{"name":"Mine","categoryId":1}' }).then((r) => r.json());
    const pet = await page.evaluate(create);
    const seen = await other.evaluate(async (id) => (await fetch(`http://127.0.0.1:4010/v1/pets/${id}`, { headers: { authorization: 'Bearer demo-pro' } })).status, pet.id);
    expect(seen).toBe(404);
  });
});

describe('fault rules through Playwright routing', () => {
  it('aborts a request whose connection a rule resets, as a dropped connection fails in the browser', async () => {
    const page = await frontendPage();
    const mock = await routePetsMock(page);
    await mock.addFault({ operationId: 'listPets', action: 'reset', times: 1 });
    await mock.addFault({ operationId: 'getPet', status: 504, times: 1 });
    const list = () => page.evaluate(async () => {
      try {
        return (await fetch('http://127.0.0.1:4010/v1/pets', { headers: { authorization: 'Bearer demo-pro' } })).status;
      } catch (error) {
        return (error as Error).name;
      }
    });
    const failed = page.waitForEvent('requestfailed');
    expect(await list()).toBe('TypeError');
    expect((await failed).failure()?.errorText).toBe('net::ERR_CONNECTION_RESET');
    expect(await list()).toBe(200);
    const timeout = await page.evaluate(async () => {
      const res = await fetch('http://127.0.0.1:4010/v1/pets/1', { headers: { authorization: 'Bearer demo-pro' } });
      return { status: res.status, body: await res.json() };
    });
    expect(timeout).toMatchObject({ status: 504, body: { code: 'GATEWAY_TIMEOUT', status: 504 } });
    expect((await mock.faults()).map((f) => f.fired)).toEqual([1, 1]);
  });
});
