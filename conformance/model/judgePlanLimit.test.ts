import { beforeEach, describe, expect, it } from 'vitest';
import { errorBody, ex, judgementsOf, listJson, messagesOf, outcomesOf, rate, resetSeq, T0s, type AuthSpec } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

/** A list answered to `auth` with the rate-limit headers announcing `limit`. */
const listed = (limit: number, options: { auth?: AuthSpec; status?: number; reset?: number } = {}) => {
  const status = options.status ?? 200;
  return ex({ auth: options.auth ?? 'key', status, headers: rate(status === 429 ? 0 : Math.min(limit - 1, 5), { limit, ...(options.reset !== undefined ? { reset: options.reset } : {}) }), body: status === 200 ? listJson([]) : errorBody(status) });
};

describe('rate.plan-limit: a key of a known plan announces its plan\'s limit a minute or a day', () => {
  it('holds the Pro plan\'s 300 a minute and 10,000 a day', () => {
    const judged = judgementsOf([listed(300), listed(10_000, { reset: T0s + 3_600 })], { plans: { key: 'pro' } });
    // Each 200 with the minute's limit is held twice: its Limit, and its Reset within the minute.
    expect(outcomesOf(judged, 'rate.plan-limit')).toEqual(['held', 'held', 'held']);
  });

  it('fails a Pro key served another row\'s limit, naming the value, the plan and both of its limits', () => {
    const judged = judgementsOf([listed(1_000)], { plans: { key: 'pro' } });
    expect(outcomesOf(judged, 'rate.plan-limit')).toEqual(['failure']);
    expect(messagesOf(judged, 'rate.plan-limit')[0]).toMatch(/X-RateLimit-Limit 1000 for a key of the Pro plan \(--api-key-plan pro\), whose limits are 300 requests a minute and 10,000 a day/);
  });

  it('holds each key to its own plan: the second key by --api-key-2-plan', () => {
    const judged = judgementsOf([listed(300), listed(300, { auth: 'key2' }), listed(60, { auth: 'key2' })], { plans: { key: 'pro', key2: 'free' } });
    expect(outcomesOf(judged, 'rate.plan-limit')).toEqual(['held', 'held', 'failure', 'held', 'held']);
    expect(messagesOf(judged, 'rate.plan-limit')[0]).toMatch(/Free plan \(--api-key-2-plan free\), whose limits are 60 requests a minute and 1,000 a day/);
  });

  it('judges nothing without a plan, for an Enterprise key, or for a key whose plan was not given', () => {
    expect(outcomesOf(judgementsOf([listed(1_234)]), 'rate.plan-limit')).toEqual([]);
    expect(outcomesOf(judgementsOf([listed(1_234)], { plans: { key: 'enterprise' } }), 'rate.plan-limit')).toEqual([]);
    expect(outcomesOf(judgementsOf([listed(1_234, { auth: 'key2' })], { plans: { key: 'pro' } }), 'rate.plan-limit')).toEqual([]);
  });

  it('judges nothing of an answer the key was not admitted on, nor of one with no readable Limit', () => {
    const refused = [401, 403, 502, 503, 504].map((status) => listed(60, { status }));
    const unread = ex({ status: 200, headers: { 'x-ratelimit-limit': 'many' }, body: listJson([]) });
    expect(outcomesOf(judgementsOf([...refused, unread], { plans: { key: 'pro' } }), 'rate.plan-limit')).toEqual([]);
  });

  it('judges nothing of a request without the key, though the key\'s plan is known', () => {
    const judged = judgementsOf([listed(60, { auth: 'none', status: 401 }), listed(60, { auth: 'Bearer someone-else' })], { plans: { key: 'business' } });
    expect(outcomesOf(judged, 'rate.plan-limit')).toEqual([]);
  });

  it('fails a minute\'s limit whose Reset is more than a minute away on an answer that served the key, and holds one within it', () => {
    const judged = judgementsOf([listed(300, { reset: T0s + 60 }), listed(300, { reset: T0s + 3_660 })], { plans: { key: 'pro' } });
    expect(outcomesOf(judged, 'rate.plan-limit')).toEqual(['held', 'held', 'held', 'failure']);
    expect(messagesOf(judged, 'rate.plan-limit')[0]).toMatch(/says X-RateLimit-Limit 300, the Pro plan \(--api-key-plan pro\)'s requests a minute, with X-RateLimit-Reset \d+, 3660 s after its Date: a minute's limit resets within a minute/);
  });

  it('judges nothing of a 429, which may be a ban whose limit in force is none and whose end is its own, and no Reset of the day\'s limit', () => {
    const judged = judgementsOf([listed(300, { status: 429, reset: T0s + 600 }), listed(0, { status: 429 }), listed(10_000, { reset: T0s + 40_000 })], { plans: { key: 'pro' } });
    expect(outcomesOf(judged, 'rate.plan-limit')).toEqual(['held']);
  });
});
