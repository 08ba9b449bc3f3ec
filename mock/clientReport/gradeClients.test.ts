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
    expect(report).toEqual({ passed: true, findings: [] });
  });

  it('fails a request sent after a 429 before its Retry-After had passed, saying how early', () => {
    const report = gradeClients([throttled(0, 30), ok(100)]);
    expect(report.passed).toBe(false);
    expect(report.findings[0]).toMatchObject({ rule: 'client.retry-after', level: 'failure', client: 'demo…(9)', quote: expect.stringContaining('Retry-After'), requests: [expect.objectContaining({ status: 429 }), expect.objectContaining({ status: 200 })] });
    expect(report.findings[0]!.message).toMatch(/the first 29\.9 s early/);
    expect(report.findings[0]!.instead).toMatch(/Wait until Retry-After has passed/);
  });

  it('fails retries after failures whose gaps do not grow, and passes ones that double', () => {
    const flat = [0, 1000, 2000, 3000].map((at) => ok(at, { status: 503, code: 'SERVICE_UNAVAILABLE' }));
    expect(rules(flat)).toContain('client.backoff');
    const doubling = [0, 1000, 3000, 7000].map((at) => ok(at, { status: 503, code: 'SERVICE_UNAVAILABLE' }));
    expect(rules(doubling)).not.toContain('client.backoff');
    const instant = [0, 5, 12, 20].map((at) => ok(at, { status: 503, code: 'SERVICE_UNAVAILABLE' }));
    expect(rules(instant)).toContain('client.backoff');
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
    // Two gaps: only an exact repeat of a chosen wait is a fixed interval, or no wait at all.
    expect(rules(failing([1000, 1000]))).toEqual(['client.backoff']);
    expect(rules(failing([0, 0]))).toEqual(['client.backoff']);
    expect(rules(failing([0, 1]))).toEqual(['client.backoff']);
    expect(rules(failing([412, 1630]))).toEqual([]);
    expect(rules(failing([37, 37]))).toEqual([]);
    expect(rules(failing([1000, 1003]))).toEqual([]);
    // On a real clock a fixed 1 s interval drifts by a few milliseconds; retries at once take a few.
    expect(rules(failing([1003, 1011, 1001]))).toEqual(['client.backoff']);
    expect(rules(failing([2, 4, 1]))).toEqual(['client.backoff']);
    // More retries at about the same gap: a fixed interval with a little jitter of its own.
    expect(rules(failing([1000, 1150, 900, 1080, 950]))).toEqual(['client.backoff']);
    // A capped backoff stops growing once at its cap: not a fixed interval.
    expect(rules(failing([1000, 2000, 4000, 4000, 4000, 4000, 4000]))).toEqual([]);
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

  it('warns of the deprecated getPet with its removal date', () => {
    const report = gradeClients([ok(0, { url: '/v1/pets/3', operationId: 'getPet' })]);
    expect(report.findings[0]).toMatchObject({ rule: 'client.deprecated', level: 'warning' });
    expect(report.findings[0]!.message).toMatch(/5 December 2030/);
  });

  it('tells requests sent together from requests sent after an answer, by the order they reached one app', () => {
    // Three sent at once: the last two arrived before the first (Remaining 0) or the second (429) was answered.
    const order = { order: 'app1' };
    const burst = [
      ok(0, { remaining: 0, arrivedAfter: 0, answerNumber: 1, ...order }),
      throttled(0, 60, { arrivedAfter: 0, answerNumber: 2, ...order }),
      throttled(0, 60, { arrivedAfter: 0, answerNumber: 3, ...order }),
    ];
    expect(rules(burst)).toEqual([]);
    // The same three, each sent once the one before was answered, is a client ignoring the 429.
    const sequential = burst.map((o, i) => ({ ...o, arrivedAfter: i }));
    expect(rules(sequential)).toEqual(expect.arrayContaining(['client.retry-after', 'client.quota']));
    // Numbers of two apps (two replicas) say nothing of each other.
    expect(rules(burst.map((o, i) => ({ ...o, order: `app${i}` })))).toEqual(expect.arrayContaining(['client.retry-after']));
  });

  it('grades each client on its own', () => {
    const other = { client: 'k2', clientLabel: 'demo…(8)' };
    expect(rules([throttled(0, 30), ok(40_000), ok(100, other)])).toEqual([]);
  });
});
