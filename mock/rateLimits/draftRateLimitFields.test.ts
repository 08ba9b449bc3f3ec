import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { generatePets } from '../../fixtures/generatePets.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import { openMock, type Mock } from '../core/openMock.ts';
import { draftRateLimitFields } from './draftRateLimitFields.ts';

const decision = { allowed: true, banned: false, limit: 60, remaining: 59, reset: 1_780_000_020, retryAfter: 0, window: 'minute' as const, quotas: { perMinute: 60, perDay: 1000 } };

describe('draftRateLimitFields (draft-ietf-httpapi-ratelimit-headers-11)', () => {
  it('lists both quotas as policies and tells the binding window with X-RateLimit-*\'s remaining and the seconds to its reset', () => {
    expect(draftRateLimitFields(decision, 1_780_000_000_500)).toEqual({
      'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      ratelimit: '"minute";r=59;t=20',
    });
  });

  it('names the day\'s policy when the day binds, and never a negative t', () => {
    expect(draftRateLimitFields({ ...decision, limit: 1000, remaining: 3, window: 'day' }, 1_780_000_030_000).ratelimit).toBe('"day";r=3;t=0');
  });

  it('tells the window from the quotas when the decision does not name it (a shared store\'s)', () => {
    const { window: _, ...unnamed } = decision;
    expect(draftRateLimitFields({ ...unnamed, limit: 1000, remaining: 0 }, 1_780_000_000_000).ratelimit).toBe('"day";r=0;t=20');
    expect(draftRateLimitFields({ ...unnamed }, 1_780_000_000_000).ratelimit).toBe('"minute";r=59;t=20');
  });
});

let mock: Mock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** The mock's answers read as a client reads them: the draft's fields beside X-RateLimit-*. */
function readFields(headers: Headers) {
  const rate = /^"(minute|day)";r=(\d+);t=(\d+)$/.exec(headers.get('ratelimit') ?? '');
  const policy = headers.get('ratelimit-policy') ?? '';
  return { rate, policy, limit: headers.get('x-ratelimit-limit'), remaining: headers.get('x-ratelimit-remaining'), reset: headers.get('x-ratelimit-reset') };
}

const step = fc.record({
  key: fc.constantFrom('tiny', 'demo-free', 'demo-pro', null, 'not-a-key'),
  path: fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/pets?limit=500', '/v1/nowhere', '/pets'),
  post: fc.boolean(),
  waitMs: fc.constantFrom(0, 0, 0, 700, 20_000, 61_000, 3_600_000),
});

describe('the mock with ratelimitHeaders: \'draft\'', () => {
  it('says on every answer of mixed traffic what X-RateLimit-* say: the same window, remaining and reset', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40 }), async (steps) => {
      const clock = new ManualClock(Date.UTC(2026, 5, 1, 23, 58, 30));
      mock = await openMock({ spec: await testSpec(), pets: generatePets({ count: 3 }), clock, ratelimitHeaders: 'draft', ban: { threshold: 3, seconds: 120 },
        keys: [{ key: 'tiny', plan: 'enterprise', perMinute: 4, perDay: 6 }, { key: 'demo-free', plan: 'free' }, { key: 'demo-pro', plan: 'pro' }] });
      try {
        for (const { key, path, post, waitMs } of steps) {
          clock.advance(waitMs);
          const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
          const init: RequestInit = post ? { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' } : { headers };
          const answer = await mock.handle(new Request(`http://mock.test${path}`, init));
          const seen = readFields(answer.headers);
          expect(seen.remaining, `${answer.status} ${path}`).not.toBeNull();
          expect(seen.rate, `${answer.headers.get('ratelimit')}`).not.toBeNull();
          const [, window, r, t] = seen.rate!;
          expect(r).toBe(seen.remaining);
          expect(Math.floor(clock.now() / 1000) + Number(t)).toBe(Number(seen.reset));
          expect(seen.policy).toMatch(new RegExp(`"${window}";q=${seen.limit};w=${window === 'day' ? 86400 : 60}`));
          expect(seen.policy).toMatch(/^"minute";q=\d+;w=60, "day";q=\d+;w=86400$/);
        }
      } finally {
        await mock.close();
        mock = undefined;
      }
    }), { numRuns: 15 });
  });

  it('exposes the draft\'s fields to pages, and sends none of them by default', async () => {
    mock = await openMock({ spec: await testSpec(), pets: [], ratelimitHeaders: 'draft' });
    const drafted = await mock.handle(new Request('http://mock.test/v1/pets', { headers: { authorization: 'Bearer demo-pro', origin: 'http://app.test' } }));
    expect(drafted.headers.get('access-control-expose-headers')).toMatch(/, RateLimit-Policy, RateLimit$/);
    await mock.close();
    mock = await openMock({ spec: await testSpec(), pets: [] });
    const plain = await mock.handle(new Request('http://mock.test/v1/pets', { headers: { authorization: 'Bearer demo-pro', origin: 'http://app.test' } }));
    expect([plain.headers.get('ratelimit'), plain.headers.get('ratelimit-policy')]).toEqual([null, null]);
    expect(plain.headers.get('access-control-expose-headers')).not.toContain('RateLimit-Policy');
  });

  it('is taken by the in-process hosts (MSW in Node), and a value it does not know is refused, naming the choices', async () => {
    const { createPetsHandlers } = await import('../adapters/msw.ts');
    const { setupServer } = await import('msw/node');
    const made = await createPetsHandlers({ ratelimitHeaders: 'draft', baseUrl: 'http://draft.test/v1' });
    const server = setupServer(...made.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const res = await fetch('http://draft.test/v1/pets', { headers: { authorization: 'Bearer demo-pro' } });
      expect(res.headers.get('ratelimit')).toMatch(/^"minute";r=299;t=\d+$/);
    } finally {
      server.close();
    }
    await expect(openMock({ spec: await testSpec(), pets: [], ratelimitHeaders: 'drfat' as never })).rejects.toThrow("ratelimitHeaders: \"drfat\" is not one of 'contract', 'draft'");
  });
});

