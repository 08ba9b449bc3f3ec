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

  it('fails requests sent during a ban', () => {
    expect(rules([ok(0, { status: 429, code: 'API_KEY_BANNED', retryAfter: 300 }), ok(400_000, { status: 429, code: 'API_KEY_BANNED', retryAfter: 100 })])).toContain('client.banned');
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

  it('grades each client on its own', () => {
    const other = { client: 'k2', clientLabel: 'demo…(8)' };
    expect(rules([throttled(0, 30), ok(40_000), ok(100, other)])).toEqual([]);
  });
});
