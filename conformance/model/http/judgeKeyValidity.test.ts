// auth.valid-key-accepted on hand-built runs: a key one answer served is valid for every operation.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../http/exchange.ts';
import { errorBody, ex, judgementsOf, messagesOf, outcomesOf, rate, resetSeq, type ExParts } from '../testing/modelExchanges.ts';

beforeEach(resetSeq);

const DATE = 'Mon, 01 Jun 2026 12:00:00 GMT';
const answer = (parts: ExParts) => ex({ ...parts, headers: { date: DATE, ...rate(9), ...parts.headers } });
const rule = 'auth.valid-key-accepted';
/** The judgements of the rule on the last exchange of a run. */
const last = (exchanges: Exchange[]) => judgementsOf(exchanges).filter((j) => j.exchange === exchanges.at(-1));
const served = (parts: Partial<ExParts> = {}) => answer({ status: 200, body: '[]', ...parts });
const refusedOn = (parts: Partial<ExParts> = {}) => answer({ method: 'POST', requestBody: { name: 'A', categoryId: 1 }, status: 401, body: errorBody(401), ...parts });

describe('auth.valid-key-accepted: a key one answer served is valid for every operation', () => {
  it('holds the answers to a served key that do not refuse it', () => {
    expect(outcomesOf(last([served(), answer({ path: '/pets/1', status: 404, body: errorBody(404) })]), rule)).toEqual(['held']);
  });

  it('fails a create refused 401 with a key a list served, naming the key by its variable and both answers', () => {
    const judgements = last([served({ auth: 'key2' }), refusedOn({ auth: 'key2' })]);
    expect(outcomesOf(judgements, rule)).toEqual(['failure']);
    expect(messagesOf(judgements, rule)[0]).toContain('the key $PETS_API_KEY_2 was refused on createPet, yet #1 served it');
    expect(JSON.stringify(judgements.map((j) => j.message))).not.toMatch(/demo-/);
  });

  it('fails a 403 too: a plan read as a permission is no missing or invalid key', () => {
    expect(outcomesOf(last([served(), refusedOn({ status: 403, body: errorBody(403) })]), rule)).toEqual(['failure']);
  });

  it('fails a refusal that came before the key was first served, once it is', () => {
    const judgements = judgementsOf([refusedOn(), served()]).filter((j) => j.rule === rule);
    expect(judgements.map((j) => [j.exchange!.seq, j.outcome])).toEqual([[1, 'failure']]);
  });

  it('warns of a refusal after a 429 (a ban may follow: Authentication 4), to another scheme spelling, to an unlisted request and on the store-orders listing', () => {
    const throttled = answer({ status: 429, headers: { 'retry-after': '30', ...rate(0) }, body: errorBody(429) });
    expect(outcomesOf(last([served(), throttled, refusedOn()]), rule)).toEqual(['warning']);
    expect(outcomesOf(last([served(), refusedOn({ auth: 'bearer $PETS_API_KEY' })]), rule)).toEqual(['warning']);
    expect(outcomesOf(last([served(), refusedOn({ method: 'PUT', path: '/pets/1' })]), rule)).toEqual(['warning']);
    expect(outcomesOf(last([served(), refusedOn({ method: 'GET', path: '/store/orders', requestBody: undefined })]), rule)).toEqual(['warning']);
  });

  it('takes no answer outside the contract\'s operations as proof that a key is valid', () => {
    expect(outcomesOf(last([served({ method: 'OPTIONS', path: '/pets', status: 204, body: '' }), refusedOn()]), rule)).toEqual([]);
    expect(outcomesOf(last([served({ path: '/health' }), refusedOn()]), rule)).toEqual([]);
  });

  it('keeps keys apart, and does not apply to requests without the key nor before any answer served it', () => {
    expect(outcomesOf(last([served(), refusedOn({ auth: 'key2' })]), rule)).toEqual([]);
    expect(outcomesOf(last([served(), refusedOn({ auth: 'none' })]), rule)).toEqual([]);
    expect(outcomesOf(last([refusedOn()]), rule)).toEqual([]);
  });
});
