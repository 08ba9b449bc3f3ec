import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../http/exchange.ts';
import { errorBody, ex, resetSeq, T0s, viewOf } from '../testing/modelExchanges.ts';
import { judgeDraftRateLimit } from './judgeDraftRateLimit.ts';

beforeEach(resetSeq);

const policy = '"minute";q=60;w=60, "day";q=1000;w=86400';
/** A listPets answer at T0 with X-RateLimit-* of the minute's window (59 left, reset in 30 s) and these fields. */
const answer = (headers: Record<string, string | string[]>, status = 200) =>
  ex({ status, headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(T0s + 30), ...headers }, body: status === 200 ? '[]' : errorBody(status) });
const judged = (exchange: Exchange) => judgeDraftRateLimit(exchange, viewOf(exchange)).map((j) => [j.rule, j.outcome]);
const messages = (exchange: Exchange) => judgeDraftRateLimit(exchange, viewOf(exchange)).flatMap((j) => (j.message ? [j.message] : []));

describe('ratelimit-draft.syntax and .agrees (draft-ietf-httpapi-ratelimit-headers-11)', () => {
  it('judges nothing of a deployment that sends only X-RateLimit-*: the contract names no other field', () => {
    expect(judged(answer({}))).toEqual([]);
  });

  it('holds the fields as the mock sends them: well formed, and saying what X-RateLimit-* say', () => {
    expect(judged(answer({ 'ratelimit-policy': policy, ratelimit: '"minute";r=59;t=30' }))).toEqual([['ratelimit-draft.syntax', 'held'], ['ratelimit-draft.syntax', 'held'], ['ratelimit-draft.agrees', 'held']]);
  });

  it('reads a list split over several field lines as one (RFC 9651, 4.2)', () => {
    expect(judged(answer({ 'ratelimit-policy': ['"minute";q=60;w=60', '"day";q=1000;w=86400'], ratelimit: '"minute";r=59;t=30' }))).toContainEqual(['ratelimit-draft.agrees', 'held']);
  });

  it.each([
    ['RateLimit', { ratelimit: 'limit=60, remaining=59' }, 'is no RateLimit of draft-ietf-httpapi-ratelimit-headers-11'],
    ['RateLimit', { ratelimit: '"minute";t=30' }, 'r is REQUIRED'],
    ['RateLimit', { ratelimit: '"minute";r=-1' }, 'r is REQUIRED, a non-negative Integer'],
    ['RateLimit-Policy', { 'ratelimit-policy': 'minute;q=60' }, 'is not a String but a token'],
    ['RateLimit-Policy', { 'ratelimit-policy': '"minute";w=60' }, 'q is REQUIRED'],
    ['RateLimit-Policy', { 'ratelimit-policy': '"minute";q=60;w=0' }, 'w is a non-zero'],
    ['RateLimit-Policy', { 'ratelimit-policy': '60;w=60' }, 'is not a String but an integer'],
  ])('fails a malformed %s, saying why: %j', (_field, headers, why) => {
    const exchange = answer(headers as Record<string, string>);
    expect(judged(exchange)).toContainEqual(['ratelimit-draft.syntax', 'failure']);
    expect(messages(exchange).join(' ')).toContain(why);
  });

  it('fails an r that is not X-RateLimit-Remaining for the policy of the same quota, naming both counts', () => {
    const exchange = answer({ 'ratelimit-policy': policy, ratelimit: '"minute";r=58;t=30' });
    expect(judged(exchange)).toContainEqual(['ratelimit-draft.agrees', 'failure']);
    expect(messages(exchange)[0]).toContain('X-RateLimit-Remaining: 59 and RateLimit: "minute";r=58;t=30, r=58 for the policy "minute" of the same quota (60)');
  });

  it('fails a 429 whose RateLimit says requests remain', () => {
    const exchange = answer({ 'x-ratelimit-remaining': '0', 'retry-after': '30', 'ratelimit-policy': policy, ratelimit: '"minute";r=3;t=30' }, 429);
    expect(judged(exchange)).toContainEqual(['ratelimit-draft.agrees', 'failure']);
  });

  it('holds the day\'s window when X-RateLimit-* describe the day', () => {
    const exchange = answer({ 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': String(T0s + 3600), 'ratelimit-policy': policy, ratelimit: '"day";r=7;t=3600' });
    expect(judged(exchange)).toContainEqual(['ratelimit-draft.agrees', 'held']);
  });

  it('warns of a t far from X-RateLimit-Reset, and of a RateLimit with no policy of the limit\'s quota', () => {
    expect(judged(answer({ 'ratelimit-policy': policy, ratelimit: '"minute";r=59;t=50' }))).toContainEqual(['ratelimit-draft.agrees', 'warning']);
    expect(judged(answer({ 'ratelimit-policy': policy, ratelimit: '"minute";r=59;t=33' }))).toContainEqual(['ratelimit-draft.agrees', 'held']);
    expect(judged(answer({ 'ratelimit-policy': '"burst";q=10;w=1', ratelimit: '"burst";r=9;t=1' }))).toContainEqual(['ratelimit-draft.agrees', 'warning']);
  });

  it('judges only the syntax without RateLimit-Policy: the window cannot be matched', () => {
    expect(judged(answer({ ratelimit: '"minute";r=12;t=30' }))).toEqual([['ratelimit-draft.syntax', 'held']]);
  });
});
