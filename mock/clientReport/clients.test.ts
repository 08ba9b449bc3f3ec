// Held-out-style clients graded by the mock (issue 19, "The mock grades its clients"): correct ones
// must draw no finding at all, and each buggy one, with exactly one bug, must be named by the rule
// for that bug. Every client runs against the mock through MSW (msw/node) and through inject, on the
// mock's clock: a client's waits move that clock, nothing sleeps in real time.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPetsHandlers } from '../adapters/msw.ts';
import type { FaultRule } from '../adapters/petsMockControl.ts';
import { testMock } from '../testing.ts';
import type { ClientReport, ClientRule } from './gradeClients.ts';

/** testMock's start: half past twelve, far from a minute boundary. */
const T0 = Date.UTC(2026, 5, 1, 12, 30, 0);
const api = 'http://127.0.0.1:4010/v1';

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/** One mock, as a client and its test see it. */
interface Host {
  fetch: Fetch;
  /** The mock's time: the clients' clock. */
  now(): number;
  /** Waits on the mock's clock. */
  sleep(ms: number): Promise<void>;
  addFault(rule: FaultRule): Promise<void>;
  report(key?: string): Promise<ClientReport>;
}

interface HostOptions {
  /** --ban-threshold 1: the first refused request bans the key. */
  banOnFirst?: boolean;
}

// MSW: one mock per ban policy, each under its own base URL, reset before every client.
const banningApi = 'http://127.0.0.1:4011/v1';
const plain = await createPetsHandlers();
const banning = await createPetsHandlers({ baseUrl: banningApi, ban: { threshold: 1 } });
const server = setupServer(...plain.handlers, ...banning.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

async function mswHost({ banOnFirst = false }: HostOptions = {}): Promise<Host> {
  const { mock } = banOnFirst ? banning : plain;
  await mock.reset();
  let now = T0;
  await mock.freezeClock(now);
  return {
    fetch: (url, init) => fetch(banOnFirst ? url.replace(api, banningApi) : url, init),
    now: () => now,
    sleep: async (ms) => {
      if (ms <= 0) return;
      now += ms;
      await mock.advanceClock(ms / 1000);
    },
    addFault: async (rule) => void (await mock.addFault(rule)),
    report: (key) => mock.clientReport(key),
  };
}

/** buildMock and app.inject, behind a fetch: what the server answers, with no socket. */
async function injectHost({ banOnFirst = false }: HostOptions = {}): Promise<Host> {
  const { app, clock } = await testMock(banOnFirst ? { ban: { threshold: 1 } } : {});
  return {
    fetch: async (url, init = {}) => {
      const { pathname, search } = new URL(url);
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      const body = init.body === undefined || init.body === null ? {} : { payload: init.body as string };
      const res = await app.inject({ method: (init.method ?? 'GET') as 'GET', url: pathname + search, headers, ...body }).catch(() => {
        throw new TypeError('fetch failed'); // a fault rule dropped the connection
      });
      const answer = new Headers();
      for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : String(value));
      return new Response(res.statusCode === 204 ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: answer });
    },
    now: () => clock.now(),
    sleep: async (ms) => void (ms > 0 && clock.advance(ms)),
    addFault: async (rule) => {
      const res = await app.inject({ method: 'POST', url: '/__mock/faults', payload: rule as object });
      expect(res.statusCode, res.body).toBe(201);
    },
    report: async (key) => {
      const res = await app.inject({ url: `/__mock/client-report${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ClientReport;
    },
  };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const json = { 'content-type': 'application/json' };
const retryAfterMs = (res: Response) => Number(res.headers.get('retry-after')) * 1000;
const rulesOf = (report: ClientReport) => [...new Set(report.findings.map((f) => f.rule))].sort();

/** A seeded random in [0, 1) (mulberry32): the same jitter every run. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** GETs with exponential backoff and full jitter after a 503: waits random(0, base·2ⁿ), gives up after `tries`. */
function jitteredGet(host: Host, { seed, baseMs, tries = 4 }: { seed: number; baseMs: number; tries?: number }) {
  const random = seeded(seed);
  return async (url: string, init: RequestInit): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const res = await host.fetch(url, init);
      if (res.status !== 503 || attempt + 1 >= tries) return res;
      await host.sleep(Math.floor(random() * baseMs * 2 ** attempt));
    }
  };
}

/** Sends `count` GETs at `everyMs`; after a 429 waits exactly its Retry-After and sends it again. Ignores X-RateLimit-Remaining. */
async function honoursRetryAfter(host: Host, count: number, everyMs = 100): Promise<void> {
  for (let i = 0; i < count; i++) {
    let res = await host.fetch(`${api}/pets?limit=5`, { headers: bearer('demo-free') });
    while (res.status === 429) {
      await host.sleep(retryAfterMs(res));
      res = await host.fetch(`${api}/pets?limit=5`, { headers: bearer('demo-free') });
    }
    expect(res.status).toBe(200);
    await host.sleep(everyMs);
  }
}

describe.each([
  ['MSW', mswHost],
  ['inject', injectHost],
] as const)('clients graded through %s', (_host, open) => {
  describe('a correct client draws no finding', () => {
    it('(a) honours Retry-After exactly and otherwise ignores Remaining: one 429 a window', async () => {
      const host = await open();
      // demo-free: 60 a minute. 130 requests at 10 a second meet a 429 in each of two windows.
      await honoursRetryAfter(host, 130);
      expect(await host.report()).toEqual({ passed: true, findings: [], deprecatedUse: [] });
    });

    it('(a) under --ban-threshold 1, where its one 429 a window is a ban it then waits out', async () => {
      const host = await open({ banOnFirst: true });
      await honoursRetryAfter(host, 130);
      expect(await host.report()).toEqual({ passed: true, findings: [], deprecatedUse: [] });
    });

    it('(a) honours the Retry-After of 429s a fault rule forces, equal every time', async () => {
      const host = await open();
      await host.addFault({ method: 'GET', status: 429, retryAfter: 2, times: 3 });
      await honoursRetryAfter(host, 5);
      expect(await host.report()).toEqual({ passed: true, findings: [], deprecatedUse: [] });
    });

    it('(b) backs off with full jitter after 503s from fault rules and Prefer: code=503, giving up after 4 tries', async () => {
      // Bases and seeds include draws the grader once took for a fixed interval (0.92 s, 0.67 s,
      // 0.89 s) or for retrying at once (every gap under 250 ms).
      for (const baseMs of [100, 1000]) {
        for (let seed = 1; seed <= 13; seed++) {
          const host = await open();
          const get = jitteredGet(host, { seed, baseMs });
          const headers = bearer('demo-pro');
          await host.addFault({ method: 'GET', status: 503, times: 3 });
          expect((await get(`${api}/pets?limit=5`, { headers })).status).toBe(200);
          await host.sleep(10_000);
          expect((await get(`${api}/pets?limit=5`, { headers: { ...headers, prefer: 'code=503' } })).status).toBe(503);
          await host.sleep(10_000);
          await host.addFault({ method: 'GET', status: 503, times: 5 });
          expect((await get(`${api}/pets?status=available`, { headers })).status).toBe(503);
          const report = await host.report();
          expect(report, `base ${baseMs} ms, seed ${seed}`).toEqual({ passed: true, findings: [], deprecatedUse: [] });
        }
      }
    });

    it('(c) tracks X-RateLimit-Remaining and holds until Reset: never meets a 429', async () => {
      const host = await open();
      let resumeAt = 0;
      for (let i = 0; i < 150; i++) {
        if (host.now() < resumeAt) await host.sleep(resumeAt - host.now());
        const res = await host.fetch(`${api}/pets?limit=5`, { headers: bearer('demo-free') });
        expect(res.status).toBe(200);
        if (res.headers.get('x-ratelimit-remaining') === '0') resumeAt = Number(res.headers.get('x-ratelimit-reset')) * 1000;
        await host.sleep(50);
      }
      expect(await host.report()).toEqual({ passed: true, findings: [], deprecatedUse: [] });
    });

    it('(d) lists with status filters and creates valid pets, several keys in parallel, three lists at once through 503s', async () => {
      const host = await open();
      // Three parallel lists of demo-pro fail together once: they are not retries of each other.
      await host.addFault({ key: 'demo-pro', method: 'GET', status: 503, times: 3 });
      await Promise.all(['demo-free', 'demo-pro', 'demo-business', 'demo-enterprise'].map(async (key, k) => {
        const get = jitteredGet(host, { seed: k + 1, baseMs: 500 });
        for (let i = 0; i < 4; i++) {
          const lists = await Promise.all(['available', 'pending', 'sold'].map((status) => get(`${api}/pets?status=${status}&limit=${10 + i}`, { headers: bearer(key) })));
          for (const res of lists) expect(res.status).toBe(200);
          const pet = { name: `Pet ${k}-${i}`, categoryId: 1 + (i % 3), ...(i % 2 ? { status: 'pending' } : {}) };
          const res = await host.fetch(`${api}/pets`, { method: 'POST', headers: { ...bearer(key), ...json }, body: JSON.stringify(pet) });
          expect(res.status).toBe(201);
        }
      }));
      // Two pets with the same body, on purpose: nothing failed before the second.
      for (let i = 0; i < 2; i++) await host.fetch(`${api}/pets`, { method: 'POST', headers: { ...bearer('demo-pro'), ...json }, body: JSON.stringify({ name: 'Twin', categoryId: 1 }) });
      expect(await host.report()).toEqual({ passed: true, findings: [], deprecatedUse: [] });
    });

    it('(e) polls every 5 s for ten minutes', async () => {
      const host = await open();
      for (let i = 0; i < 120; i++) {
        expect((await host.fetch(`${api}/pets?status=available`, { headers: bearer('demo-free') })).status).toBe(200);
        await host.sleep(5000);
      }
      expect(await host.report()).toEqual({ passed: true, findings: [], deprecatedUse: [] });
    });
  });

  describe('a client with one bug is named by the rule for it', () => {
    /** The report, checked to name `rule` (and only `rules`, the ones its bug also breaks), for every client and for its key. */
    async function expectNamed(host: Host, rule: ClientRule, rules: ClientRule[], key: string) {
      for (const report of [await host.report(), await host.report(key)]) {
        expect(rulesOf(report)).toContain(rule);
        expect(rulesOf(report)).toEqual([...rules].sort());
      }
    }

    it('retries a second after a 429, whatever its Retry-After: client.retry-after', async () => {
      const host = await open();
      for (let i = 0; i < 70; i++) {
        let res = await host.fetch(`${api}/pets?limit=5`, { headers: bearer('demo-free') });
        if (res.status === 429) {
          await host.sleep(1000); // the bug
          res = await host.fetch(`${api}/pets?limit=5`, { headers: bearer('demo-free') });
        }
        if (res.status === 429) await host.sleep(retryAfterMs(res));
        await host.sleep(100);
      }
      // Its retry met a second 429 in the window after Remaining 0 had been said: client.quota too.
      await expectNamed(host, 'client.retry-after', ['client.retry-after', 'client.quota'], 'demo-free');
    });

    it('retries after 503 at a fixed 1 s, with three retries and with two: client.backoff', async () => {
      for (const failures of [3, 2]) {
        const host = await open();
        await host.addFault({ method: 'GET', status: 503, times: failures });
        for (let attempt = 0; attempt < 5; attempt++) {
          if ((await host.fetch(`${api}/pets?limit=5`, { headers: bearer('demo-pro') })).status !== 503) break;
          await host.sleep(1000); // the bug
        }
        await expectNamed(host, 'client.backoff', ['client.backoff'], 'demo-pro');
      }
    });

    it('polls past its quota, at full speed after Remaining 0: client.quota', async () => {
      const host = await open();
      for (let i = 0; i < 75; i++) {
        await host.fetch(`${api}/pets?limit=5`, { headers: bearer('demo-free') });
        await host.sleep(500);
      }
      // It also sends before Retry-After, at a gap that never grows.
      await expectNamed(host, 'client.quota', ['client.quota', 'client.retry-after', 'client.backoff'], 'demo-free');
    });

    it('pages with limit=500: client.limit-range', async () => {
      const host = await open();
      for (const status of ['available', 'pending']) await host.fetch(`${api}/pets?status=${status}&limit=500`, { headers: bearer('demo-free') });
      await expectNamed(host, 'client.limit-range', ['client.limit-range'], 'demo-free');
    });

    it('retries a POST with the same body after a 503 forced by Prefer: client.post-retry, a warning', async () => {
      const host = await open();
      const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
      const headers = { ...bearer('demo-pro'), ...json };
      expect((await host.fetch(`${api}/pets`, { method: 'POST', headers: { ...headers, prefer: 'code=503' }, body })).status).toBe(503);
      await host.sleep(2000);
      expect((await host.fetch(`${api}/pets`, { method: 'POST', headers, body })).status).toBe(201);
      await expectNamed(host, 'client.post-retry', ['client.post-retry'], 'demo-pro');
      expect(await host.report()).toMatchObject({ passed: true, findings: [{ level: 'warning' }] });
    });

    it('sends its key as ?api_key=: client.key-in-header, in its key\'s report too', async () => {
      const host = await open();
      expect((await host.fetch(`${api}/pets?api_key=demo-free`)).status).toBe(401);
      await expectNamed(host, 'client.key-in-header', ['client.key-in-header'], 'demo-free');
      expect((await host.report('demo-free')).findings[0]!.client).toBe('demo…(9)');
    });

    it('uses the Token scheme: client.bearer, in its key\'s report too', async () => {
      const host = await open();
      expect((await host.fetch(`${api}/pets`, { headers: { authorization: 'Token demo-free' } })).status).toBe(401);
      await expectNamed(host, 'client.bearer', ['client.bearer'], 'demo-free');
    });

    it('keeps sending during a ban (--ban-threshold 1), every 10 s: client.banned', async () => {
      const host = await open({ banOnFirst: true });
      for (let i = 0; i < 90; i++) {
        const res = await host.fetch(`${api}/pets?limit=5`, { headers: bearer('demo-free') });
        if (res.status !== 429) await host.sleep(100);
        else if (((await res.json()) as { code: string }).code === 'API_KEY_BANNED') await host.sleep(10_000); // the bug
        else await host.sleep(retryAfterMs(res));
      }
      await expectNamed(host, 'client.banned', ['client.banned', 'client.retry-after', 'client.backoff'], 'demo-free');
    });
  });

  describe('what once were gaps outside mock/clientReport', () => {
    // A fault rule answers before the body is parsed, but the body is read for the request log: the
    // same body sent again is told from a new pet.
    it('retries a POST with the same body after a 503 a fault rule forces: client.post-retry', async () => {
      const host = await open();
      await host.addFault({ operationId: 'createPet', status: 503, times: 1 });
      const init = { method: 'POST', headers: { ...bearer('demo-pro'), ...json }, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) };
      expect((await host.fetch(`${api}/pets`, init)).status).toBe(503);
      await host.sleep(2000);
      expect((await host.fetch(`${api}/pets`, init)).status).toBe(201);
      expect(rulesOf(await host.report())).toEqual(['client.post-retry']);
    });

    it('retries a POST with the same body after a dropped connection: client.post-retry', async () => {
      const host = await open();
      await host.addFault({ operationId: 'createPet', action: 'reset', times: 1 });
      const init = { method: 'POST', headers: { ...bearer('demo-pro'), ...json }, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) };
      await expect(host.fetch(`${api}/pets`, init)).rejects.toThrow(TypeError);
      await host.sleep(2000);
      expect((await host.fetch(`${api}/pets`, init)).status).toBe(201);
      expect(rulesOf(await host.report())).toEqual(['client.post-retry']);
    });

    // A host stamps each request when the client hands it over, so a burst sent together stays
    // together though the app serves it one request at a time; through app.inject too, since the
    // fastify host stamps a request before it awaits anything.
    it('(a) sending three at once, it honours Retry-After: no finding', async () => {
      const host = await open();
      let resumeAt = 0;
      for (let i = 0; i < 30; i++) {
        if (host.now() < resumeAt) await host.sleep(resumeAt - host.now());
        const answers = await Promise.all([0, 1, 2].map(() => host.fetch(`${api}/pets?limit=5`, { headers: bearer('demo-free') })));
        for (const res of answers) if (res.status === 429) resumeAt = Math.max(resumeAt, host.now() + retryAfterMs(res));
        await host.sleep(100);
      }
      expect(await host.report()).toEqual({ passed: true, findings: [], deprecatedUse: [] });
    });
  });
});
