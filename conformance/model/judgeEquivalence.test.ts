import { beforeEach, describe, expect, it } from 'vitest';
import { judgeEquivalence, learnEquivalence } from './judgeEquivalence.ts';
import { errorBody, ex, failuresOf, freshState, judgementsOf, ofRule, petJson, rate, RESET, resetSeq, viewOf, type ExParts } from './testing/modelExchanges.ts';

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
    expect(sameStatus(judged).map((j) => [j.exchange!.seq, j.outcome])).toEqual([[2, 'held'], [3, 'held'], [4, 'held']]);
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
    expect(failuresOf(judged, 'equivalent.same-status').map((f) => f.exchange!.seq)).toEqual([2]);
  });

  it('compares each spelling with the first answer of its group, not with the one before', () => {
    const judged = judgementsOf([spelling(200), spelling(415), spelling(200)]);
    expect(sameStatus(judged).map((j) => [j.exchange!.seq, j.outcome])).toEqual([[2, 'failure'], [3, 'held']]);
  });

  it('keeps groups apart', () => {
    const judged = judgementsOf([spelling(200), spelling(400, { equivalence: 'other' }), spelling(400, { equivalence: 'other' }), spelling(200)]);
    expect(failuresOf(judged, 'equivalent.same-status')).toEqual([]);
    expect(sameStatus(judged)).toHaveLength(2);
  });

  it('neither judges nor learns a 429 or a gateway\'s 502, 503, 504', () => {
    const judged = judgementsOf([spelling(429), spelling(503), spelling(200), spelling(429), spelling(502), spelling(200)]);
    expect(sameStatus(judged).map((j) => [j.exchange!.seq, j.outcome])).toEqual([[6, 'held']]);
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
    expect(state.equivalents.get('g')).toMatchObject({ seq: 1, status: 200, path: '/pets?limit=2&status=sold' });
  });

  it('keeps the first answer learnt: a later one does not replace it', () => {
    const state = freshState();
    learnEquivalence(spelling(200), state);
    learnEquivalence(spelling(400), state);
    const third = spelling(400);
    expect(judgeEquivalence(third, viewOf(third), state).map((j) => j.outcome)).toEqual(['failure']);
  });
});

describe('equivalent.same-status: the Error\'s meaning, not its words', () => {
  it('holds two refusals with Errors of the same status whose code and message differ', () => {
    const judged = judgementsOf([spelling(400, { body: { code: 'A', message: 'one', status: 400 } }), spelling(400, { body: { code: 'B', message: 'deux', status: 400 }, requestHeaders: { 'Accept-Language': 'fr' } })]);
    expect(sameStatus(judged).map((j) => j.outcome)).toEqual(['held']);
  });

  it('fails the same status without the Error body the first form had', () => {
    const judged = judgementsOf([spelling(400), spelling(400, { body: '<h1>Bad Request</h1>', headers: { 'content-type': 'text/html' }, case: 'equivalent/list/browser' })]);
    expect(failuresOf(judged, 'equivalent.same-status')[0]!.message).toContain('without the Error body {code, message, status: 400} that one had; this one differs only in browser');
  });

  it('fails a 200 whose body is no JSON where the first form got a list', () => {
    expect(failuresOf(judgementsOf([spelling(200), spelling(200, { body: 'OK', headers: { 'content-type': 'text/plain' } })]), 'equivalent.same-status')).toHaveLength(1);
  });

  it('judges only the status of a form whose body the run kept only in part, and compares no data', () => {
    const cut = spelling(200, { body: '[{"id":1,"name":"' });
    cut.response.keptInPart = 'the run had already kept 16 MiB of answers, its own budget, so only the body\'s first 64 KiB were kept';
    const judged = judgementsOf([spelling(200), cut]);
    expect(failuresOf(judged)).toEqual([]);
    expect(sameStatus(judged).map((j) => j.outcome)).toEqual(['held']);
    expect(ofRule(judged, 'equivalent.same-data')).toEqual([]);
  });

  it('tells nothing of a getPet answered before getPet\'s removal and answered 410 after it', () => {
    const read = (status: number, date: string) => ex({ path: '/pets/41', status, body: status === 200 ? petJson({ id: 41 }) : errorBody(status), equivalence: 'g', headers: { ...rate(9), date } });
    const judged = judgementsOf([read(200, 'Wed, 04 Dec 2030 23:59:59 GMT'), read(410, 'Thu, 05 Dec 2030 00:00:01 GMT')]);
    expect(sameStatus(judged)).toEqual([]);
  });

  it('warns, not fails, a 403 to a form that carries an Origin (a CORS policy)', () => {
    const judged = judgementsOf([spelling(200), spelling(403, { requestHeaders: { Origin: 'https://pets-app.example' } })]);
    expect(sameStatus(judged).map((j) => j.outcome)).toEqual(['warning']);
    expect(sameStatus(judged)[0]!.message).toContain('a CORS policy may refuse an origin');
  });

  it('fails a 403 to a form without an Origin', () => {
    expect(sameStatus(judgementsOf([spelling(200), spelling(403)])).map((j) => j.outcome)).toEqual(['failure']);
  });
});

describe('equivalent.same-cost: every form costs the key\'s window what the first did', () => {
  const counted = (remaining: number, parts: Partial<ExParts> = {}) => spelling(200, { headers: rate(remaining), ...parts });
  const costs = (judged: ReturnType<typeof judgementsOf>) => ofRule(judged, 'equivalent.same-cost').map((j) => [j.exchange!.seq, j.outcome]);

  it('holds forms that each cost one', () => {
    expect(costs(judgementsOf([ex({ status: 200, body: '[]', headers: rate(50) }), counted(49), counted(48), counted(47)]))).toEqual([[3, 'held'], [4, 'held']]);
  });

  it('fails a form from another source address that starts a window of its own, saying so', () => {
    const judged = judgementsOf([ex({ status: 200, body: '[]', headers: rate(50) }), counted(49), counted(299, { case: 'generated/relation/1/source-address' })]);
    expect(costs(judged)).toEqual([[3, 'failure']]);
    expect(failuresOf(judged, 'equivalent.same-cost')[0]!.message).toContain('moved X-RateLimit-Remaining by -250 (up: another window), where the same request spelled another way (#2) moved it by 1; this one differs only in source-address');
  });

  it('fails a form the window does not count, and one it counts twice', () => {
    expect(costs(judgementsOf([ex({ status: 200, body: '[]', headers: rate(50) }), counted(49), counted(49), counted(47)]))).toEqual([[3, 'failure'], [4, 'failure']]);
  });

  it('tells nothing within a tick of the window\'s Reset, where a sliding window frees requests with Reset unchanged', () => {
    const lastSecond = RESET * 1000 - 500;
    expect(costs(judgementsOf([ex({ status: 200, body: '[]', headers: rate(50), sentAt: lastSecond }), counted(49, { sentAt: lastSecond }), counted(49, { sentAt: lastSecond }), counted(50, { sentAt: lastSecond })]))).toEqual([]);
  });

  it('tells nothing across windows, after another request of the key, or with --shared-key', () => {
    expect(costs(judgementsOf([ex({ status: 200, body: '[]', headers: rate(50) }), counted(49), counted(299, { headers: rate(299, { reset: 9_999_999_999 }) })]))).toEqual([]);
    expect(costs(judgementsOf([ex({ status: 200, body: '[]', headers: rate(50) }), counted(49), counted(30)], { sharedKey: true }))).toEqual([]);
  });
});

describe('equivalent.same-data: every form of a read gives back the same pets', () => {
  const read = (pet: Parameters<typeof petJson>[0], parts: Partial<ExParts> = {}) => ex({ path: '/pets/7', status: 200, body: petJson(pet), equivalence: 'get-7', ...parts });
  const data = (judged: ReturnType<typeof judgementsOf>) => ofRule(judged, 'equivalent.same-data').map((j) => j.outcome);

  it('holds the same pet read in two forms', () => {
    expect(data(judgementsOf([read({ id: 7, name: 'Rex', categoryId: 1, status: 'sold' }), read({ id: 7, name: 'Rex', categoryId: 1, status: 'sold' })]))).toEqual(['held']);
  });

  it('fails a name that differs with the form (a translated or cached answer), naming both', () => {
    const judged = judgementsOf([read({ id: 7, name: 'Rex', categoryId: 1 }), read({ id: 7, name: 'Rex (fr)', categoryId: 1 }, { case: 'x/accept-language' })]);
    expect(failuresOf(judged, 'equivalent.same-data')[0]!.message).toContain('gave name "Rex (fr)" where the same request spelled another way (#1) gave "Rex"');
  });

  it('warns of a status that changed on a pet the run did not create (transitions are not shown)', () => {
    expect(data(judgementsOf([read({ id: 7, name: 'Rex', categoryId: 1, status: 'available' }), read({ id: 7, name: 'Rex', categoryId: 1, status: 'sold' })]))).toEqual(['warning']);
  });

  it('fails a list form that gives a listed pet another categoryId', () => {
    const list = (category: number) => ex({ path: '/pets?limit=2', status: 200, body: `[${petJson({ id: 7, name: 'Rex', categoryId: category })}]`, equivalence: 'l' });
    expect(data(judgementsOf([list(1), list(2)]))).toEqual(['failure']);
  });
});
