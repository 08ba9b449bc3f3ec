// Every host behaves alike: one script (parityTraffic.ts: the contract's answers one request at a
// time, fault rules, the clock, then polite and impolite clients one request at a time and several
// at once, then the client reports) sent through every host, from a page on another origin or as
// one, must give the same answers and the same reports, byte for byte. What is not compared, and
// why: the Date header (not exposed to a page on another origin; that every host dates its answers
// on the mock's clock is held by dateOnMockClock.test.ts), headers a page on another origin cannot
// read (the compared ones are those the mock exposes, so CORS is held: a host that did not expose
// one would show null), and the order of the answers to requests sent at once (which of them got
// the window's last request is the host's to decide: they are compared as a set). Every host
// serves the API at /v1 and the control API at /__mock of its origin, so Location and the
// reports' paths are the same.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import type { BrowserContext, Page } from 'playwright-core';
import { createServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMock, ManualClock, startMockServer } from '../index.ts';
import { useBrowserAndFrontend } from '../launchChromium.ts';
import { serveBrowserPage } from '../testing/serveBrowserPage.ts';
import type { ClientReport } from '../clientReport/gradeClients.ts';
import { createPetsHandlers } from './msw.ts';
import { routePetsMock } from './playwright.ts';
import petsMock from './vite.ts';
import { comparedHeaders, parityClients, parityStart, runParityTraffic, type Seen, type Send, type Sent, type Trace } from './parityTraffic.ts';

const chromium = useBrowserAndFrontend();
/** Where MSW and Playwright answer: nothing listens there. */
const inProcessOrigin = 'http://127.0.0.1:4010';
const networkError: Seen = { status: 'network error', headers: {}, body: '' };
/** Response headers a page reads whatever Access-Control-Expose-Headers says (Fetch standard, CORS-safelisted response-header names). */
const safelisted = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

/** An answer read as Chromium lets a page on `origin` read it: refused without Access-Control-Allow-Origin for it, and only the headers it exposes. */
function asPageOn(origin: string, status: number, header: (name: string) => string | undefined, body: string): Seen {
  const allowed = header('access-control-allow-origin');
  if (allowed !== '*' && allowed !== origin) return networkError;
  const exposed = new Set((header('access-control-expose-headers') ?? '').split(',').map((name) => name.trim().toLowerCase()));
  return { status, headers: Object.fromEntries(comparedHeaders.map((name) => [name, safelisted.has(name) || exposed.has(name) ? (header(name) ?? null) : null])), body };
}

/** Sends `first` alone, then `requests` at once, through `fetchOne`. */
const inTurn = (fetchOne: (request: Sent) => Promise<Seen>): Send => async (requests, first) => {
  const before = first ? [await fetchOne(first)] : [];
  return [...before, ...(await Promise.all(requests.map(fetchOne)))];
};

/** Node's fetch, sending the Origin a page on the frontend's origin sends. */
const nodeFetch = (origin: string, frontend: string): Send => inTurn(async ({ method, path, headers, body }) => {
  try {
    const res = await fetch(`${origin}${path}`, { method, headers: { ...headers, origin: frontend }, ...(body === undefined ? {} : { body }) });
    return asPageOn(frontend, res.status, (name) => res.headers.get(name) ?? undefined, await res.text());
  } catch {
    return networkError;
  }
});

/** fetch in a page: `first`, then the requests handed over together, in one turn of the page's event loop. */
const pageFetch = (page: Page, origin: string): Send => (requests, first) =>
  page.evaluate(async ({ requests, first, origin, compared }) => {
    const fetchOne = async ({ method, path, headers, body }: typeof requests[number]) => {
      try {
        const res = await fetch(`${origin}${path}`, { method, headers, cache: 'no-store', ...(body === undefined ? {} : { body }) });
        return { status: res.status, headers: Object.fromEntries(compared.map((name) => [name, res.headers.get(name)])), body: await res.text() };
      } catch {
        return { status: 'network error' as const, headers: {}, body: '' };
      }
    };
    const before = first ? [await fetchOne(first)] : [];
    return [...before, ...(await Promise.all(requests.map(fetchOne)))];
  }, { requests, first, origin, compared: comparedHeaders });

/** A page on the frontend's origin, opened once for the hosts that serve on an origin of their own and closed with the file. */
const frontend = (() => {
  let opened: Promise<{ page: Page; context: BrowserContext }> | undefined;
  afterAll(async () => (await opened)?.context.close());
  return {
    async page(): Promise<Page> {
      opened ??= (async () => {
        const context = await chromium.browser.newContext();
        const page = await context.newPage();
        await page.goto(`${chromium.frontend.origin}/`);
        return { page, context };
      })();
      return (await opened).page;
    },
  };
})();

/** Each host, from a fresh start, sent the script: what it answered. */
const hosts: Record<string, () => Promise<Trace>> = {
  async 'fastify: buildMock(), through inject'() {
    const app = await buildMock({ clock: new ManualClock(parityStart), logLevel: false });
    const frontend = chromium.frontend.origin;
    try {
      return await runParityTraffic(inTurn(async ({ method, path, headers, body }) => {
        const res = await app.inject({ method: method as 'GET', url: path, headers: { ...headers, origin: frontend }, ...(body === undefined ? {} : { payload: body }) });
        const header = (name: string) => (res.headers[name] === undefined ? undefined : String(res.headers[name]));
        return asPageOn(frontend, res.statusCode, header, res.body);
      }));
    } finally {
      await app.close();
    }
  },
  async 'the pets-mock server (startMockServer), from a page on another origin'() {
    const server = await startMockServer({ host: '127.0.0.1', port: 0, clock: new ManualClock(parityStart) });
    try {
      return await runParityTraffic(pageFetch(await frontend.page(), new URL(server.url).origin));
    } finally {
      await server.close();
    }
  },
  async 'MSW in Node (setupServer), through fetch'() {
    const { handlers } = await createPetsHandlers({ clock: new ManualClock(parityStart) });
    const msw = setupServer(...handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      return await runParityTraffic(nodeFetch(inProcessOrigin, chromium.frontend.origin));
    } finally {
      msw.close();
    }
  },
  async 'MSW in the browser (setupWorker, in a page Vite built), from that page to another origin'() {
    const served = await serveBrowserPage();
    const context = await chromium.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${served.origin}/?clock=${parityStart}&api=${inProcessOrigin}/v1`);
      await page.waitForFunction(() => (window as { petsMockReady?: boolean }).petsMockReady === true);
      return await runParityTraffic(pageFetch(page, inProcessOrigin));
    } finally {
      await context.close();
      await served.close();
    }
  },
  async 'Playwright routing (routePetsMock), from a page on another origin'() {
    // A page of its own: the routes go with it.
    const context = await chromium.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${chromium.frontend.origin}/`);
      await routePetsMock(page, { clock: new ManualClock(parityStart) });
      return await runParityTraffic(pageFetch(page, inProcessOrigin));
    } finally {
      await context.close();
    }
  },
  async 'the Vite dev server plugin, from a page on another origin'() {
    const root = await mkdtemp(join(tmpdir(), 'pets-parity-vite-'));
    const server = await createServer({ configFile: false, root, logLevel: 'silent', server: { port: 0, host: '127.0.0.1', watch: null }, plugins: [petsMock({ clock: new ManualClock(parityStart) })] });
    await server.listen();
    try {
      return await runParityTraffic(pageFetch(await frontend.page(), server.resolvedUrls!.local[0]!.replace(/\/$/, '')));
    } finally {
      await server.close();
      await rm(root, { recursive: true, force: true });
    }
  },
};

let reference: Trace;
beforeAll(async () => {
  reference = await hosts['fastify: buildMock(), through inject']!();
});

const report = (key: string) => JSON.parse(reference.reports[key]!) as ClientReport;
const rules = (key: string) => [...new Set(report(key).findings.map((f) => f.rule))].sort();

describe('one script through every host', () => {
  it('is a script that meets every state: the reference host answers it as the contract says', () => {
    const step = (name: string) => reference.steps.find((s) => s.name === name)!.answers;
    const status = (name: string) => step(name)[0]!.status;
    expect(['list', 'create', 'read back (deprecated)', 'bad body', 'no key'].map(status)).toEqual([200, 201, 200, 400, 401]);
    expect(['unknown route', 'wrong method', 'Prefer: code=500'].map(status)).toEqual([404, 405, 500]);
    expect(['create meets the fault', 'the same create, 2 s later', 'list after creating'].map(status)).toEqual([503, 201, 200]);
    expect(step('no key')[0]!.headers['www-authenticate']).toMatch(/^Bearer/);
    // A categoryId past 2^53 - 1 comes back with its digits, created and listed (every host answers as this one).
    expect(step('create with categoryId 2^63 - 1')[0]!.body).toContain('"categoryId":9223372036854775807');
    expect(step('list the int64 categoryId')[0]!.body).toContain('"categoryId":9223372036854775807');
    expect(step('read back (deprecated)')[0]!.headers.deprecation).not.toBeNull();
    // Seven at once past a limit of 5: five pass, two are refused, with Retry-After.
    // Seven at once past a limit of 5, twice: five pass, two are refused, with Retry-After.
    const seven = reference.steps.filter((s) => s.name.startsWith('burst-polite: 7 at'));
    expect(seven.map((s) => s.answers.map((a) => a.status))).toEqual([[200, 200, 200, 200, 200, 429, 429], [200, 200, 200, 200, 200, 429, 429]]);
    expect(seven[0]!.answers[6]!.headers['retry-after']).toMatch(/^\d+$/);
    // Before the removal the deprecated read links its replacement; after it, it is gone.
    expect(step('read back (deprecated)')[0]!.headers.link).toMatch(/<\/v1\/pets>/);
    const gone = step('getPet after the removal')[0]!;
    expect([gone.status, JSON.parse(gone.body).code]).toEqual([410, 'OPERATION_REMOVED']);
    expect(JSON.parse(gone.body).message).toMatch(/GET \/pets with the status filter/);
  });

  it('finds the polite clients polite and names what each impolite one did, on the reference host', () => {
    for (const [key, { polite }] of Object.entries(parityClients)) expect(report(key), key).toEqual(polite ? { passed: true, findings: [], deprecatedUse: [] } : expect.objectContaining({ passed: false }));
    expect(rules('seq-rude')).toEqual(['client.backoff', 'client.quota', 'client.retry-after']);
    expect(rules('burst-rude')).toEqual(['client.backoff', 'client.retry-after']);
    expect(rules('fixed-rude')).toEqual(['client.backoff']);
    expect(rules('quota-rude')).toEqual(['client.backoff', 'client.quota', 'client.retry-after']);
    // The contract's walk-through, on demo-pro: a body that is no NewPet, the deprecated read, a POST sent again after its 503.
    // demo-pro read the deprecated operation once before its removal and once after.
    expect(report('demo-pro').deprecatedUse).toEqual([expect.objectContaining({ operation: 'getPet', requests: 2, daysLeft: 0 })]);
    expect(report('demo-pro').findings.map((f) => [f.rule, f.level])).toEqual([['client.new-pet', 'failure'], ['client.post-retry', 'warning'], ['client.deprecated', 'warning']]);
  });

  it.each(Object.keys(hosts).filter((name) => !name.startsWith('fastify')))('%s answers it and reports on its clients exactly as the reference host', async (name) => {
    const trace = await hosts[name]!();
    // Step by step first, for a diff that names the step; then the reports, byte for byte.
    expect(trace.steps.map((s) => s.name)).toEqual(reference.steps.map((s) => s.name));
    for (const [k, s] of trace.steps.entries()) expect(s, s.name).toEqual(reference.steps[k]);
    for (const key of Object.keys(reference.reports)) expect(trace.reports[key], `client report ${key}`).toBe(reference.reports[key]);
  });
});

