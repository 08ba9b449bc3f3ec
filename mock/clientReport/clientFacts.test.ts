import { describe, expect, it } from 'vitest';
import { clientFacts, type AnsweredExchange } from './clientFacts.ts';

/** A keyless GET of the pets as the pipeline holds it, answered with `headers`. */
const exchange = (headers: Record<string, string>, over: Partial<AnsweredExchange> = {}): AnsweredExchange => ({
  method: 'GET',
  request: { url: '/v1/pets', headers: {} },
  query: {},
  ip: '203.0.113.9',
  apiKey: null,
  op: { operationId: 'listPets' },
  headers,
  ...over,
});

describe('clientFacts', () => {
  it('reads what the client was told as numbers: none for a field that is empty, blank or no number, 0 for "0"', () => {
    const told = clientFacts(exchange({ 'retry-after': '30', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1795961460' }), { status: 429, arrivedAt: 1 }, null);
    expect(told).toMatchObject({ retryAfter: 30, remaining: 0, reset: 1795961460 });
    const blank = clientFacts(exchange({ 'retry-after': '', 'x-ratelimit-remaining': '  ', 'x-ratelimit-reset': 'soon' }), { status: 429, arrivedAt: 1 }, null);
    expect(blank).not.toHaveProperty('retryAfter');
    expect(blank).not.toHaveProperty('remaining');
    expect(blank).not.toHaveProperty('reset');
  });

  it('reads nothing told for a request left unanswered', () => {
    const facts = clientFacts(exchange({ 'retry-after': '30' }), { status: 0, arrivedAt: 1 }, null);
    expect(facts).not.toHaveProperty('retryAfter');
  });

  it('digests a POST body by its bytes: the same bytes alike, other bytes not', () => {
    const post = (text: string) => clientFacts(exchange({}, { method: 'POST', op: { operationId: 'createPet' }, bytes: new TextEncoder().encode(text) }), { status: 201, arrivedAt: 1 }, null).bodyDigest;
    expect(post('{"name":"Rex","categoryId":1}')).toBe(post('{"name":"Rex","categoryId":1}'));
    expect(post('{"name":"Rex","categoryId":2}')).not.toBe(post('{"name":"Rex","categoryId":1}'));
    expect(post('{"name":"Rex","categoryId":1}')).toHaveLength(16);
    // A byte order mark is no part of the JSON text the mock reads: the body digests as without it.
    expect(post('\uFEFF{"name":"Rex","categoryId":1}')).toBe(post('{"name":"Rex","categoryId":1}'));
  });
});
