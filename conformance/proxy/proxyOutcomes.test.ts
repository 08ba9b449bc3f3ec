import { describe, expect, it } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { EvidenceBudget, mergeOperations, ProxyOutcomes } from './proxyOutcomes.ts';

function exchange(seq: number, body = '', requestBody?: string): Exchange {
  return {
    seq,
    checkId: 'proxy',
    operationId: 'listPets',
    intent: 'valid',
    path: '/pets',
    bucket: 'key',
    sentAt: 0,
    request: { method: 'POST', url: 'http://staging.test/v1/pets', headers: { authorization: 'Bearer $CLIENT_KEY_1', 'x-long': 'v'.repeat(20_000) }, ...(requestBody !== undefined ? { body: requestBody } : {}) },
    response: { status: 500, headers: {}, rawHeaders: [], body, bytes: new Uint8Array(0), json: undefined, durationMs: 1 },
    retries: 0,
  };
}

describe('a check\'s outcomes as the proxy keeps them', () => {
  it('lists at most its cap of distinct findings, and counts every later new one on one more', () => {
    const outcomes = new ProxyOutcomes(['listPets'], new EvidenceBudget(), 3);
    for (let i = 0; i < 10; i++) outcomes.fail('listPets', `problem ${i}`, exchange(i), `kind ${i}`);
    outcomes.fail('listPets', 'problem 0 again', exchange(11), 'kind 0');
    const [op] = outcomes.results();
    expect(op!.findings.map((f) => [f.message.slice(0, 9), f.occurrences])).toEqual([['problem 0', 2], ['problem 1', 1], ['problem 2', 1], ['More fail', 7]]);
    expect(op!.status).toBe('failed');
  });

  it('keeps of a finding\'s evidence its request cut, the answer\'s excerpt, and nothing past the budget', () => {
    const budget = new EvidenceBudget(100_000);
    const outcomes = new ProxyOutcomes(['listPets'], budget);
    outcomes.fail('listPets', 'first', exchange(1, 'b'.repeat(1_000_000), 'r'.repeat(100_000)), 'a');
    const [first] = outcomes.results()[0]!.findings;
    expect(first!.evidence!.request.body).toHaveLength(64 * 1024 + 1);
    expect(first!.evidence!.request.headers['x-long']).toMatch(/^v{8192}… \(11808 more characters not kept\)$/);
    expect(first!.evidence!.response.bodyExcerpt).toHaveLength(601);
    expect(budget.left).toBeLessThan(100_000 - 64 * 1024);
    outcomes.fail('listPets', 'second', exchange(2, '', 'r'.repeat(100_000)), 'b');
    const second = outcomes.results()[0]!.findings[1]!;
    expect(second.evidence!.request).toEqual({ method: 'POST', url: 'http://staging.test/v1/pets', headers: {} });
    outcomes.release();
    expect(budget.left).toBe(100_000);
  });
});

describe('two sets of outcomes of one check, merged', () => {
  it('fail when either failed, pass when either passed, and keep the findings of both', () => {
    const passed = new ProxyOutcomes(['listPets', 'getPet']);
    passed.examined('listPets');
    const failed = new ProxyOutcomes(['listPets', 'getPet']);
    failed.fail('getPet', 'broken', exchange(1), 'x');
    failed.warn('listPets', 'odd', exchange(2), 'y');
    expect(mergeOperations(passed.results(), failed.results()).map((op) => [op.operationId, op.status, op.findings.length])).toEqual([['listPets', 'passed', 1], ['getPet', 'failed', 1]]);
  });
});
