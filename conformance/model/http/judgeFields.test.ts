// The field judges on hand-built answers: each rule held, broken, and not applied (no judgement)
// where its field is absent.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../http/exchange.ts';
import { judgeHttp } from '../judgeHttp.ts';
import { RESET, T0s, errorBody, ex, freshState, messagesOf, outcomesOf, petJson, rate, resetSeq, viewOf, type ExParts } from '../testing/modelExchanges.ts';

beforeEach(resetSeq);

const judged = (exchange: Exchange) => judgeHttp(exchange, viewOf(exchange), freshState());
const DATE = 'Mon, 01 Jun 2026 12:00:00 GMT';
/** A 200 to GET /pets/1 with a Date, the rate-limit headers and `headers`. */
const answer = (headers: ExParts['headers'], more: Partial<ExParts> = {}) => ex({ path: '/pets/1', status: 200, headers: { date: DATE, ...rate(9), ...headers }, body: petJson({ id: 1, name: 'A', categoryId: 1 }), ...more });
const on = (rule: Parameters<typeof outcomesOf>[1], headers: ExParts['headers'], more: Partial<ExParts> = {}) => outcomesOf(judged(answer(headers, more)), rule);
const said = (rule: Parameters<typeof outcomesOf>[1], headers: ExParts['headers'], more: Partial<ExParts> = {}) => messagesOf(judged(answer(headers, more)), rule).join('\n');

describe('http.field-syntax: token names, values without CR, LF, NUL or controls', () => {
  it('holds ordinary lines, tabs and obs-text included', () => {
    expect(on('http.field-syntax', { 'x-note': 'a\tb \xe9' })).toEqual(['held']);
  });

  it('fails a NUL and a control character, naming the field and the octet', () => {
    expect(said('http.field-syntax', { 'x-note': 'a\0b' })).toContain('x-note holds %x00 (CR, LF or NUL)');
    expect(said('http.field-syntax', { 'x-note': 'a\x01b' })).toContain('x-note holds the control character %x01');
  });

  it('fails a field name that is not a token', () => {
    expect(said('http.field-syntax', { 'x note': '1' })).toContain('the field name "x note" is not a token');
  });
});

describe('http.content-type: one media type', () => {
  it('holds application/json with a charset', () => {
    expect(on('http.content-type', { 'content-type': 'application/json; charset=utf-8' })).toEqual(['held']);
  });

  it('fails a type without subtype, a broken parameter, and a second line', () => {
    expect(said('http.content-type', { 'content-type': 'json' })).toContain('is not type "/" subtype');
    expect(said('http.content-type', { 'content-type': 'application/json; charset = utf-8' })).toContain('its parameters');
    expect(said('http.content-type', { 'content-type': ['application/json', 'text/plain'] })).toContain('sends Content-Type 2 times');
  });

  it('does not apply to an answer without Content-Type', () => {
    expect(outcomesOf(judged(ex({ method: 'DELETE', path: '/pets/1', status: 204, headers: rate(9) })), 'http.content-type')).toEqual([]);
  });
});

describe('http.content-length: one count of the octets sent, never on a 204', () => {
  const body = petJson({ id: 1, name: 'A', categoryId: 1 });

  it('holds the length of the body as sent, and a HEAD\'s length, which has no body to compare', () => {
    expect(on('http.content-length', { 'content-length': String(body.length) })).toEqual(['held']);
    expect(outcomesOf(judged(ex({ method: 'HEAD', path: '/pets/1', status: 200, headers: { ...rate(9), 'content-length': '99' } })), 'http.content-length')).toEqual(['held']);
  });

  it('fails a length that is not the body\'s, saying what a client then does', () => {
    expect(said('http.content-length', { 'content-length': '5' })).toContain(`says Content-Length 5 and sent ${body.length} octets`);
  });

  it('fails a length that is not digits, a length sent twice, and a length on a 204', () => {
    expect(said('http.content-length', { 'content-length': '+5' })).toContain('one decimal number');
    expect(said('http.content-length', { 'content-length': [String(body.length), String(body.length)] })).toContain('one decimal number');
    expect(messagesOf(judged(ex({ method: 'DELETE', path: '/pets/1', status: 204, headers: { ...rate(9), 'content-length': '0' } })), 'http.content-length')[0]).toContain('must not send Content-Length with 1xx or 204');
  });

  it('does not compare a content-coded body, whose octets on the wire the transport undid', () => {
    expect(on('http.content-length', { 'content-length': '3', 'content-encoding': 'gzip' })).toEqual(['held']);
  });

  it('does not apply without Content-Length', () => {
    expect(on('http.content-length', {})).toEqual([]);
  });
});

describe('http.framing: no Content-Length beside Transfer-Encoding, no Transfer-Encoding on a 204', () => {
  it('holds chunked alone', () => {
    expect(on('http.framing', { 'transfer-encoding': 'chunked' })).toEqual(['held']);
  });

  it('fails Transfer-Encoding with Content-Length, and on a 204', () => {
    expect(said('http.framing', { 'transfer-encoding': 'chunked', 'content-length': '10' })).toContain('sends both Transfer-Encoding "chunked" and Content-Length "10"');
    expect(messagesOf(judged(ex({ method: 'DELETE', path: '/pets/1', status: 204, headers: { ...rate(9), 'transfer-encoding': 'chunked' } })), 'http.framing')[0]).toContain('on a 204, which has no content');
  });

  it('does not apply without Transfer-Encoding', () => {
    expect(on('http.framing', { 'content-length': '10' })).toEqual([]);
  });
});

describe('http.content-encoding: only codings the request accepted', () => {
  it('holds gzip asked for, and any coding when the request named none', () => {
    expect(on('http.content-encoding', { 'content-encoding': 'gzip' }, { requestHeaders: { 'accept-encoding': 'gzip, br' } })).toEqual(['held']);
    expect(on('http.content-encoding', { 'content-encoding': 'br' })).toEqual(['held']);
  });

  it('fails gzip to a request that accepted only identity, or gzip;q=0', () => {
    expect(said('http.content-encoding', { 'content-encoding': 'gzip' }, { requestHeaders: { 'accept-encoding': 'identity' } })).toContain('is coded gzip (Content-Encoding "gzip"), but the request said Accept-Encoding "identity"');
    expect(on('http.content-encoding', { 'content-encoding': 'gzip' }, { requestHeaders: { 'accept-encoding': 'gzip;q=0, br' } })).toEqual(['failure']);
  });

  it('fails a Content-Encoding that is no list of codings', () => {
    expect(said('http.content-encoding', { 'content-encoding': 'gzip br' })).toContain('not a list of coding tokens');
  });

  it('does not apply to an answer that is not content-coded', () => {
    expect(on('http.content-encoding', {}, { requestHeaders: { 'accept-encoding': 'identity' } })).toEqual([]);
  });
});

describe('http.date: one IMF-fixdate (absent: a warning)', () => {
  it('holds an IMF-fixdate', () => {
    expect(on('http.date', {})).toEqual(['held']);
  });

  it('fails an obsolete form, a date that is none, and two Date lines', () => {
    expect(said('http.date', { date: 'Monday, 01-Jun-26 12:00:00 GMT' })).toContain('an obsolete RFC 850 date');
    expect(said('http.date', { date: '2026-06-01T12:00:00Z' })).toContain('not an HTTP-date');
    expect(said('http.date', { date: [DATE, DATE] })).toContain('sends Date 2 times');
  });

  it('warns of a 2xx without Date, and judges nothing of a 5xx without one', () => {
    expect(outcomesOf(judged(ex({ path: '/pets/1', status: 200, headers: rate(9), body: petJson({ id: 1, name: 'A', categoryId: 1 }) })), 'http.date')).toEqual(['warning']);
    expect(outcomesOf(judged(ex({ path: '/pets/1', status: 500, headers: rate(9), body: errorBody(500) })), 'http.date')).toEqual([]);
  });
});

describe('http.date-current: Date is when the answer was made, as the limiter\'s own Reset keeps time', () => {
  // The run's clock reads T0 (12:00:00) and the limiter's window ends a minute later.
  const withReset = (date: string, more: Record<string, string> = {}) => ({ date, 'x-ratelimit-reset': String(RESET), ...more });

  it('holds a Date of the second the request left, and one a few minutes apart, as two machines\' clocks may be', () => {
    for (const date of [DATE, 'Mon, 01 Jun 2026 11:56:00 GMT', 'Mon, 01 Jun 2026 12:04:30 GMT']) expect(on('http.date-current', withReset(date)), date).toEqual(['held']);
  });

  it('fails a Date hours behind (local time labelled GMT) and minutes behind or ahead of the Reset beside it, saying by how much', () => {
    expect(said('http.date-current', withReset('Mon, 01 Jun 2026 08:00:00 GMT'))).toContain('has Date "Mon, 01 Jun 2026 08:00:00 GMT", 4.0 hours before the request was sent (Mon, 01 Jun 2026 12:00:00 GMT by the run\'s clock), while its X-RateLimit-Reset');
    expect(said('http.date-current', withReset('Mon, 01 Jun 2026 11:53:00 GMT'))).toContain('7 minutes before the request was sent');
    expect(said('http.date-current', withReset('Mon, 01 Jun 2026 12:07:00 GMT'))).toContain('7 minutes after the answer arrived');
  });

  it('tells nothing where the Reset is no minute window\'s end by the run\'s clock (a day\'s window in force, or the run\'s clock set wrong)', () => {
    expect(on('http.date-current', { date: 'Mon, 01 Jun 2026 11:00:00 GMT', 'x-ratelimit-reset': String(T0s + 12 * 3600) })).toEqual([]);
    expect(on('http.date-current', { date: 'Mon, 01 Jun 2026 12:10:00 GMT', 'x-ratelimit-reset': String(T0s + 630) })).toEqual([]);
  });

  it('judges a deployment whose whole clock is elsewhere on its own time: a Date and a Reset that agree', () => {
    expect(on('http.date-current', { date: 'Fri, 06 Dec 2030 12:00:00 GMT', 'x-ratelimit-reset': String(Date.UTC(2030, 11, 6, 12, 0, 30) / 1000) })).toEqual([]);
  });

  it('counts the Age a cache gives an answer it kept', () => {
    expect(on('http.date-current', withReset('Mon, 01 Jun 2026 11:00:00 GMT', { age: '3600' }))).toEqual(['held']);
    expect(said('http.date-current', withReset('Mon, 01 Jun 2026 11:00:00 GMT', { age: '60' }))).toContain('59 minutes before the request was sent (its Age 60 counted)');
  });

  it('does not apply without a readable Date', () => {
    expect(on('http.date-current', { date: 'yesterday' })).toEqual([]);
  });
});

describe('http.last-modified: an IMF-fixdate not later than Date', () => {
  it('holds a date before Date', () => {
    expect(on('http.last-modified', { 'last-modified': 'Sun, 31 May 2026 12:00:00 GMT' })).toEqual(['held']);
  });

  it('fails a date after Date, and one that is no IMF-fixdate', () => {
    expect(said('http.last-modified', { 'last-modified': 'Tue, 02 Jun 2026 12:00:00 GMT' })).toContain(`later than its own Date ${DATE}`);
    expect(said('http.last-modified', { 'last-modified': 'yesterday' })).toContain('not an HTTP-date');
  });

  it('does not apply without Last-Modified', () => {
    expect(on('http.last-modified', {})).toEqual([]);
  });
});

describe('http.etag: one entity-tag', () => {
  it('holds a strong and a weak tag', () => {
    expect(on('http.etag', { etag: '"v1"' })).toEqual(['held']);
    expect(on('http.etag', { etag: 'W/"v1"' })).toEqual(['held']);
  });

  it('fails an unquoted tag, and two ETag lines', () => {
    expect(said('http.etag', { etag: 'v1' })).toContain('has ETag "v1", not an entity-tag');
    expect(said('http.etag', { etag: ['"a"', '"b"'] })).toContain('sends ETag 2 times');
  });

  it('does not apply without ETag', () => {
    expect(on('http.etag', {})).toEqual([]);
  });
});

describe('http.cache-control: well-formed, and keyed answers kept from shared caches', () => {
  it('holds private, max-age on a keyed answer', () => {
    expect(on('http.cache-control', { 'cache-control': 'private, max-age=60' })).toEqual(['held']);
  });

  it('fails a malformed directive and a quoted max-age', () => {
    expect(said('http.cache-control', { 'cache-control': 'max-age=6 0' })).toContain('is not token [ "=" ( token / quoted-string ) ]');
    expect(on('http.cache-control', { 'cache-control': 'max-age="60"' })).toEqual(['failure']);
  });

  it('warns of public or s-maxage on an answer to a request with the key, and of an argument where none is allowed', () => {
    expect(said('http.cache-control', { 'cache-control': 'public, max-age=60' })).toContain('"public" lets a shared cache store it and give it to later requests without the key');
    expect(on('http.cache-control', { 'cache-control': 's-maxage=60' })).toEqual(['warning']);
    expect(on('http.cache-control', { 'cache-control': 'no-store=1' })).toEqual(['warning']);
  });

  it('holds public on an answer to a request without Authorization', () => {
    expect(on('http.cache-control', { 'cache-control': 'public' }, { auth: 'none' })).toEqual(['held']);
  });

  it('does not apply without Cache-Control', () => {
    expect(on('http.cache-control', {})).toEqual([]);
  });
});

describe('http.expires-age: Expires an HTTP-date, Age delta-seconds', () => {
  it('holds an IMF-fixdate Expires and a numeric Age', () => {
    expect(on('http.expires-age', { expires: DATE, age: '3' })).toEqual(['held', 'held']);
  });

  it('warns of Expires: 0, which caches read as expired; fails an obsolete form and a negative Age', () => {
    expect(on('http.expires-age', { expires: '0' })).toEqual(['warning']);
    expect(on('http.expires-age', { expires: 'Monday, 01-Jun-26 12:00:00 GMT' })).toEqual(['failure']);
    expect(said('http.expires-age', { age: '-1' })).toContain('has Age "-1"; it is delta-seconds');
  });

  it('does not apply without either', () => {
    expect(on('http.expires-age', {})).toEqual([]);
  });
});

describe('http.vary: "*" or field names', () => {
  it('holds field names and *', () => {
    expect(on('http.vary', { vary: 'Origin, Accept-Encoding' })).toEqual(['held']);
    expect(on('http.vary', { vary: '*' })).toEqual(['held']);
  });

  it('fails what is no field name', () => {
    expect(said('http.vary', { vary: 'Origin, Accept Encoding' })).toContain('"Accept Encoding" is neither "*" nor a field name');
  });

  it('does not apply without Vary', () => {
    expect(on('http.vary', {})).toEqual([]);
  });
});

describe('http.allow: a list of methods', () => {
  it('holds a list of methods, and an empty Allow', () => {
    expect(on('http.allow', { allow: 'GET, HEAD' })).toEqual(['held']);
    expect(on('http.allow', { allow: '' })).toEqual(['held']);
  });

  it('fails what is no method token', () => {
    expect(said('http.allow', { allow: 'GET; POST' })).toContain('"GET; POST" is not a method token');
  });

  it('does not apply without Allow', () => {
    expect(on('http.allow', {})).toEqual([]);
  });
});

describe('http.location: URI references; a 201 names the pet created', () => {
  const created = (location: string) => ex({ method: 'POST', requestBody: { name: 'A', categoryId: 1 }, status: 201, headers: { date: DATE, ...rate(9), location }, body: petJson({ id: 42, name: 'A', categoryId: 1 }) });

  it('holds a 201 whose Location names the created pet, relative or absolute, and one elsewhere than /pets', () => {
    for (const location of ['/v1/pets/42', 'http://api.test/v1/pets/42', 'pets/42', '/v1/animals/a42']) expect(outcomesOf(judged(created(location)), 'http.location'), location).toEqual(['held']);
  });

  it('fails a 201 whose Location names another pet', () => {
    expect(messagesOf(judged(created('/v1/pets/41')), 'http.location')[0]).toContain('created pet 42 and says Location "/v1/pets/41", which names pet 41');
  });

  it('fails a Location or Content-Location that is no URI reference, and a Content-Location with a fragment', () => {
    expect(messagesOf(judged(created('/v1/pets/4 2')), 'http.location')[0]).toContain('not a URI reference');
    expect(said('http.location', { 'content-location': '/v1/pets/1#x' })).toContain('it has a fragment');
  });

  it('does not apply without either field', () => {
    expect(on('http.location', {})).toEqual([]);
  });
});

describe('headers.retry-after: delay-seconds or an IMF-fixdate', () => {
  it('holds seconds and a date', () => {
    expect(on('headers.retry-after', { 'retry-after': '30' })).toEqual(['held']);
    expect(on('headers.retry-after', { 'retry-after': DATE })).toEqual(['held']);
  });

  it('fails a fraction, a negative number and an ISO date', () => {
    for (const value of ['1.5', '-3', '2026-06-01T12:01:00Z']) expect(said('headers.retry-after', { 'retry-after': value }), value).toContain('neither delay-seconds (digits) nor an IMF-fixdate');
  });

  it('fails a date in an obsolete form, naming the form', () => {
    expect(said('headers.retry-after', { 'retry-after': 'Mon Jun  1 12:01:00 2026' })).toContain('an obsolete asctime date');
  });

  it('does not apply without Retry-After', () => {
    expect(on('headers.retry-after', {})).toEqual([]);
  });
});

describe('http.www-authenticate: #challenge, Bearer on a 401', () => {
  const refused = (headers: Record<string, string>) => ex({ auth: 'none', status: 401, headers: { date: DATE, ...rate(9), ...headers }, body: errorBody(401) });

  it('holds a 401 with a Bearer challenge, in any case, among others', () => {
    expect(outcomesOf(judged(refused({ 'www-authenticate': 'Basic realm="x", bearer realm="pets", error="invalid_token"' })), 'http.www-authenticate')).toEqual(['held']);
  });

  it('fails a 401 that challenges with another scheme only, and a malformed challenge anywhere', () => {
    expect(messagesOf(judged(refused({ 'www-authenticate': 'Basic realm="pets"' })), 'http.www-authenticate')[0]).toContain('challenges with Basic, not Bearer');
    expect(said('http.www-authenticate', { 'www-authenticate': 'realm="x"' })).toContain('belongs to no challenge');
  });

  it('warns of a 401 without WWW-Authenticate (HTTP\'s MUST, not the contract\'s)', () => {
    expect(outcomesOf(judged(refused({})), 'http.www-authenticate')).toEqual(['warning']);
  });

  it('does not apply to another status without the field', () => {
    expect(on('http.www-authenticate', {})).toEqual([]);
  });
});

describe('http.link: #link-value, one rel each', () => {
  it('holds the Sunset link of RFC 8594', () => {
    expect(on('http.link', { link: '</v1/pets?status=available>; rel="sunset"' })).toEqual(['held']);
  });

  it('fails a link without rel', () => {
    expect(said('http.link', { link: '</v1/pets>' })).toContain('has no rel parameter');
  });

  it('holds the mock\'s link to getPet\'s replacement and a deprecation link (RFC 9745, 3), and fails one whose target is no URI-reference', () => {
    expect(on('http.link', { link: '</v1/pets>; rel="alternate"; title="GET /pets with the status filter"' })).toEqual(['held']);
    expect(on('http.link', { link: '<https://developer.example.com/deprecation>; rel="deprecation"; type="text/html"' })).toEqual(['held']);
    expect(said('http.link', { link: '<https://example.com/dep recation>; rel="deprecation"' })).toContain('is no URI-reference');
  });

  it('does not apply without Link', () => {
    expect(on('http.link', {})).toEqual([]);
  });
});

describe('http.cors-origin: one origin, null or *, never * with credentials (warnings)', () => {
  it('holds *, an origin and null', () => {
    for (const origin of ['*', 'https://app.example.com', 'http://localhost:5173', 'null']) expect(on('http.cors-origin', { 'access-control-allow-origin': origin }), origin).toEqual(['held']);
  });

  it('warns of a list of origins, an origin with a path, * with credentials, and credentials other than "true"', () => {
    expect(said('http.cors-origin', { 'access-control-allow-origin': 'https://a.com, https://b.com' })).toContain('is not one origin');
    expect(said('http.cors-origin', { 'access-control-allow-origin': 'https://a.com/' })).toContain('is not one origin');
    expect(said('http.cors-origin', { 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true' })).toContain('comes with Access-Control-Allow-Credentials "true"');
    expect(on('http.cors-origin', { 'access-control-allow-origin': 'https://a.com', 'access-control-allow-credentials': 'TRUE' })).toEqual(['warning']);
  });

  it('does not apply without Access-Control-Allow-Origin', () => {
    expect(on('http.cors-origin', {})).toEqual([]);
  });
});
