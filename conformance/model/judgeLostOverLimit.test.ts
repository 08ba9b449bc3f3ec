import { beforeEach, describe, expect, it } from 'vitest';
import type { Bucket, UnansweredRequest } from '../http/exchange.ts';
import { judgeLostOverLimit } from './judgeLostOverLimit.ts';
import { ex, listJson, rate, RESET, resetSeq, T0 } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

/** A request given up after its last try, its connection closed, sent `atMs` after T0 when `afterSeq` answers had come. */
const lost = (afterSeq: number, atMs: number, more: Partial<UnansweredRequest> & { bucket?: Bucket } = {}): UnansweredRequest => ({
  checkId: 'rate-limit-probe',
  operationId: 'listPets',
  afterSeq,
  sentAt: T0 + atMs,
  durationMs: 2,
  request: { method: 'GET', url: 'http://api.test/v1/pets?limit=1', headers: {} },
  error: 'GET http://api.test/v1/pets?limit=1 failed: other side closed (UND_ERR_SOCKET)',
  path: '/pets?limit=1',
  attempt: 3,
  bucket: 'key',
  givenUp: true,
  ...more,
});
/** A list served with the key, `remaining` left in the window ending at `reset`, sent `atMs` after T0. */
const served = (remaining: number, atMs = 0, reset = RESET, auth: 'key' | 'key2' = 'key') => ex({ auth, path: '/pets?limit=1', status: 200, sentAt: T0 + atMs, headers: rate(remaining, { reset }), body: listJson([]) });

describe('probe.429-reached: requests over the limit answered with a closed connection', () => {
  it('fails two requests closed on after an answer that said none remain, the key served again once the window ended, saying a 429 is owed', () => {
    const answers = [served(1), served(0, 10)];
    answers.push(served(299, 61_000, RESET + 60));
    const [failure, ...more] = judgeLostOverLimit([lost(2, 20), lost(2, 800)], answers);
    expect(more).toEqual([]);
    expect(failure).toMatchObject({ rule: 'probe.429-reached', outcome: 'failure', operationId: 'listPets', related: [2, 3] });
    expect(failure!.message).toMatch(/^#2 served GET \/pets\?limit=1 with X-RateLimit-Remaining 0 until \d+; the 2 requests after it, in that window, got their connections closed on every try .*#3 was served once the window had ended .*Requests over the limit receive 429 Too Many Requests/);
  });

  it('judges the second key alike', () => {
    const answers = [served(0, 0, RESET, 'key2'), served(59, 61_000, RESET + 60, 'key2')];
    expect(judgeLostOverLimit([lost(1, 20, { bucket: 'key2' }), lost(1, 900, { bucket: 'key2' })], answers)).toMatchObject([{ rule: 'probe.429-reached', outcome: 'failure', exchange: { bucket: 'key2' } }]);
  });

  it('judges nothing of requests lost while requests were left: the deployment failing, not a limit', () => {
    expect(judgeLostOverLimit([lost(1, 20), lost(1, 800)], [served(3), served(299, 61_000, RESET + 60)])).toEqual([]);
  });

  it('judges nothing of one lost request, nor of requests that timed out (a slow answer is no refusal)', () => {
    expect(judgeLostOverLimit([lost(1, 20)], [served(0), served(299, 61_000, RESET + 60)])).toEqual([]);
    resetSeq();
    expect(judgeLostOverLimit([lost(1, 20, { timedOut: true }), lost(1, 800, { timedOut: true })], [served(0), served(299, 61_000, RESET + 60)])).toEqual([]);
  });

  it('judges nothing where the key was not served after them, or was served in the same window (an outage, or a blip)', () => {
    expect(judgeLostOverLimit([lost(1, 20), lost(1, 800)], [served(0)])).toEqual([]);
    resetSeq();
    expect(judgeLostOverLimit([lost(1, 20), lost(1, 800)], [served(0), ex({ path: '/pets?limit=1', status: 503, sentAt: T0 + 61_000, headers: rate(299, { reset: RESET + 60 }) })])).toEqual([]);
    resetSeq();
    expect(judgeLostOverLimit([lost(1, 20), lost(1, 800)], [served(0), served(0, 1_000)])).toEqual([]);
  });

  it('judges nothing of requests sent once the window the answer named had ended, by its Date and the time since', () => {
    const answer = ex({ path: '/pets?limit=1', status: 200, sentAt: T0, headers: { ...rate(0, { reset: RESET }), date: new Date(T0 + 59_500).toUTCString() }, body: listJson([]) });
    expect(judgeLostOverLimit([lost(1, 20), lost(1, 800)], [answer, served(299, 61_000, RESET + 60)])).toEqual([]);
  });

  it('judges nothing where an answer of the key came between the lost requests', () => {
    expect(judgeLostOverLimit([lost(1, 20), lost(2, 800)], [served(0), ex({ path: '/pets?limit=1', status: 429, sentAt: T0 + 30, headers: { ...rate(0), 'retry-after': '59' } }), served(299, 61_000, RESET + 60)])).toEqual([]);
  });
});
