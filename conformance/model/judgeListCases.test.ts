import { describe, expect, it } from 'vitest';
import { testSpec } from '../../mock/testing.ts';
import type { Exchange, Expectation } from '../http/exchange.ts';
import { SpecValidators } from '../specValidators.ts';
import { exchange } from '../testing/exchanges.ts';
import { judgePagination, judgeStatusFilter, withLimitCase } from './judgeListCases.ts';
import type { RunFacts } from './runFacts.ts';

const facts = async (): Promise<RunFacts> => ({ validators: new SpecValidators(await testSpec()), knownPets: [], probeMaxRequests: 10 });
const pets = (n: number, status = 'available') => JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: 1, status })));
const errorOf = (status: number) => JSON.stringify({ code: 'BAD', message: 'no', status });
const limitCase = (name: string, query: string, status: number, body: string, expect: Expectation): Exchange => ({ ...exchange({ path: `/pets${query}`, status, body, case: `list-pets/query/limit/${name}` }), expect });
const served = (what: string): Expectation => ({ rule: 'page.served', answer: 'accept', what, because: 'limit is an integer from 1 to 100' });
const refused = (what: string): Expectation => ({ rule: 'page.refused', answer: 'refuse', status: '4xx', what, because: 'limit is an integer from 1 to 100' });

describe('the pagination check\'s judge', () => {
  it('holds pages within their limit, the default page of 20 when more exist, and a refused limit=0', async () => {
    const judged = judgePagination([
      limitCase('absent', '', 200, pets(20), served('no limit')),
      limitCase('min', '?limit=1', 200, pets(1), served('limit=1')),
      limitCase('max', '?limit=100', 200, pets(100), served('limit=100')),
      limitCase('below-min', '?limit=0', 400, errorOf(400), refused('limit=0')),
    ], await facts());
    expect(judged.filter((j) => j.outcome !== 'held')).toEqual([]);
    expect(new Set(judged.map((j) => j.rule))).toEqual(new Set(['page.served', 'page.default-size', 'page.min-size', 'page.refused']));
  });

  it('fails a limit above the maximum served, naming what was sent, as that case\'s own finding', async () => {
    const [j] = judgePagination([limitCase('above-max', '?limit=101', 200, pets(100), refused('limit=101'))], await facts());
    expect(j).toMatchObject({ rule: 'page.refused', outcome: 'failure', each: true, message: 'GET /pets?limit=101 accepted limit=101 (200); limit is an integer from 1 to 100, so it must be refused with a 4xx.' });
  });

  it('fails a page with no limit that holds fewer than 20 while limit=100 gave more', async () => {
    const judged = judgePagination([limitCase('absent', '', 200, pets(10), served('no limit')), limitCase('max', '?limit=100', 200, pets(60), served('limit=100'))], await facts());
    expect(judged.find((j) => j.outcome === 'failure')).toMatchObject({ rule: 'page.default-size', message: 'GET /pets returned 10 pets while limit=100 returned 60; the default limit is 20, so it must return 20.' });
  });

  it('calls a case answered 429 inconclusive, neither passed nor failed', async () => {
    const [j] = judgePagination([limitCase('min', '?limit=1', 429, errorOf(429), served('limit=1'))], await facts());
    expect(j).toMatchObject({ outcome: 'inconclusive', message: 'GET /pets?limit=1 was answered 429 (rate limited)' });
  });
});

describe('the status-filter check\'s judge', () => {
  const statusCase = (value: string, body: string): Exchange => ({ ...exchange({ path: `/pets?status=${value}&limit=100`, status: 200, body, case: `list-pets/query/status/${value}` }), expect: { rule: 'filter.served', answer: 'accept', what: `status=${value}`, because: 'status is one of available, pending, sold' } });

  it('leaves a filtered list holding a pet of another status to data.status-filter (judgeData.test.ts), holding it served', async () => {
    const judged = judgeStatusFilter([statusCase('sold', pets(3, 'available'))], await facts());
    expect(judged.filter((j) => j.outcome === 'failure')).toEqual([]);
    expect(judged.filter((j) => j.rule === 'filter.served').map((j) => j.outcome)).toEqual(['held']);
  });

  it('calls the case of a status with a limit inconclusive when no status has two pets, with why', async () => {
    const judged = judgeStatusFilter([statusCase('sold', pets(1, 'sold'))], await facts());
    expect(judged.find((j) => j.outcome === 'inconclusive')).toMatchObject({ rule: 'filter.with-limit', case: withLimitCase, message: 'no status has two pets or more, so a smaller limit cannot be tried' });
  });

  it('warns of a page shorter than its limit while more pets match', async () => {
    const page = exchange({ path: '/pets?status=sold&limit=2', status: 200, body: pets(1, 'sold'), case: withLimitCase });
    const judged = judgeStatusFilter([statusCase('sold', pets(3, 'sold')), page], await facts());
    expect(judged.filter((j) => j.exchange === page).map((j) => j.outcome)).toEqual(['held', 'warning']);
  });

  it('holds an unknown status refused, or answered with no pet of it (a warning)', async () => {
    const unknown = (status: number, body: string): Exchange => ({ ...exchange({ path: '/pets?status=not-a-status', status, body, case: 'list-pets/query/status/unknown' }), expect: { rule: 'filter.only-status', answer: 'refuse-or-none', parameter: 'status', value: 'not-a-status', what: 'status=not-a-status', because: 'status is one of available, pending, sold' } });
    expect(judgeStatusFilter([unknown(400, errorOf(400))], await facts()).map((j) => j.outcome)).toEqual(['held', 'inconclusive']);
    expect(judgeStatusFilter([unknown(200, '[]')], await facts()).map((j) => j.outcome)).toEqual(['held', 'warning', 'inconclusive']);
    expect(judgeStatusFilter([unknown(200, pets(1))], await facts())[0]).toMatchObject({ outcome: 'failure', message: expect.stringMatching(/matches no pet: refuse it with a 4xx, or list none/) });
  });
});
