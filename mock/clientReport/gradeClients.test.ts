import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClientObservation } from './clientObservation.ts';
import { gradeClients } from './gradeClients.ts';

const T0 = Date.UTC(2026, 5, 1, 12, 30, 0);
const ok = (at: number, extra: Partial<ClientObservation> = {}): ClientObservation => ({
  at: T0 + at, method: 'GET', url: '/v1/pets?limit=5', operationId: 'listPets', status: 200, client: 'k1', clientLabel: 'demo…(9)', auth: 'bearer', remaining: 10, reset: (T0 + 60_000) / 1000, ...extra,
});
const throttled = (at: number, retryAfter: number, extra: Partial<ClientObservation> = {}) => ok(at, { status: 429, code: 'RATE_LIMITED', retryAfter, remaining: 0, ...extra });
const rules = (observations: ClientObservation[]) => gradeClients(observations).findings.map((f) => f.rule);

describe('gradeClients', () => {
  it('gives a client that honours Retry-After and backs off an empty report', () => {
    const report = gradeClients([ok(0), ok(1000, { remaining: 1 }), throttled(2000, 30), ok(32_000), ok(40_000)]);
    expect(report).toEqual({ passed: true, findings: [], deprecatedUse: [] });
  });

  it('fails a request sent after a 429 before its Retry-After had passed, saying how early', () => {
    const report = gradeClients([throttled(0, 30), ok(200)]);
    expect(report.passed).toBe(false);
    expect(report.findings[0]).toMatchObject({ rule: 'client.retry-after', level: 'failure', client: 'demo…(9)', quote: expect.stringContaining('Retry-After'), requests: [expect.objectContaining({ status: 429 }), expect.objectContaining({ status: 200 })] });
    expect(report.findings[0]!.message).toMatch(/the first 29\.8 s early/);
    expect(report.findings[0]!.instead).toMatch(/Wait until Retry-After has passed/);
  });

  it('fails retries after failures whose gaps do not grow, and passes ones that double', () => {
    const flat = [0, 1000, 2000, 3000].map((at) => ok(at, { status: 503, code: 'SERVICE_UNAVAILABLE' }));
    expect(rules(flat)).toContain('client.backoff');
    const doubling = [0, 1000, 3000, 7000].map((at) => ok(at, { status: 503, code: 'SERVICE_UNAVAILABLE' }));
    expect(rules(doubling)).not.toContain('client.backoff');
    // Jitter may shrink one gap; the gaps still spread.
    const jittered = [0, 800, 1300, 4300].map((at) => ok(at, { status: 503, code: 'SERVICE_UNAVAILABLE' }));
    expect(rules(jittered)).not.toContain('client.backoff');
    // Waiting what Retry-After says each time is backing off as told, though the gaps stay equal.
    const told = [0, 30_000, 60_000, 90_000].map((at) => throttled(at, 30));
    expect(rules(told)).toEqual([]);
  });

  it('passes full jitter whose draws come out small or close, and fails a fixed interval with two retries or with timer noise', () => {
    const failing = (gaps: number[]) => gaps.reduce<number[]>((at, gap) => [...at, at[at.length - 1]! + gap], [0]).map((at) => ok(at, { status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: 30 }));
    // Draws of random(0, 1000·2ⁿ) and random(0, 100·2ⁿ) that the old test (gaps within 1.5× of each other, or all under 250 ms) failed.
    expect(rules(failing([923, 666, 886]))).toEqual([]);
    expect(rules(failing([92, 66, 88]))).toEqual([]);
    expect(rules(failing([48, 73, 27]))).toEqual([]);
    // Two gaps: only an exact repeat of a chosen wait is a fixed interval.
    expect(rules(failing([1000, 1000]))).toEqual(['client.backoff']);
    expect(rules(failing([412, 1630]))).toEqual([]);
    expect(rules(failing([37, 37]))).toEqual([]);
    expect(rules(failing([1000, 1003]))).toEqual([]);
    // On a real clock a fixed 1 s interval drifts by a few milliseconds.
    expect(rules(failing([1003, 1011, 1001]))).toEqual(['client.backoff']);
    // More retries at about the same gap: a fixed interval with a little jitter of its own.
    expect(rules(failing([1000, 1150, 900, 1080, 950]))).toEqual(['client.backoff']);
    // A capped backoff stops growing once at its cap: not a fixed interval.
    expect(rules(failing([1000, 2000, 4000, 4000, 4000, 4000, 4000]))).toEqual([]);
  });

  it('takes a request sent within 100 ms of a failure for one sent with it, not for its retry: a burst of one GET is no retrying', () => {
    const failing = (gaps: number[]) => gaps.reduce<number[]>((at, gap) => [...at, at[at.length - 1]! + gap], [0]).map((at) => ok(at, { status: 503, code: 'SERVICE_UNAVAILABLE' }));
    // The same four arrivals are four tries sent at once and spread by the host, or one try resent at
    // once three times: the mock cannot tell them apart, and judges neither.
    expect(rules(failing([0, 0, 0]))).toEqual([]);
    expect(rules(failing([5, 7, 8]))).toEqual([]);
    // Kept up past 100 ms, retrying at once is retrying at a fixed interval.
    expect(rules(failing(Array(400).fill(1)))).toEqual(['client.backoff']);
  });

  it('fails requests sent during a ban, and not the one that earned it', () => {
    const banned = (at: number, retryAfter: number) => ok(at, { status: 429, code: 'API_KEY_BANNED', retryAfter });
    expect(rules([banned(0, 300), banned(10_000, 290)])).toContain('client.banned');
    // With --ban-threshold 1 the first 429 is the ban: a client that waits it out, and later earns another, sent nothing during one.
    expect(rules([ok(0, { remaining: 0 }), banned(1000, 300), ok(301_000), ok(302_000, { remaining: 0 }), banned(303_000, 300)])).toEqual([]);
    // A ban told to last 300 s is over at 300 s.
    expect(rules([banned(0, 300), banned(300_000, 300)])).toEqual([]);
  });

  it('fails a client that meets 429 again and again after an answer said nothing remained, and forgets it once that window reset', () => {
    expect(rules([ok(0, { remaining: 0 }), throttled(1000, 59), throttled(2000, 58)])).toContain('client.quota');
    // One 429 is how a client that does not read Remaining learns of the limit: it is judged by what it does next.
    expect(rules([ok(0, { remaining: 0 }), throttled(1000, 59), ok(60_000, { remaining: 59, reset: (T0 + 120_000) / 1000 })])).toEqual([]);
    expect(rules([ok(0, { remaining: 0 }), ok(61_000, { remaining: 59, reset: (T0 + 120_000) / 1000 })])).toEqual([]);
  });

  it('fails requests the contract refuses: a limit out of range, a body that is no NewPet, another scheme, a key outside Authorization', () => {
    expect(rules([ok(0, { url: '/v1/pets?limit=500', status: 400, code: 'INVALID_QUERY_PARAMETER' })])).toEqual(['client.limit-range']);
    expect(rules([ok(0, { method: 'POST', url: '/v1/pets', operationId: 'createPet', status: 400, code: 'INVALID_BODY' })])).toEqual(['client.new-pet']);
    expect(rules([ok(0, { status: 401, code: 'UNAUTHORIZED', auth: 'scheme' })])).toEqual(['client.bearer']);
    expect(rules([ok(0, { keyElsewhere: true })])).toEqual(['client.key-in-header']);
  });

  it('warns of a POST sent again with the same body right after a 5xx or no answer, and not of a different body', () => {
    const post = (at: number, status: number, bodyDigest: string) => ok(at, { method: 'POST', url: '/v1/pets', operationId: 'createPet', status, bodyDigest });
    const report = gradeClients([post(0, 503, 'a'), post(2000, 201, 'a')]);
    expect(report.findings.map((f) => [f.rule, f.level])).toEqual([['client.post-retry', 'warning']]);
    expect(report.passed).toBe(true);
    expect(rules([post(0, 0, 'a'), post(2000, 201, 'a')])).toEqual(['client.post-retry']);
    expect(rules([post(0, 503, 'a'), post(2000, 201, 'b')])).toEqual([]);
  });

  it('warns once of a create resent twice after failures, listing every send, not once a resend', () => {
    const post = (at: number, status: number) => ok(at, { method: 'POST', url: '/v1/pets', operationId: 'createPet', status, bodyDigest: 'a' });
    const report = gradeClients([post(0, 503), post(2000, 503), post(5000, 201)]);
    expect(report.findings.map((f) => f.rule)).toEqual(['client.post-retry']);
    expect(report.findings[0]!.requests.map((r) => r.status)).toEqual([503, 503, 201]);
    expect(report.findings[0]!.message).toBe('POST /v1/pets was sent again with the same body 2.00 s after it was answered 503 (and 1 more time after that failed too: 3 sends in all); the first may have created the pet.');
  });

  it('warns of the deprecated getPet with its removal date', () => {
    const report = gradeClients([ok(0, { url: '/v1/pets/3', operationId: 'getPet' })]);
    expect(report.findings[0]).toMatchObject({ rule: 'client.deprecated', level: 'warning' });
    expect(report.findings[0]!.message).toMatch(/5 December 2030/);
  });

  it('grades each client on its own', () => {
    const other = { client: 'k2', clientLabel: 'demo…(8)' };
    expect(rules([throttled(0, 30), ok(40_000), ok(100, other)])).toEqual([]);
  });
});

describe('gradeClients, on what the client sent and had been told, not the order its host handed it over in', () => {
  const banned = (at: number, retryAfter: number) => ok(at, { status: 429, code: 'API_KEY_BANNED', retryAfter });
  /** Every order of `requests` a host might log them in: each must give `report`. */
  const inAnyOrder = (requests: ClientObservation[], report: ReturnType<typeof gradeClients>) =>
    fc.assert(fc.property(fc.shuffledSubarray(requests, { minLength: requests.length }), (order) => {
      expect(gradeClients(order)).toEqual(report);
    }), { numRuns: 50 });

  it('draws nothing from seven requests sent at once that cross the limit, then wait out Retry-After', () => {
    const reset = (T0 + 60_000) / 1000;
    const seven = [...[3, 2, 1, 0].map((remaining) => ok(0, { remaining, reset })), ...[0, 1, 2].map(() => throttled(0, 60, { reset }))];
    const next = [6, 5, 4, 3, 2, 1, 0].map((remaining) => ok(60_000, { remaining, reset: reset + 60 }));
    inAnyOrder([...seven, ...next], { passed: true, findings: [], deprecatedUse: [] });
    // Seven lists of different pages, the same.
    inAnyOrder(seven.map((o, i) => ({ ...o, url: `/v1/pets?limit=${i + 1}` })), { passed: true, findings: [], deprecatedUse: [] });
  });

  it('draws nothing from the same GET sent three times at once, each sent again once its Retry-After passed', () => {
    inAnyOrder([...[0, 1, 2].map(() => throttled(0, 2)), ...[0, 1, 2].map(() => ok(2000))], { passed: true, findings: [], deprecatedUse: [] });
  });

  it('fails the same GET resent three times at once 0.5 s after its 429s, before their Retry-After: client.retry-after, once', () => {
    const requests = [...[0, 1, 2].map(() => throttled(0, 2)), ...[0, 1, 2].map(() => ok(500))];
    const report = gradeClients(requests);
    expect(report.findings.map((f) => f.rule)).toEqual(['client.retry-after']);
    expect(report.findings[0]!.requests.map((r) => r.status)).toEqual([429, 200, 200, 200]);
    expect(report.findings[0]!.message).toMatch(/^3 requests came after the 429 of 12:30:00.000 \(Retry-After: 2\) before it had passed; the first 1\.50 s early/);
    inAnyOrder(requests, report);
  });

  it('fails the same GET sent three times at once and each retried at a fixed 1 s after 503s: one client.backoff for the three', () => {
    const unavailable = (at: number) => ok(at, { status: 503, code: 'SERVICE_UNAVAILABLE' });
    const requests = [0, 1000, 2000].flatMap((at) => [unavailable(at), unavailable(at), unavailable(at)]).concat([ok(3000), ok(3000), ok(3000)]);
    const report = gradeClients(requests);
    expect(report.findings.map((f) => f.rule)).toEqual(['client.backoff']);
    expect(report.findings[0]!.message).toBe('GET /v1/pets?limit=5 was retried after failures at gaps of 1.00 s, 1.00 s, 1.00 s: they do not grow (so were 2 more tries of it, sent together with this one).');
    inAnyOrder(requests, report);
  });

  it('passes three tries of one GET sent together, each backing off with its own jitter, without joining one to another', () => {
    const unavailable = (at: number) => ok(at, { status: 503, code: 'SERVICE_UNAVAILABLE' });
    // Tries sent at 0; retried at 150, 300 and 700; again at 550, 1200 and 2200. Read as one try
    // retried at 0, 150 and 300, the gaps would be a fixed 150 ms.
    const requests = [unavailable(0), unavailable(0), unavailable(0), unavailable(150), unavailable(300), unavailable(700), ok(550), ok(1200), ok(2200)];
    inAnyOrder(requests, { passed: true, findings: [], deprecatedUse: [] });
  });

  it('takes a request handed over at the instant of a 429 for one sent with it, and one handed over 101 ms after for one sent after it', () => {
    inAnyOrder([throttled(0, 30), ok(0)], { passed: true, findings: [], deprecatedUse: [] });
    inAnyOrder([throttled(0, 30), ok(100)], { passed: true, findings: [], deprecatedUse: [] });
    expect(rules([throttled(0, 30), ok(101)])).toEqual(['client.retry-after']);
  });

  it('judges a request by when it reached the mock, not by when it was answered', () => {
    // Sent with the request answered 429 at 0, and answered a second later: not sent after it.
    expect(rules([throttled(0, 30), ok(1000, { arrivedAt: T0 })])).toEqual([]);
    expect(rules([throttled(0, 30), ok(1000, { arrivedAt: T0 + 900 })])).toEqual(['client.retry-after']);
  });

  it('counts 429s sent together with the first one past Remaining 0 as learning of the limit, and one sent after them as polling past it', () => {
    const learning = [ok(0, { remaining: 0 }), throttled(0, 60), throttled(0, 60)];
    inAnyOrder(learning, { passed: true, findings: [], deprecatedUse: [] });
    const polling = [...learning, throttled(1000, 59)];
    expect(rules(polling)).toEqual(['client.retry-after', 'client.quota']);
    inAnyOrder(polling, gradeClients(polling));
  });

  it('fails no request sent together with the one that earned a ban, and fails one sent once told of it', () => {
    inAnyOrder([banned(0, 300), banned(0, 300), banned(0, 300)], { passed: true, findings: [], deprecatedUse: [] });
    expect(rules([banned(0, 300), banned(0, 300), banned(1000, 299)])).toEqual(['client.retry-after', 'client.banned']);
  });

  it('warns of a POST resent after its 503, not of the same POST sent twice at once', () => {
    const post = (at: number, status: number) => ok(at, { method: 'POST', url: '/v1/pets', operationId: 'createPet', status, bodyDigest: 'a' });
    inAnyOrder([post(0, 503), post(0, 201)], { passed: true, findings: [], deprecatedUse: [] });
    expect(rules([post(0, 503), post(0, 201), post(2000, 201)])).toEqual(['client.post-retry']);
  });

  it('gives one report for the same requests in any order: the report is a function of what each client sent', () => {
    const observation = fc.record({
      instant: fc.constantFrom(0, 0, 0, 40, 500, 1000, 2000, 61_000),
      client: fc.constantFrom('k1', 'k2'),
      url: fc.constantFrom('/v1/pets?limit=5', '/v1/pets?limit=6'),
      answer: fc.constantFrom<Partial<ClientObservation>>(
        { status: 200, remaining: 3 }, { status: 200, remaining: 0 }, { status: 429, code: 'RATE_LIMITED', retryAfter: 2, remaining: 0 },
        { status: 503, code: 'SERVICE_UNAVAILABLE' }, { status: 429, code: 'API_KEY_BANNED', retryAfter: 300 }, { status: 0 },
      ),
    }).map(({ instant, client, url, answer }) => ok(instant, { client, clientLabel: client, url, ...answer }));
    fc.assert(fc.property(fc.array(observation, { maxLength: 24 }).chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length }))), ([list, shuffled]) => {
      expect(gradeClients(shuffled)).toEqual(gradeClients(list));
    }), { numRuns: 300 });
  });
});
