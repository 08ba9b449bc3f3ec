import { beforeEach, describe, expect, it } from 'vitest';
import type { UnansweredRequest } from '../http/exchange.ts';
import { judgeSilence } from './judgeSilence.ts';
import { errorBody, ex, petJson, rate, resetSeq, T0 } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

/** One try of `GET path` that got nothing within 10 s (or was refused, with `timedOut: false`). */
const silent = (path: string, sentAt: number, attempt = 1, timedOut = true): UnansweredRequest => ({
  checkId: 'test',
  operationId: path.startsWith('/pets/') ? 'getPet' : 'listPets',
  afterSeq: 0,
  sentAt,
  durationMs: 10_000,
  request: { method: 'GET', url: `http://api.test/v1${path}`, headers: {} },
  error: timedOut ? `GET http://api.test/v1${path} failed: no answer within 10000 ms` : 'connect ECONNREFUSED',
  path,
  attempt,
  ...(timedOut ? { timedOut: true } : {}),
});
const list = (sentAt: number) => ex({ path: '/pets?limit=1', status: 200, headers: rate(50), body: '[]', sentAt });
const getPet = (sentAt: number) => ex({ path: '/pets/1', status: 200, headers: rate(50), body: petJson({ id: 1, name: 'A', categoryId: 1 }), sentAt });
const create = (sentAt: number) => ex({ method: 'POST', requestBody: { name: 'A', categoryId: 1 }, status: 201, headers: rate(50), body: petJson({ id: 2, name: 'A', categoryId: 1 }), sentAt });
const outcomes = (judgements: ReturnType<typeof judgeSilence>) => judgements.map((j) => [j.operationId, j.outcome]);

describe('wire.answered: a documented operation answers while the deployment answers others', () => {
  it('fails an operation whose last requests got nothing while two others were answered after, with the timings', () => {
    const record = [list(T0), getPet(T0 + 40_000), create(T0 + 41_000)];
    const gaps = [silent('/pets?limit=1', T0 + 1000), silent('/pets?limit=1', T0 + 11_000, 2), silent('/pets?limit=1', T0 + 21_000, 3), silent('/pets?status=sold', T0 + 31_000)];
    const judgements = judgeSilence(gaps, record);
    expect(outcomes(judgements)).toEqual([['listPets', 'failure'], ['createPet', 'held'], ['getPet', 'held']]);
    const failure = judgements[0]!;
    expect(failure.message).toBe(
      'listPets got no answer at all: 2 requests in a row (GET /pets?limit=1 (3 tries), GET /pets?status=sold (1 try)) each waited 10000 ms and nothing came, not even a status line, while 2 requests sent after the first of them (getPet, createPet) were answered in 1 ms. The deployment is up; listPets hangs, and a client calling it waits for ever.',
    );
    expect(failure.exchange).toMatchObject({ seq: 0, path: '/pets?limit=1', response: { status: 0, incomplete: expect.stringContaining('no answer within 10000 ms') } });
  });

  it('holds an operation that answered after its silence: a blip, not a hang', () => {
    const judgements = judgeSilence([silent('/pets?limit=1', T0), silent('/pets?limit=1', T0 + 10_000)], [getPet(T0 + 20_000), create(T0 + 21_000), list(T0 + 30_000)]);
    expect(outcomes(judgements)).toEqual([['listPets', 'held'], ['createPet', 'held'], ['getPet', 'held']]);
  });

  it('says nothing when nothing else was answered after: that is an outage, which the run calls unjudgeable', () => {
    const judgements = judgeSilence([silent('/pets?limit=1', T0 + 1000), silent('/pets?limit=1', T0 + 11_000)], [list(T0), getPet(T0 + 500)]);
    expect(outcomes(judgements)).toEqual([['listPets', 'held'], ['getPet', 'held']]);
  });

  it('says nothing of one request alone, nor of tries refused or reset rather than left unanswered', () => {
    const after = [getPet(T0 + 40_000), create(T0 + 41_000)];
    expect(outcomes(judgeSilence([silent('/pets?limit=1', T0), silent('/pets?limit=1', T0 + 1000, 2), silent('/pets?limit=1', T0 + 2000, 3)], after))).toEqual([['createPet', 'held'], ['getPet', 'held']]);
    expect(outcomes(judgeSilence([silent('/pets?limit=1', T0), silent('/pets?limit=1', T0 + 1000, 1, false)], after))).toEqual([['createPet', 'held'], ['getPet', 'held']]);
  });

  it('leaves the framing probe\'s raw requests out: their bytes are judged elsewhere', () => {
    const after = [getPet(T0 + 40_000), create(T0 + 41_000)];
    const raw = { ...silent('/pets?limit=1', T0 + 2000), timedOut: undefined, wire: true };
    expect(outcomes(judgeSilence([silent('/pets?limit=1', T0), raw, silent('/pets?limit=2', T0 + 3000)], after))).toEqual([['listPets', 'failure'], ['createPet', 'held'], ['getPet', 'held']]);
  });

  it('says nothing of an undocumented request', () => {
    const unlisted = { ...silent('/store/orders', T0), operationId: 'listStoreOrders' };
    expect(judgeSilence([unlisted, { ...unlisted, sentAt: T0 + 1 }], [list(T0 + 5), ex({ path: '/pets/9', status: 404, body: errorBody(404), sentAt: T0 + 6 })]).every((j) => j.outcome === 'held')).toBe(true);
  });
});
