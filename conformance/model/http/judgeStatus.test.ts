// The status judges on hand-built runs: what a status says, held against the answers before it.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../http/exchange.ts';
import { judgeHttp } from '../judgeHttp.ts';
import { errorBody, ex, freshState, judgementsOf, listJson, messagesOf, outcomesOf, petJson, rate, resetSeq, viewOf, type ExParts } from '../testing/modelExchanges.ts';

beforeEach(resetSeq);

const judged = (exchange: Exchange) => judgeHttp(exchange, viewOf(exchange), freshState());
const DATE = 'Mon, 01 Jun 2026 12:00:00 GMT';
const pet = petJson({ id: 1, name: 'A', categoryId: 1 });
/** An answer with a Date and the rate-limit headers. */
const answer = (parts: ExParts) => ex({ ...parts, headers: { date: DATE, ...rate(9), ...parts.headers } });
/** The judgements of the last exchange of a run. */
const last = (exchanges: Exchange[]) => judgementsOf(exchanges).filter((j) => j.exchange === exchanges.at(-1));

describe('http.status-code: a final code within 100-599', () => {
  it('holds a 200', () => {
    expect(outcomesOf(judged(answer({ status: 200, body: '[]' })), 'http.status-code')).toEqual(['held']);
  });

  it('fails 600 and a final 1xx', () => {
    expect(messagesOf(judged(answer({ status: 600, body: '[]' })), 'http.status-code')[0]).toContain('600 is no HTTP status');
    expect(messagesOf(judged(answer({ status: 102 })), 'http.status-code')[0]).toContain('a 102 came as the final answer');
  });

  it('does not judge an answer from a gateway while the deployment is down', () => {
    expect(judged(answer({ status: 503, body: errorBody(503) }))).toEqual([]);
  });
});

describe('http.no-content: none on 204, 304 or HEAD', () => {
  it('holds an empty 204 and an empty answer to HEAD', () => {
    expect(outcomesOf(judged(answer({ method: 'DELETE', path: '/pets/1', status: 204 })), 'http.no-content')).toEqual(['held']);
    expect(outcomesOf(judged(answer({ method: 'HEAD', status: 200 })), 'http.no-content')).toEqual(['held']);
  });

  it('fails content on a 204 and on an answer to HEAD, saying how many octets', () => {
    expect(messagesOf(judged(answer({ method: 'DELETE', path: '/pets/1', status: 204, body: '{}' })), 'http.no-content')[0]).toContain('carries 2 octets of content; a 204 has none');
    expect(messagesOf(judged(answer({ method: 'HEAD', status: 200, body: '[]' })), 'http.no-content')[0]).toContain('an answer to HEAD has none');
  });

  it('does not apply to a 200 to GET', () => {
    expect(outcomesOf(judged(answer({ status: 200, body: '[]' })), 'http.no-content')).toEqual([]);
  });
});

describe('http.405-allow: Allow, true to the path', () => {
  const refusal = (allow?: string, path = '/pets') => answer({ method: 'PUT', path, requestBody: [], status: 405, headers: allow === undefined ? {} : { allow }, body: errorBody(405) });

  it('holds an Allow with the methods the path served, HEAD covered by GET', () => {
    const run = [answer({ status: 200, body: '[]' }), answer({ method: 'HEAD', status: 200 }), refusal('GET, POST')];
    expect(outcomesOf(last(run), 'http.405-allow')).toEqual(['held']);
  });

  it('fails a 405 without Allow', () => {
    expect(messagesOf(judged(refusal()), 'http.405-allow')[0]).toContain('refuses PUT with 405 and no Allow');
  });

  it('fails an Allow that lists the method refused', () => {
    expect(messagesOf(judged(refusal('GET, PUT')), 'http.405-allow')[0]).toContain('yet lists it in Allow "GET, PUT"');
  });

  it('fails an Allow without an operation the path served; warns of another method it served', () => {
    const run = [answer({ status: 200, body: '[]' }), answer({ method: 'DELETE', path: '/pets', status: 204 }), refusal('POST')];
    const judgements = last(run);
    expect(outcomesOf(judgements, 'http.405-allow')).toEqual(['failure', 'warning']);
    expect(messagesOf(judgements, 'http.405-allow')[0]).toContain('lists Allow "POST" without GET, which #1 was served on /pets');
  });

  it('counts neither OPTIONS nor what was served on another path', () => {
    const run = [answer({ method: 'OPTIONS', status: 204 }), answer({ path: '/pets/1', status: 200, body: pet }), refusal('GET, POST')];
    expect(outcomesOf(last(run), 'http.405-allow')).toEqual(['held']);
  });

  it('does not apply to another status', () => {
    expect(outcomesOf(judged(answer({ status: 200, body: '[]' })), 'http.405-allow')).toEqual([]);
  });
});

describe('http.cache-control: a keyed answer a shared cache stored, served without the key', () => {
  const keyed = () => answer({ path: '/pets?limit=1', status: 200, headers: { 'cache-control': 'public, max-age=60' }, body: listJson([{ id: 1, name: 'A', categoryId: 1 }]) });

  it('fails a keyless request served the same body', () => {
    const first = keyed();
    const keyless = answer({ path: '/pets?limit=1', auth: 'none', status: 200, body: listJson([{ id: 1, name: 'A', categoryId: 1 }]) });
    expect(messagesOf(last([first, keyless]), 'http.cache-control')[0]).toContain('was served without a valid key the answer #1 gave to the key, which its Cache-Control "public" let shared caches store');
  });

  it('does not apply to a keyless request refused', () => {
    expect(outcomesOf(last([keyed(), answer({ path: '/pets?limit=1', auth: 'none', status: 401, body: errorBody(401) })]), 'http.cache-control')).toEqual([]);
  });
});
