// The frontend guide's "A client the mock grades" example (docs/frontend.md), run as it is printed there.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createPetsHandlers } from '../msw.ts';

/**
 * fetch for a rate-limited API: holds requests once X-RateLimit-Remaining is 0 until the window's
 * Reset, and retries a GET answered 429 or 503 after Retry-After, backing off exponentially
 * (0.5 s, 1 s, 2 s, …) and giving up after `tries`. A POST is never sent again on its own.
 */
export function politeFetch({ now = Date.now, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)), tries = 4, baseMs = 500 } = {}) {
  let resumeAt = 0;
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      if (now() < resumeAt) await sleep(resumeAt - now());
      const res = await fetch(url, init);
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      if (res.headers.get('x-ratelimit-remaining') === '0' && reset > 0) resumeAt = Math.max(resumeAt, reset * 1000);
      const retryable = (res.status === 429 || res.status === 503) && (init.method ?? 'GET') === 'GET';
      if (!retryable || attempt + 1 >= tries) return res;
      const retryAfterMs = Number(res.headers.get('retry-after') ?? 0) * 1000;
      resumeAt = Math.max(resumeAt, now() + Math.max(retryAfterMs, baseMs * 2 ** attempt));
    }
  };
}

const api = 'http://127.0.0.1:4010/v1';
const { handlers, mock } = await createPetsHandlers();
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

const headers = { authorization: 'Bearer demo-free' }; // 60 requests a minute

/** The mock's clock, frozen, moved only by the client's waits: no test waits in real time. */
async function mockTime() {
  let t = Date.parse('2026-06-01T12:00:00Z');
  await mock.freezeClock(t);
  return { now: () => t, sleep: async (ms: number) => { t += ms; await mock.advanceClock(ms / 1000); } };
}

it('draws no finding from the mock for a client that paces itself and backs off', async () => {
  const get = politeFetch(await mockTime());
  await mock.addFault({ method: 'GET', status: 503, times: 2, retryAfter: 1 });
  for (let i = 0; i < 70; i++) expect((await get(`${api}/pets?limit=5`, { headers })).status).toBe(200);
  const report = await mock.clientReport();
  expect(report.findings).toEqual([]);
  expect(report.deprecatedUse).toEqual([]); // it never calls the deprecated GET /pets/{petId}
});

it('names what a client that ignores 429 does wrong', async () => {
  const { sleep } = await mockTime();
  // It polls every half second, whatever the answers say.
  for (let i = 0; i < 65; i++) {
    await fetch(`${api}/pets?limit=5`, { headers });
    await sleep(500);
  }
  const report = await mock.clientReport();
  expect(report.passed).toBe(false);
  expect(report.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['client.retry-after', 'client.quota']));
});
