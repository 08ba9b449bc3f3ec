import { beforeEach, describe, expect, it } from 'vitest';
import { judgeEquivalence, learnEquivalence } from './judgeEquivalence.ts';
import { errorBody, ex, failuresOf, freshState, judgementsOf, ofRule, resetSeq, viewOf, type ExParts } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

/** One spelling of GET /pets?limit=2&status=sold, in the equivalence group `g`, answered `status`. */
const spelling = (status: number, parts: Partial<ExParts> = {}) =>
  ex({ path: '/pets?limit=2&status=sold', status, body: status === 200 ? '[]' : errorBody(status), equivalence: 'g', ...parts });
const sameStatus = (judged: ReturnType<typeof judgementsOf>) => ofRule(judged, 'equivalent.same-status');

describe('equivalent.same-status: equivalent spellings of one request get the same status', () => {
  it('holds every spelling answered as the first was', () => {
    const judged = judgementsOf([
      spelling(200),
      spelling(200, { path: '/pets?status=sold&limit=2', case: 'equivalent/list/parameter-order' }),
      spelling(200, { requestHeaders: { ACCEPT: 'application/json' }, case: 'equivalent/list/header-case' }),
      spelling(200, { auth: 'bearer $PETS_API_KEY', case: 'equivalent/list/lowercase-scheme' }),
    ]);
    expect(sameStatus(judged).map((j) => [j.exchange.seq, j.outcome])).toEqual([[2, 'held'], [3, 'held'], [4, 'held']]);
    expect(failuresOf(judged, 'equivalent.same-status')).toEqual([]);
  });

  it('fails the lower-case `bearer` spelling refused 401, naming both answers and the difference', () => {
    const judged = judgementsOf([spelling(200), spelling(401, { auth: 'bearer $PETS_API_KEY', case: 'equivalent/list/lowercase-scheme' })]);
    const [failure, ...more] = failuresOf(judged, 'equivalent.same-status');
    expect(more).toEqual([]);
    expect(failure!.message).toContain('#2 GET /pets?limit=2&status=sold was answered 401, but the same request spelled another way (#1 /pets?limit=2&status=sold) was answered 200; this one differs only in lowercase-scheme');
    expect(failure!.related).toEqual([1]);
  });

  it('fails a percent-encoded getPet answered 404 where the plain one was answered 200', () => {
    const judged = judgementsOf([
      ex({ path: '/pets/12', status: 200, body: { id: 12, name: 'A', categoryId: 1 }, equivalence: 'get-12' }),
      ex({ path: '/pets/%31%32', status: 404, body: errorBody(404), equivalence: 'get-12' }),
    ]);
    expect(failuresOf(judged, 'equivalent.same-status').map((f) => f.exchange.seq)).toEqual([2]);
  });

  it('compares each spelling with the first answer of its group, not with the one before', () => {
    const judged = judgementsOf([spelling(200), spelling(415), spelling(200)]);
    expect(sameStatus(judged).map((j) => [j.exchange.seq, j.outcome])).toEqual([[2, 'failure'], [3, 'held']]);
  });

  it('keeps groups apart', () => {
    const judged = judgementsOf([spelling(200), spelling(400, { equivalence: 'other' }), spelling(400, { equivalence: 'other' }), spelling(200)]);
    expect(failuresOf(judged, 'equivalent.same-status')).toEqual([]);
    expect(sameStatus(judged)).toHaveLength(2);
  });

  it('neither judges nor learns a 429 or a gateway\'s 502, 503, 504', () => {
    const judged = judgementsOf([spelling(429), spelling(503), spelling(200), spelling(429), spelling(502), spelling(200)]);
    expect(sameStatus(judged).map((j) => [j.exchange.seq, j.outcome])).toEqual([[6, 'held']]);
  });

  it('judges nothing of requests in no group, or of undocumented ones', () => {
    expect(sameStatus(judgementsOf([ex({ status: 200, body: '[]' }), ex({ status: 500, body: errorBody(500) })]))).toEqual([]);
    expect(sameStatus(judgementsOf([ex({ method: 'HEAD', status: 200, equivalence: 'h' }), ex({ method: 'HEAD', status: 405, equivalence: 'h' })]))).toEqual([]);
  });
});

describe('judgeEquivalence and learnEquivalence on their own', () => {
  it('judges nothing of the first answer of a group, and learns it', () => {
    const state = freshState();
    const first = spelling(200);
    expect(judgeEquivalence(first, viewOf(first), state)).toEqual([]);
    learnEquivalence(first, state);
    expect(state.equivalents.get('g')).toEqual({ seq: 1, status: 200, path: '/pets?limit=2&status=sold' });
  });

  it('keeps the first answer learnt: a later one does not replace it', () => {
    const state = freshState();
    learnEquivalence(spelling(200), state);
    learnEquivalence(spelling(400), state);
    const third = spelling(400);
    expect(judgeEquivalence(third, viewOf(third), state).map((j) => j.outcome)).toEqual(['failure']);
  });
});
