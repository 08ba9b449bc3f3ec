import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { dateOr, judgeRate, learnRate } from './judgeRate.ts';
import { runModel } from './runModel.ts';
import { errorBody, ex, failureLines, failuresOf, freshState, heldOn, judgementsOf, listJson, modelOptions, ofRule, rate, resetSeq, RESET, T0, T0s, viewOf, type AuthSpec } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

interface Answer {
  /** Seconds after T0 the request left. */
  at?: number;
  reset?: number;
  limit?: number;
  status?: number;
  method?: string;
  path?: string;
  auth?: AuthSpec;
  burst?: number;
  headers?: Record<string, string>;
}

/** A request with the key answered with the rate-limit headers saying `remaining`. */
function k(remaining: number, a: Answer = {}): Exchange {
  const status = a.status ?? 200;
  return ex({
    method: a.method ?? 'GET',
    path: a.path ?? '/pets',
    auth: a.auth ?? 'key',
    status,
    headers: { ...rate(remaining, { ...(a.limit !== undefined ? { limit: a.limit } : {}), ...(a.reset !== undefined ? { reset: a.reset } : {}) }), ...a.headers },
    body: a.method === 'HEAD' || status === 204 ? '' : status >= 400 ? errorBody(status) : status === 201 ? { id: 1, name: 'A', categoryId: 1 } : listJson([]),
    sentAt: T0 + (a.at ?? 0) * 1000,
    ...(a.burst !== undefined ? { burst: a.burst } : {}),
  });
}

/** A 429 with the key, `remaining` in its headers, and Retry-After when given. */
const throttled = (remaining: number, a: Answer & { retryAfter?: string } = {}) => k(remaining, { ...a, status: 429, headers: { ...(a.retryAfter !== undefined ? { 'retry-after': a.retryAfter } : {}), ...a.headers } });

const rateFailures = (judged: ReturnType<typeof judgementsOf>) => failureLines(judged).filter((line) => line.startsWith('rate.'));

describe('rate.limit-steady: X-RateLimit-Limit is one value within a window', () => {
  it('holds one Limit across a window', () => {
    const second = k(98, { at: 1 });
    const judged = judgementsOf([k(99), second]);
    expect(heldOn(judged, second)).toContain('rate.limit-steady');
    expect(rateFailures(judged)).toEqual([]);
  });

  it('fails a Limit that changes within a window, naming both values', () => {
    const [failure] = failuresOf(judgementsOf([k(99, { limit: 300 }), k(98, { limit: 60, at: 1 })]), 'rate.limit-steady');
    expect(failure!.message).toContain(`says X-RateLimit-Limit 60, where #1 said 300 for the same window (reset ${RESET})`);
    expect(failure!.related).toEqual([1]);
  });

  it('holds nothing of the key\'s window to an OPTIONS or another undocumented request answered under another Limit: the address\'s meter of a request not authenticated', () => {
    // A CORS preflight is never authenticated: a deployment may answer OPTIONS with the key under the address's meter.
    const judged = judgementsOf([k(66), k(29, { method: 'OPTIONS', limit: 60, at: 1, status: 204 }), k(65, { method: 'PUT', status: 405, at: 2 }), k(64, { at: 3 })]);
    expect(rateFailures(judged)).toEqual([]);
    // Under the key's own Limit it is the key's window, and held to its count.
    resetSeq();
    expect(rateFailures(judgementsOf([k(66), k(29, { method: 'OPTIONS', at: 1, status: 204 })]))).toEqual([expect.stringMatching(/^rate\.cost: .*#2 OPTIONS \/pets says X-RateLimit-Remaining 29/)]);
    // A documented operation with the key is authenticated: its answer is the key's under any Limit.
    resetSeq();
    expect(failuresOf(judgementsOf([k(66), k(65, { limit: 60, at: 1 })]), 'rate.limit-steady')).toHaveLength(1);
  });

  it('does not compare the Limit of a new window with the last one (a plan may change at a reset)', () => {
    const judged = judgementsOf([k(0, { limit: 300 }), k(59, { limit: 60, reset: RESET + 60, at: 61 })]);
    expect(ofRule(judged, 'rate.limit-steady')).toEqual([]);
  });
});

describe('rate.cost: each request accepted with the key costs exactly one', () => {
  it('holds a request that costs one', () => {
    const second = k(98, { at: 1 });
    const judged = judgementsOf([k(99), second]);
    expect(heldOn(judged, second)).toContain('rate.cost');
    expect(rateFailures(judged)).toEqual([]);
  });

  it('fails a request that cost two, naming what remained and what should', () => {
    const [failure] = failuresOf(judgementsOf([k(99), k(97, { at: 1 })]), 'rate.cost');
    expect(failure!.message).toContain('says X-RateLimit-Remaining 97; #1 said 99, and the 1 request since (#2) cost one each, so 98 should remain');
    expect(failure!.message).toContain('--shared-key');
  });

  it('fails a request with the key that was not counted', () => {
    const judged = judgementsOf([k(99), k(99, { at: 1 })]);
    expect(failuresOf(judged).map((f) => f.rule)).toEqual(['rate.cost']);
  });

  it('counts requests sent between two observations: three GETs after 99 leave 96', () => {
    const judged = judgementsOf([k(99), k(98, { at: 1 }), k(97, { at: 2 }), k(96, { at: 3 })]);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('counts a POST refused with 400 with the key as one', () => {
    const judged = judgementsOf([k(99), k(98, { method: 'POST', status: 400, at: 1 }), k(97, { at: 2 })]);
    expect(rateFailures(judged)).toEqual([]);
    expect(failuresOf(judgementsOf([k(99), k(99, { method: 'POST', status: 400, at: 1 })]), 'rate.cost')).toHaveLength(1);
  });

  it.each([['costing one', 97], ['costing none', 98]])('lets a refused request with a lower-case `bearer` count one or none (%s)', (_, remaining) => {
    const judged = judgementsOf([k(99), ex({ auth: 'bearer $PETS_API_KEY', status: 401, headers: rate(98), body: errorBody(401), sentAt: T0 + 1000 }), k(remaining, { at: 2 })]);
    expect(rateFailures(judged)).toEqual([]);
    expect(ofRule(judged, 'rate.cost').map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails a keyed request after a refused lower-case `bearer` that cost more than both together allow', () => {
    const judged = judgementsOf([k(99), ex({ auth: 'bearer $PETS_API_KEY', status: 401, headers: rate(98), body: errorBody(401), sentAt: T0 + 1000 }), k(96, { at: 2 })]);
    const [failure] = failuresOf(judged, 'rate.cost');
    expect(failure!.message).toContain('says X-RateLimit-Remaining 96; #1 said 99, and the 2 requests since (#2, #3) cost one each (a refused one, one or none), so between 97 and 98 should remain');
  });

  it('lets another scheme carrying the key (`Token <key>`), refused, count one or none', () => {
    const judged = judgementsOf([k(99), ex({ auth: 'Token $PETS_API_KEY', status: 401, body: errorBody(401), sentAt: T0 + 1000 }), k(97, { at: 2 })]);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('lets an undocumented method with the key count one or none', () => {
    const judged = judgementsOf([k(99), k(99, { method: 'HEAD', at: 1 }), k(98, { at: 2 }), k(97, { method: 'PUT', path: '/pets/1', status: 405, at: 3 }), k(97, { method: 'OPTIONS', status: 204, at: 4 }), k(96, { at: 5 })]);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('charges requests without the key nothing', () => {
    const judged = judgementsOf([k(99), ex({ auth: 'none', status: 401, headers: rate(5, { limit: 10 }), body: errorBody(401), sentAt: T0 + 1000 }), ex({ auth: 'Bearer stranger', status: 401, body: errorBody(401), sentAt: T0 + 1500 }), k(98, { at: 2 })]);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('keeps the second key\'s window its own: the first key\'s requests cost it nothing', () => {
    const judged = judgementsOf([k(99), k(50, { auth: 'key2', limit: 60 }), k(98, { at: 1 }), k(97, { at: 2 }), k(49, { auth: 'key2', limit: 60, at: 3 })]);
    expect(rateFailures(judged)).toEqual([]);
    expect(ofRule(judged, 'rate.cost').filter((j) => j.outcome === 'held').map((j) => j.exchange!.seq)).toEqual([3, 4, 5]);
  });

  it('fails the second key\'s Remaining when the first key\'s requests were charged to it', () => {
    const judged = judgementsOf([k(50, { auth: 'key2', limit: 60 }), k(99), k(98, { at: 1 }), k(47, { auth: 'key2', limit: 60, at: 2 })]);
    expect(failuresOf(judged, 'rate.cost').map((f) => f.exchange!.seq)).toEqual([4]);
  });

  it('with --shared-key, lets other clients spend the key: fewer remaining is no failure', () => {
    expect(rateFailures(judgementsOf([k(99), k(90, { at: 1 })], { sharedKey: true }))).toEqual([]);
    expect(failuresOf(judgementsOf([k(99), k(90, { at: 1 })]), 'rate.cost')).toHaveLength(1);
  });

  it('with --shared-key, still fails a request with the key that was not counted', () => {
    const [failure] = failuresOf(judgementsOf([k(99), k(99, { at: 1 })], { sharedKey: true }), 'rate.cost');
    expect(failure!.message).toContain('says X-RateLimit-Remaining 99; #1 said 99 and the 1 request since cost at least 1');
  });

  it('does not compare answers of different windows', () => {
    expect(rateFailures(judgementsOf([k(10), k(299, { reset: RESET + 60, at: 61 })]))).toEqual([]);
  });
});

describe('rate.no-rise: X-RateLimit-Remaining never rises within a window', () => {
  it('holds a Remaining that falls', () => {
    const second = k(98, { at: 1 });
    expect(heldOn(judgementsOf([k(99), second]), second)).toContain('rate.no-rise');
  });

  it('fails a Remaining that rises within a window, naming both values', () => {
    const judged = judgementsOf([k(98), k(99, { at: 1 })]);
    const [failure] = failuresOf(judged, 'rate.no-rise');
    expect(failure!.message).toContain(`says X-RateLimit-Remaining 99, up from 98 at #1, in the same window (reset ${RESET})`);
    expect(failure!.related).toEqual([1]);
  });

  it('with --shared-key, still fails a Remaining that rises', () => {
    expect(failuresOf(judgementsOf([k(98), k(99, { at: 1 })], { sharedKey: true }), 'rate.no-rise')).toHaveLength(1);
  });

  it('lets Remaining rise at a fixed window\'s reset, where Reset moves on', () => {
    expect(rateFailures(judgementsOf([k(0), k(299, { reset: RESET + 60, at: 60 })]))).toEqual([]);
  });

  it('holds a sliding window: Reset moves when the oldest request ages out, and Remaining rises only then', () => {
    const limit = 60;
    const judged = judgementsOf([
      k(59, { limit, reset: T0s + 60, at: 0 }),
      k(58, { limit, reset: T0s + 60, at: 10 }),
      // The request of second 0 aged out: one back, one spent, Reset now when the request of second 10 ages out.
      k(58, { limit, reset: T0s + 70, at: 61 }),
      k(57, { limit, reset: T0s + 70, at: 62 }),
      k(57, { limit, reset: T0s + 121, at: 71 }),
      // A pause: every request aged out.
      k(59, { limit, reset: T0s + 260, at: 200 }),
    ]);
    expect(rateFailures(judged)).toEqual([]);
    expect(ofRule(judged, 'rate.no-rise').filter((j) => j.outcome === 'held').map((j) => j.exchange!.seq)).toEqual([2, 4]);
  });

  it('fails a sliding window whose Remaining rises while its Reset stays', () => {
    const judged = judgementsOf([k(59, { limit: 60, reset: T0s + 60, at: 0 }), k(58, { limit: 60, reset: T0s + 60, at: 10 }), k(59, { limit: 60, reset: T0s + 60, at: 30 })]);
    expect(failuresOf(judged, 'rate.no-rise').map((f) => f.exchange!.seq)).toEqual([3]);
  });
});

describe('rate.429-only-when-spent: a 429 comes only once Remaining reached 0', () => {
  it('holds a 429 after Remaining reached 0, and fails nothing', () => {
    const refusal = throttled(0, { at: 2, retryAfter: '58' });
    const judged = judgementsOf([k(1), k(0, { at: 1 }), refusal]);
    expect(heldOn(judged, refusal)).toEqual(expect.arrayContaining(['rate.429-only-when-spent', 'rate.429-says-zero', 'rate.retry-after-covers-reset']));
    expect(failureLines(judged)).toEqual([]);
  });

  it('fails a 429 while the last answer said 5 remain, naming it', () => {
    const [failure] = failuresOf(judgementsOf([k(5), throttled(0, { at: 1 })]), 'rate.429-only-when-spent');
    expect(failure!.message).toContain(`answered 429, yet #1 said X-RateLimit-Remaining 5 until ${RESET} and at most 0 requests could have been counted since: 5 should remain`);
    expect(failure!.related).toEqual([1]);
  });

  it('holds a 429 after Remaining 0 and a refused lower-case `bearer` in between', () => {
    const judged = judgementsOf([k(0), ex({ auth: 'bearer $PETS_API_KEY', status: 401, body: errorBody(401), sentAt: T0 + 1000 }), throttled(0, { at: 2, retryAfter: '58' })]);
    expect(failureLines(judged)).toEqual([]);
  });

  it('holds a 429 after Remaining 1 when a refused lower-case `bearer` in between may have spent the last request', () => {
    const judged = judgementsOf([k(1), ex({ auth: 'bearer $PETS_API_KEY', status: 401, body: errorBody(401), sentAt: T0 + 1000 }), throttled(0, { at: 2, retryAfter: '58' })]);
    expect(failureLines(judged)).toEqual([]);
  });

  it('does not judge it with --shared-key (other clients may have spent the window)', () => {
    expect(ofRule(judgementsOf([k(5), throttled(0, { at: 1 })], { sharedKey: true }), 'rate.429-only-when-spent')).toEqual([]);
  });

  it('does not judge a 429 within a second of the announced reset (the window may have turned)', () => {
    expect(ofRule(judgementsOf([k(5), throttled(0, { at: 59.5 })]), 'rate.429-only-when-spent')).toEqual([]);
  });

  it('does not judge a 429 that speaks of another window', () => {
    expect(ofRule(judgementsOf([k(5), throttled(0, { reset: RESET + 60, at: 1 })]), 'rate.429-only-when-spent')).toEqual([]);
  });
});

describe('rate.429-says-zero: a 429 says X-RateLimit-Remaining 0', () => {
  it('holds a 429 saying 0', () => {
    expect(ofRule(judgementsOf([throttled(0)]), 'rate.429-says-zero').map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails a 429 saying 3 remain, naming the value', () => {
    const [failure] = failuresOf(judgementsOf([throttled(3)]), 'rate.429-says-zero');
    expect(failure!.message).toContain('answered 429 saying X-RateLimit-Remaining 3');
  });

  it('says nothing of a 429 without X-RateLimit-Remaining', () => {
    const bare = ex({ status: 429, headers: { 'retry-after': '30' }, body: errorBody(429) });
    expect(ofRule(judgementsOf([bare]), 'rate.429-says-zero')).toEqual([]);
  });
});

describe('rate.retry-after-covers-reset: a Retry-After shorter than the time to X-RateLimit-Reset is a warning', () => {
  it('holds a Retry-After equal to the time to reset', () => {
    expect(ofRule(judgementsOf([throttled(0, { retryAfter: '60' })]), 'rate.retry-after-covers-reset').map((j) => j.outcome)).toEqual(['held']);
  });

  it('holds a Retry-After longer than the time to reset (conservative, not wrong)', () => {
    expect(failureLines(judgementsOf([throttled(0, { retryAfter: '3600' })]))).toEqual([]);
  });

  it('holds a Retry-After given as an HTTP-date at the reset or later', () => {
    for (const date of [new Date(T0 + 60_000).toUTCString(), new Date(T0 + 600_000).toUTCString()]) {
      resetSeq();
      const judged = judgementsOf([throttled(0, { retryAfter: date })]);
      expect(ofRule(judged, 'rate.retry-after-covers-reset').map((j) => j.outcome)).toEqual(['held']);
    }
  });

  it('measures the time to reset from the answer\'s Date header when it has one', () => {
    const refusal = throttled(0, { retryAfter: '10', headers: { date: new Date(T0 + 50_000).toUTCString() } });
    expect(ofRule(judgementsOf([refusal]), 'rate.retry-after-covers-reset').map((j) => j.outcome)).toEqual(['held']);
  });

  // The contract does not tie the two: a sliding window frees a request before its whole quota is
  // back, so a retry when told may be served. The retry itself is judged (probe.retry-after-honoured).
  it('warns of a Retry-After of 1 s when the reset is 60 s away, naming both, and fails nothing for it', () => {
    const judged = judgementsOf([throttled(0, { retryAfter: '1' })]);
    expect(failuresOf(judged, 'rate.retry-after-covers-reset')).toEqual([]);
    const [warning] = ofRule(judged, 'rate.retry-after-covers-reset');
    expect(warning).toMatchObject({ outcome: 'warning', message: expect.stringContaining(`answered 429 with Retry-After "1" (1 s), but X-RateLimit-Reset ${RESET} is 60 s away`) });
  });

  it('judges no Retry-After of a 429 within two seconds of its reset, where even 0 would hold, and warns of a 0 three seconds before it', () => {
    const at = (msBeforeReset: number) => throttled(0, { retryAfter: '0', headers: { date: new Date(T0 + 60_000 - msBeforeReset).toUTCString() } });
    expect(ofRule(judgementsOf([at(2_000)]), 'rate.retry-after-covers-reset')).toEqual([]);
    resetSeq();
    expect(ofRule(judgementsOf([at(3_000)]), 'rate.retry-after-covers-reset').map((j) => j.outcome)).toEqual(['warning']);
  });

  it('warns of a Retry-After HTTP-date 5 s ahead when the reset is 60 s away', () => {
    const date = new Date(T0 + 5_000).toUTCString();
    const [warning] = ofRule(judgementsOf([throttled(0, { retryAfter: date })]), 'rate.retry-after-covers-reset');
    expect(warning!.message).toContain(`Retry-After ${JSON.stringify(date)} (5 s)`);
  });
});

describe('rate.concurrent-counted: concurrent requests are each counted', () => {
  it('holds a burst whose answers each say one less, in any order', () => {
    const judged = judgementsOf([k(10), k(8, { burst: 1, at: 1 }), k(7, { burst: 1, at: 1 }), k(9, { burst: 1, at: 1 })]);
    expect(ofRule(judged, 'rate.concurrent-counted').map((j) => j.outcome)).toEqual(['held']);
    expect(ofRule(judged, 'rate.cost').map((j) => j.outcome)).toEqual(['held']);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('fails a burst whose answers repeat a Remaining, naming the values', () => {
    const [failure] = failuresOf(judgementsOf([k(10), k(9, { burst: 1, at: 1 }), k(9, { burst: 1, at: 1 }), k(8, { burst: 1, at: 1 })]), 'rate.concurrent-counted');
    expect(failure!.message).toContain('3 parallel requests with the key (#2, #3, #4) were answered X-RateLimit-Remaining 9, 9, 8: 9 twice');
  });

  it('fails a burst an answer of which says more was spent than the burst holds', () => {
    const [failure] = failuresOf(judgementsOf([k(10), k(9, { burst: 1, at: 1 }), k(8, { burst: 1, at: 1 }), k(3, { burst: 1, at: 1 })]), 'rate.cost');
    expect(failure!.message).toContain('answered X-RateLimit-Remaining 9, 8, 3; #1 said 10 before them, so each must say between 7 and 9');
  });

  it('with --shared-key, lets a burst repeat a Remaining', () => {
    const judged = judgementsOf([k(10), k(9, { burst: 1, at: 1 }), k(9, { burst: 1, at: 1 }), k(8, { burst: 1, at: 1 })], { sharedKey: true });
    expect(ofRule(judged, 'rate.concurrent-counted').map((j) => j.outcome)).toEqual(['held']);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('lets requests lost after a burst (pipelined behind it, the connection closed) count one or none, learnt after the burst', () => {
    const record = [k(10), k(9, { burst: -1, at: 1 }), k(6, { at: 2 })];
    const lost = [1, 1].map(() => ({ afterSeq: record[1]!.seq, request: record[1]!.request }));
    expect(rateFailures(runModel(record, modelOptions(), lost).judgements)).toEqual([]);
    expect(rateFailures(runModel(record, modelOptions()).judgements)).not.toEqual([]);
  });

  it('judges the window after a burst from its lowest Remaining', () => {
    const judged = judgementsOf([k(10), k(8, { burst: 1, at: 1 }), k(9, { burst: 1, at: 1 }), k(7, { at: 2 })]);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('holds a burst of a GET and an uncounted HEAD with the key that both say the Remaining after the GET', () => {
    const judged = judgementsOf([k(10), k(9, { burst: 1, at: 1 }), k(9, { method: 'HEAD', burst: 1, at: 1 })]);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('fails a 429 inside a burst that says Remaining 3', () => {
    const judged = judgementsOf([k(2), k(1, { burst: 1, at: 1 }), k(0, { burst: 1, at: 1 }), throttled(3, { burst: 1, at: 1, retryAfter: '59' })]);
    expect(failuresOf(judged, 'rate.429-says-zero')).toHaveLength(1);
  });
});

describe('rate.over-limit-refused: once the window is spent, every request gets 429 until the reset', () => {
  it('holds a request refused 429 after a 429, before the reset', () => {
    const after = throttled(0, { at: 2 });
    const judged = judgementsOf([k(0), throttled(0, { at: 1, retryAfter: '59' }), after]);
    expect(heldOn(judged, after)).toContain('rate.over-limit-refused');
    expect(failureLines(judged)).toEqual([]);
  });

  it('fails a GET served after a 429, before the reset it announced, naming the 429', () => {
    const [failure] = failuresOf(judgementsOf([k(0), throttled(0, { at: 1, retryAfter: '59' }), k(0, { at: 2 })]), 'rate.over-limit-refused');
    expect(failure!.message).toContain(`was answered 200 after the 429 of #2, before the reset it announced (${RESET})`);
    expect(failure!.related).toEqual([2]);
  });

  it('fails a POST served after a 429, before the reset', () => {
    const failures = failuresOf(judgementsOf([k(0), throttled(0, { at: 1 }), k(0, { method: 'POST', status: 201, at: 2 })]), 'rate.over-limit-refused');
    expect(failures.map((f) => f.exchange!.request.method)).toEqual(['POST']);
  });

  it('fails the list under another spelling of its path (`/pets/`, `/%70ets`) served after a 429, saying whose spelling it is', () => {
    for (const path of ['/pets/', '/%70ets', '/PETS', '//pets']) {
      const [failure, ...more] = failuresOf(judgementsOf([k(0), throttled(0, { at: 1, retryAfter: '59' }), k(0, { path, at: 2 })]), 'rate.over-limit-refused');
      expect(more, path).toEqual([]);
      expect(failure!.message, path).toContain('it is listPets spelled another way, and serving it serves listPets over the limit');
    }
  });

  it('lets a spelling of a path be refused any way after a 429, and another undocumented path be served', () => {
    expect(rateFailures(judgementsOf([k(0), throttled(0, { at: 1, retryAfter: '59' }), k(0, { path: '/pets/', status: 404, at: 2 })]))).toEqual([]);
    expect(rateFailures(judgementsOf([k(0), throttled(0, { at: 1, retryAfter: '59' }), k(0, { path: '/health', at: 2 })]))).toEqual([]);
  });

  it('lets an OPTIONS with the key, which may cost nothing, be answered 204 after a 429', () => {
    const judged = judgementsOf([k(0), throttled(0, { at: 1, retryAfter: '59' }), k(0, { method: 'OPTIONS', status: 204, at: 2 })]);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('lets requests be served again once the reset announced by the 429 has come', () => {
    const judged = judgementsOf([k(0), throttled(0, { at: 1 }), k(299, { reset: RESET + 60, at: 60 }), k(298, { reset: RESET + 60, at: 61 })]);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('does not hold the first key to a 429 the second key got', () => {
    const judged = judgementsOf([k(99), throttled(0, { auth: 'key2', at: 1 }), k(98, { at: 2 })]);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('does not hold the key to a 429 answered to a request without it (the anonymous quota)', () => {
    const judged = judgementsOf([k(99), ex({ auth: 'none', status: 429, headers: rate(0, { limit: 10 }), body: errorBody(429), sentAt: T0 + 1000 }), k(98, { at: 2 })]);
    expect(rateFailures(judged)).toEqual([]);
  });

  it('fails a request served after an answer said Remaining 0, in the same window', () => {
    const judged = judgementsOf([k(1), k(0, { at: 1 }), k(0, { at: 2 })]);
    expect(failuresOf(judged).filter((f) => f.rule === 'rate.over-limit-refused' || f.rule === 'rate.cost').map((f) => f.exchange!.seq)).toEqual([3]);
  });
});

describe('rate.reset-kept: the whole quota comes back no sooner than the Reset announced before it', () => {
  it('fails the whole quota back an hour before the Reset the answer before announced, naming both', () => {
    const judged = judgementsOf([k(0, { reset: RESET + 3_600 }), k(299, { at: 61, reset: RESET + 3_660 })]);
    const [failure] = failuresOf(judged, 'rate.reset-kept');
    expect(failure!.message).toMatch(new RegExp(`says X-RateLimit-Remaining 299 of 300, the whole quota back, 3599 s before the X-RateLimit-Reset ${RESET + 3_600} that #1 announced`));
  });

  it('passes a window that comes back in part long before its Reset, and judges nothing at the Reset, under another Limit, or within a minute of the Reset (two machines\' clocks)', () => {
    expect(ofRule(judgementsOf([k(0), k(299, { at: 60, reset: RESET + 60 })]), 'rate.reset-kept')).toEqual([]);
    resetSeq();
    expect(ofRule(judgementsOf([k(0, { reset: RESET + 3_600 }), k(3, { at: 30, reset: RESET + 3_605 })]), 'rate.reset-kept').map((j) => j.outcome)).toEqual(['held']);
    resetSeq();
    expect(ofRule(judgementsOf([k(0), k(299, { at: 30, reset: RESET + 30 })]), 'rate.reset-kept')).toEqual([]);
    resetSeq();
    expect(ofRule(judgementsOf([k(0, { reset: RESET + 3_600 }), k(9_999, { at: 61, limit: 10_000, reset: RESET + 86_400 })]), 'rate.reset-kept')).toEqual([]);
    resetSeq();
    expect(ofRule(judgementsOf([k(0), k(299, { at: 58.5, reset: RESET + 60 })]), 'rate.reset-kept')).toEqual([]);
  });

  it('holds a whole quota that comes back early only in part of what was spent: more than one request of the key between', () => {
    const judged = judgementsOf([k(0, { reset: RESET + 3_600 }), k(298, { at: 61, reset: RESET + 3_660 })]);
    expect(ofRule(judged, 'rate.reset-kept').map((j) => j.outcome)).toEqual(['held']);
  });
});

describe('judgeRate and learnRate on their own', () => {
  it('judges one answer against the state learnRate left, and learns the window it states', () => {
    const state = freshState();
    const first = k(99);
    const second = k(97, { at: 1 });
    expect(judgeRate([{ exchange: first, view: viewOf(first) }], state, { sharedKey: false })).toEqual([]);
    learnRate([{ exchange: first, view: viewOf(first) }], state);
    expect(state.ledgers.get('key')?.last).toMatchObject({ seq: 1, remaining: 99, limit: 300, reset: RESET });
    const judged = judgeRate([{ exchange: second, view: viewOf(second) }], state, { sharedKey: false });
    expect(failuresOf(judged).map((f) => f.rule)).toEqual(['rate.cost']);
  });

  it('learns from a burst the latest window its answers spoke of and the lowest Remaining of it, whatever order they came back in', () => {
    // A sliding Reset a second on for the last three of five requests handled at once, answered out of order.
    const burst = [k(69, { burst: 1 }), k(66, { burst: 1, reset: RESET + 1 }), k(70, { burst: 1 }), k(68, { burst: 1, reset: RESET + 1 }), k(67, { burst: 1, reset: RESET + 1 })];
    const state = freshState();
    learnRate(burst.map((exchange) => ({ exchange, view: viewOf(exchange) })), state);
    expect(state.ledgers.get('key')?.last).toMatchObject({ remaining: 66, reset: RESET + 1 });
    const next = k(65, { at: 1, reset: RESET + 1 });
    expect(failuresOf(judgeRate([{ exchange: next, view: viewOf(next) }], state, { sharedKey: false }))).toEqual([]);
  });

  it('closes the key\'s window on a 429 until the reset it states', () => {
    const state = freshState();
    const refusal = throttled(0);
    learnRate([{ exchange: refusal, view: viewOf(refusal) }], state);
    expect(state.ledgers.get('key')?.closed).toEqual({ reset: RESET, seq: 1, until: RESET * 1000 });
  });

  it('lets a request be served once the 429\'s Retry-After has passed, before the reset, as a sliding window frees one', () => {
    const judged = judgementsOf([k(0), throttled(0, { at: 1, retryAfter: '20' }), k(0, { at: 5 }), k(0, { at: 22 })]);
    expect(failuresOf(judged, 'rate.over-limit-refused').map((f) => f.exchange!.seq)).toEqual([3]);
  });

  it('fails a second request served after the 429\'s Retry-After where the first served said Remaining 0 in the same window', () => {
    const judged = judgementsOf([k(0), throttled(0, { at: 1, retryAfter: '1' }), k(0, { at: 3 }), k(0, { at: 4 })]);
    expect(failuresOf(judged, 'rate.over-limit-refused').map((f) => f.exchange!.seq)).toEqual([4]);
  });
});

describe('dateOr: when an answer was given', () => {
  it('reads the answer\'s own Date, and takes the fallback when it has none or none readable', () => {
    expect(dateOr({ date: 'Sun, 06 Nov 1994 08:49:37 GMT' }, 5)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(dateOr({}, 5)).toBe(5);
    expect(dateOr({ date: 'yesterday' }, 5)).toBe(5);
  });
});
