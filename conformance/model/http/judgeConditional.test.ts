// Conditional requests, 304s and strong validators on hand-built runs.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../http/exchange.ts';
import { judgementsOf, ex, messagesOf, outcomesOf, petJson, rate, resetSeq, errorBody, type ExParts } from '../testing/modelExchanges.ts';

beforeEach(resetSeq);

const DATE = 'Mon, 01 Jun 2026 12:00:00 GMT';
const MODIFIED = 'Sun, 31 May 2026 12:00:00 GMT';
const pet = petJson({ id: 1, name: 'A', categoryId: 1 });
const answer = (parts: ExParts) => ex({ path: '/pets/1', ...parts, headers: { date: DATE, ...rate(9), ...parts.headers } });
/** The 200 a conditional GET follows. */
const ok = (headers: Record<string, string> = { etag: '"v1"', 'last-modified': MODIFIED }) => answer({ status: 200, headers, body: pet });
const notModified = (requestHeaders: Record<string, string>, headers: Record<string, string> = { etag: '"v1"' }) => answer({ status: 304, requestHeaders, headers });
const last = (exchanges: Exchange[]) => judgementsOf(exchanges).filter((j) => j.exchange === exchanges.at(-1));

describe('http.conditional: a 304 answers only a conditional GET or HEAD whose condition was false', () => {
  it('holds a 304 to the current tag, to a list holding it (weakly), to *, and to If-Modified-Since of the last modification', () => {
    expect(outcomesOf(last([ok(), notModified({ 'if-none-match': '"v1"' })]), 'http.conditional')).toEqual(['held']);
    expect(outcomesOf(last([ok(), notModified({ 'if-none-match': '"v0", W/"v1"' })]), 'http.conditional')).toEqual(['held']);
    expect(outcomesOf(last([ok(), notModified({ 'if-none-match': '*' })]), 'http.conditional')).toEqual(['held']);
    expect(outcomesOf(last([ok(), notModified({ 'if-modified-since': MODIFIED }, {})]), 'http.conditional')).toEqual(['held']);
  });

  it('holds a 200 to a conditional GET where the deployment answered no 304 to one on that URL: it may not evaluate conditions', () => {
    expect(outcomesOf(last([ok(), answer({ status: 200, requestHeaders: { 'if-none-match': '"v1"' }, body: pet })]), 'http.conditional')).toEqual(['held']);
    expect(outcomesOf(last([ok(), answer({ status: 200, requestHeaders: { 'if-none-match': 'W/"v1"' }, headers: { etag: '"v1"' }, body: pet })]), 'http.conditional')).toEqual(['held']);
  });

  it('warns of a 200 to an If-None-Match whose tag matches its own ETag weakly, after a 304 on that URL (W/ kept, or a list read as one tag): a 200 costs bytes, not correctness', () => {
    for (const sent of ['W/"v1"', '"v0", "v1"', '"v0", W/"v1"']) {
      resetSeq();
      const judged = last([ok(), notModified({ 'if-none-match': '"v1"' }), answer({ status: 200, requestHeaders: { 'if-none-match': sent }, headers: { etag: '"v1"' }, body: pet })]);
      expect(outcomesOf(judged, 'http.conditional'), sent).toEqual(['warning']);
      expect(messagesOf(judged, 'http.conditional')[0]).toMatch(/^#3 GET \/pets\/1 \(200\) answered 200 with ETag "v1" to If-None-Match: .* matches it by weak comparison.*#2 shows the deployment answers 304 to a false If-None-Match on \/pets\/1/);
    }
    // A tag that matches nothing, or a representation changed since (a write between): the 200 holds.
    resetSeq();
    expect(outcomesOf(last([ok(), notModified({ 'if-none-match': '"v1"' }), answer({ status: 200, requestHeaders: { 'if-none-match': 'W/"v0"' }, headers: { etag: '"v1"' }, body: pet })]), 'http.conditional')).toEqual(['held']);
  });

  it('fails a 304 to a request without a condition, and to a POST', () => {
    expect(messagesOf(last([ok(), notModified({})]), 'http.conditional')[0]).toContain('the request had no condition');
    expect(messagesOf(last([answer({ method: 'POST', path: '/pets', requestBody: {}, status: 304, requestHeaders: { 'if-none-match': '"v1"' } })]), 'http.conditional')[0]).toContain('this is a POST');
  });

  it('fails a 304 to a tag the current representation does not have, naming both', () => {
    const judgements = last([ok(), notModified({ 'if-none-match': '"never-given"' }, {})]);
    expect(messagesOf(judgements, 'http.conditional')[0]).toContain('the current representation\'s ETag is "v1" (#1), and the tags sent ("never-given") do not match it');
    expect(judgements.find((j) => j.rule === 'http.conditional')!.related).toEqual([1]);
  });

  it('fails a 304 whose own ETag matches none of the tags sent, and one to a tag where the 200 gave none', () => {
    expect(messagesOf(last([notModified({ 'if-none-match': '"a"' }, { etag: '"b"' })]), 'http.conditional')[0]).toContain('its own ETag "b" matches none of the tags sent');
    expect(messagesOf(last([ok({}), notModified({ 'if-none-match': '"a"' }, {})]), 'http.conditional')[0]).toContain('has no ETag, so no tag sent ("a") can match it');
  });

  it('fails a 304 to If-Modified-Since earlier than the last modification, and to one that is no date', () => {
    expect(messagesOf(last([ok(), notModified({ 'if-modified-since': 'Sat, 30 May 2026 12:00:00 GMT' }, {})]), 'http.conditional')[0]).toContain(`last modified ${MODIFIED}, after If-Modified-Since`);
    expect(messagesOf(last([ok(), notModified({ 'if-modified-since': 'yesterday' }, {})]), 'http.conditional')[0]).toContain('is no HTTP-date');
  });

  it('fails a 412 to a conditional GET', () => {
    expect(messagesOf(last([ok(), answer({ status: 412, requestHeaders: { 'if-none-match': '"v1"' }, body: errorBody(412) })]), 'http.conditional')[0]).toContain('answered 412 to a conditional GET');
  });

  it('does not judge the tag against a representation a write may have changed since', () => {
    const write = answer({ method: 'POST', path: '/pets', requestBody: { name: 'B', categoryId: 1 }, status: 201, body: petJson({ id: 2, name: 'B', categoryId: 1 }) });
    expect(outcomesOf(last([ok(), write, notModified({ 'if-none-match': '"v2"' }, {})]), 'http.conditional')).toEqual(['held']);
  });

  it('does not apply to an unconditional GET answered 200', () => {
    expect(outcomesOf(last([ok()]), 'http.conditional')).toEqual([]);
  });
});

describe('http.304-fields: a 304 carries what its 200 would, and the rate-limit headers', () => {
  it('holds a 304 with the 200\'s ETag, Date and Cache-Control and the rate-limit headers', () => {
    expect(outcomesOf(last([ok({ etag: '"v1"', 'cache-control': 'private' }), notModified({ 'if-none-match': '"v1"' }, { etag: '"v1"', 'cache-control': 'private' })]), 'http.304-fields')).toEqual(['held']);
  });

  it('fails a 304 without the rate-limit headers, whatever the 200 had', () => {
    const bare = ex({ path: '/pets/1', status: 304, requestHeaders: { 'if-none-match': '"v1"' }, headers: { etag: '"v1"', date: DATE } });
    expect(messagesOf(last([ok(), bare]), 'http.304-fields')[0]).toContain('lacks x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset: x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset are on every API response');
  });

  it('fails a 304 without the ETag and Vary its 200 carried, pointing to the 200', () => {
    const judgements = last([ok({ etag: '"v1"', vary: 'Accept-Encoding' }), notModified({ 'if-none-match': '"v1"' }, {})]);
    expect(messagesOf(judgements, 'http.304-fields')[0]).toContain('the 200 to the same request (#1) carried etag, vary');
  });

  it('does not apply to another status', () => {
    expect(outcomesOf(last([ok()]), 'http.304-fields')).toEqual([]);
  });
});

describe('http.strong-etag: a strong ETag names one body of its URL', () => {
  it('holds the same strong tag with the same body', () => {
    expect(outcomesOf(last([ok({ etag: '"v1"' }), ok({ etag: '"v1"' })]), 'http.strong-etag')).toEqual(['held']);
  });

  it('fails the same strong tag with another body', () => {
    const first = ok({ etag: '"v1"' });
    const other = answer({ status: 200, headers: { etag: '"v1"' }, body: petJson({ id: 1, name: 'B', categoryId: 1 }) });
    expect(messagesOf(last([first, other]), 'http.strong-etag')[0]).toContain('gives the strong ETag "v1" that #1 gave for /pets/1, with a different body');
  });

  it('fails one strong tag for the gzip-coded and the identity representation, though their decoded bodies are the same', () => {
    const gzipped = ok({ etag: '"v1"', 'content-encoding': 'gzip' });
    const messages = messagesOf(last([ok({ etag: '"v1"' }), gzipped]), 'http.strong-etag');
    expect(messages[0]).toMatch(/gives the strong ETag "v1" with Content-Encoding gzip, which #\d+ gave for \/pets\/1 with no content coding; a validator shared by two content codings is weak \(RFC 9110, 8\.8\.1\)/);
    resetSeq();
    expect(outcomesOf(last([ok({ etag: '"v1"', 'content-encoding': 'GZIP' }), ok({ etag: '"v1"', 'content-encoding': 'gzip' })]), 'http.strong-etag')).toEqual(['held']);
  });

  it('does not apply to a weak tag, nor to a tag first seen', () => {
    const other = answer({ status: 200, headers: { etag: 'W/"v1"' }, body: petJson({ id: 1, name: 'B', categoryId: 1 }) });
    expect(outcomesOf(last([ok({ etag: 'W/"v1"' }), other]), 'http.strong-etag')).toEqual([]);
    expect(outcomesOf(last([ok({ etag: '"v1"' })]), 'http.strong-etag')).toEqual([]);
  });
});

describe('http.head-as-get: a HEAD served answers as GET would', () => {
  const head = (headers: Record<string, string> = {}, parts: Partial<ExParts> = {}) => ex({ method: 'HEAD', path: '/pets/1', status: 200, headers: { date: DATE, ...rate(8), 'content-type': 'application/json', ...headers }, ...parts });

  it('holds a HEAD with GET\'s fields, and one no GET came before', () => {
    expect(outcomesOf(last([ok(), head({ etag: '"v1"' })]), 'http.head-as-get')).toEqual(['held']);
    expect(outcomesOf(last([head()]), 'http.head-as-get')).toEqual(['held']);
  });

  it('fails a HEAD without the rate-limit headers', () => {
    const bare = ex({ method: 'HEAD', path: '/pets/1', status: 200, headers: { date: DATE, 'content-type': 'application/json' } });
    expect(messagesOf(last([bare]), 'http.head-as-get')[0]).toContain('lacks x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset; every API response carries the rate-limit headers');
  });

  it('fails a HEAD served where GET of the same URL was refused', () => {
    const missing = answer({ status: 404, body: errorBody(404) });
    expect(messagesOf(last([missing, head()]), 'http.head-as-get')[0]).toContain('serves HEAD where GET of the same URL with the same credential was answered 404 (#1)');
  });

  it('does not hold HEAD to a GET refused for its negotiation (406) or spelled with another Authorization', () => {
    const notAcceptable = answer({ status: 406, requestHeaders: { accept: 'text/html' }, body: errorBody(406) });
    expect(outcomesOf(last([notAcceptable, head()]), 'http.head-as-get')).toEqual(['held']);
    const lowerCase = answer({ status: 401, auth: 'bearer $PETS_API_KEY', body: errorBody(401) });
    expect(outcomesOf(last([lowerCase, head()]), 'http.head-as-get')).toEqual(['held']);
  });

  it('warns of a field GET sent and HEAD did not, and of a Content-Length other than GET\'s body', () => {
    expect(messagesOf(last([ok({ etag: '"v1"', 'cache-control': 'private' }), head()]), 'http.head-as-get')[0]).toContain('lacks cache-control, which GET of the same URL sent (#1)');
    expect(messagesOf(last([ok({}), head({ 'content-length': '3' })]), 'http.head-as-get')[0]).toContain(`says Content-Length 3, where GET of the same URL sent ${pet.length} octets`);
  });

  it('fails a HEAD 200 to listPets or getPet whose Content-Length is shorter than any JSON object or array, with or without a GET before it', () => {
    for (const length of ['0', '1']) {
      expect(messagesOf(last([head({ 'content-length': length })]), 'http.head-as-get')).toEqual([expect.stringContaining(`says Content-Length ${length}, but a 200 to GET of /pets/1 (getPet) carries a JSON object or array, at least 2 octets`)]);
      expect(outcomesOf(last([ok({}), head({ 'content-length': length })]), 'http.head-as-get')).toEqual(['failure']);
    }
    const listHead = ex({ method: 'HEAD', path: '/pets?limit=1', status: 200, headers: { date: DATE, ...rate(8), 'content-type': 'application/json', 'content-length': '0' } });
    expect(messagesOf(last([listHead]), 'http.head-as-get')[0]).toContain('a 200 to GET of /pets?limit=1 (listPets) carries a JSON object or array');
  });

  it('holds a HEAD whose Content-Length a JSON object can have, one content-coded, one to a path the contract does not list, one to the store orders (whose 200 it does not show), and a 204', () => {
    expect(outcomesOf(last([head({ 'content-length': '2' })]), 'http.head-as-get')).toEqual(['held']);
    expect(outcomesOf(last([head({ 'content-length': '0', 'content-encoding': 'br' })]), 'http.head-as-get')).toEqual(['held']);
    const unlisted = ex({ method: 'HEAD', path: '/health', status: 200, headers: { date: DATE, ...rate(8), 'content-length': '0' } });
    expect(outcomesOf(last([unlisted]), 'http.head-as-get')).toEqual(['held']);
    const orders = ex({ method: 'GET', path: '/store/orders', status: 200, headers: { date: DATE, ...rate(9), 'content-type': 'application/json' }, body: '0' });
    const ordersHead = ex({ method: 'HEAD', path: '/store/orders', status: 200, headers: { date: DATE, ...rate(8), 'content-type': 'application/json', 'content-length': '1' } });
    expect(outcomesOf(last([orders, ordersHead]), 'http.head-as-get')).toEqual(['held']);
    expect(outcomesOf(last([head({ 'content-length': '0' }, { status: 204 })]), 'http.head-as-get')).not.toContain('failure');
  });

  it('does not apply to a HEAD refused', () => {
    expect(outcomesOf(last([ok(), head({}, { status: 405 })]), 'http.head-as-get')).toEqual([]);
  });
});
