import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { judgeWire } from './judgeWire.ts';
import { ex, failuresOf, ofRule, rate, resetSeq, viewOf, type ExParts } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

const wire = (exchange: Exchange) => judgeWire(exchange, viewOf(exchange));
/** A 200 to GET /pets with the rate-limit headers and `body`. */
const answer = (body: ExParts['body'], headers: ExParts['headers'] = {}, more: Partial<ExParts> = {}) => ex({ status: 200, headers: { ...rate(99), ...headers }, body, ...more });
const outcomes = (exchange: Exchange, rule: Parameters<typeof ofRule>[1]) => ofRule(wire(exchange), rule).map((j) => j.outcome);

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...parts: (number[] | Uint8Array)[]) => new Uint8Array(parts.flatMap((p) => [...p]));

describe('wire.header-once: each rate-limit header appears once', () => {
  it('holds an answer that sends each rate-limit header once', () => {
    expect(outcomes(answer('[]'), 'wire.header-once')).toEqual(['held']);
  });

  it('fails an answer that sends X-RateLimit-Remaining twice, naming both values', () => {
    const [failure] = failuresOf(wire(answer('[]', { 'x-ratelimit-remaining': ['5', '4'] })), 'wire.header-once');
    expect(failure!.message).toContain('sends x-ratelimit-remaining 2 times ("5", "4")');
  });

  it('fails an answer that sends Retry-After twice, even with one value', () => {
    const refusal = ex({ status: 429, headers: { ...rate(0), 'retry-after': ['30', '30'] }, body: { code: 'RATE_LIMITED', message: 'slow down', status: 429 } });
    expect(failuresOf(wire(refusal), 'wire.header-once')[0]!.message).toContain('retry-after 2 times ("30", "30")');
  });

  it('holds other headers sent twice (Set-Cookie, Vary): they are not the rate-limit headers', () => {
    expect(outcomes(answer('[]', { 'set-cookie': ['a=1', 'b=2'], vary: ['Accept', 'Authorization'] }), 'wire.header-once')).toEqual(['held']);
  });
});

describe('wire.readable: an answer arrives whole and readable', () => {
  it('holds an answer read whole', () => {
    expect(outcomes(answer('[]'), 'wire.readable')).toEqual(['held']);
  });

  it('fails an answer larger than the suite reads, naming the bytes kept, and judges its bytes no further', () => {
    const judged = wire(answer('[{"id":1', {}, { truncated: true }));
    const [failure] = failuresOf(judged, 'wire.readable');
    expect(failure!.message).toContain('sent a body larger than the suite reads (8 bytes kept)');
    expect(ofRule(judged, 'wire.one-json-value')).toEqual([]);
  });

  it('does not judge a body the run\'s own budget kept only in part: not unreadable, not broken JSON; its headers still judged', () => {
    const cut = answer('[{"id":1,"name":"Rex","categ', { 'x-ratelimit-remaining': ['5', '5'] });
    // Set as the client sets it once the run has kept its budget of bodies.
    cut.response.keptInPart = 'the run had already kept 32 MiB of answers, its own budget, so only the body\'s first 64 KiB were kept and it is not judged';
    const judged = wire(cut);
    expect(judged.filter((j) => j.rule !== 'wire.header-once')).toEqual([]);
    expect(outcomes(cut, 'wire.header-once')).toEqual(['failure']);
  });

  it('fails an answer whose body never finished, saying why and how much came', () => {
    const cut = answer('[{"id":1');
    // Set as the client sets it when the connection drops mid-body.
    (cut.response as { incomplete?: string }).incomplete = 'the connection closed after 8 bytes of the body';
    const [failure] = failuresOf(wire(cut), 'wire.readable');
    expect(failure!.message).toContain('then its body never finished (the connection closed after 8 bytes of the body; 8 bytes came)');
  });
});

describe('wire.no-bom: no byte-order mark', () => {
  it('holds a body without a BOM', () => {
    expect(outcomes(answer('[]'), 'wire.no-bom')).toEqual(['held']);
  });

  it('fails a body that starts with EF BB BF, and still reads the JSON after it', () => {
    const judged = wire(answer(bytes([0xef, 0xbb, 0xbf], utf8('[]'))));
    expect(failuresOf(judged, 'wire.no-bom')[0]!.message).toContain('starts its body with a byte-order mark (EF BB BF)');
    expect(ofRule(judged, 'wire.one-json-value').map((j) => j.outcome)).toEqual(['held']);
  });
});

describe('wire.utf8: bodies are UTF-8', () => {
  it('holds a body of UTF-8 with characters outside the BMP', () => {
    expect(outcomes(answer('[{"id":1,"name":"Zoë 🐕","categoryId":1}]'), 'wire.utf8')).toEqual(['held']);
  });

  it('fails a Latin-1 body, naming the bytes and where they are', () => {
    const [failure] = failuresOf(wire(answer(bytes(utf8('[{"name":"Zo'), [0xeb], utf8('"}]')))), 'wire.utf8');
    expect(failure!.message).toContain('not UTF-8 (bytes eb 22 7d 5d at offset 12)');
  });

  it('fails a character outside the BMP sent as CESU-8 (two encoded surrogates)', () => {
    // U+1F415 as the surrogates D83D DC15, each in three bytes.
    const cesu = [0xed, 0xa0, 0xbd, 0xed, 0xb0, 0x95];
    expect(failuresOf(wire(answer(bytes(utf8('["'), cesu, utf8('"]')))), 'wire.utf8')).toHaveLength(1);
  });
});

describe('wire.charset: a charset label tells the truth', () => {
  it.each(['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/json; charset=utf8'])('holds the label %s', (type) => {
    const judged = wire(answer('[{"name":"Zoë"}]', { 'content-type': type }));
    expect(ofRule(judged, 'wire.charset').map((j) => j.outcome)).toEqual(['held']);
    expect(failuresOf(judged)).toEqual([]);
  });

  it('says nothing of plain application/json (it has no charset parameter)', () => {
    expect(ofRule(wire(answer('[]', { 'content-type': 'application/json' })), 'wire.charset')).toEqual([]);
  });

  it('fails a UTF-8 body labelled charset=iso-8859-1, naming the label', () => {
    const [failure] = failuresOf(wire(answer('[{"name":"Zoë"}]', { 'content-type': 'application/json; charset=iso-8859-1' })), 'wire.charset');
    expect(failure!.message).toContain('labels its JSON body charset=iso-8859-1');
    expect(failure!.message).toContain('non-ASCII bytes');
  });

  it('fails an ASCII body labelled charset=iso-8859-1 (the first non-ASCII name will be read wrongly)', () => {
    expect(failuresOf(wire(answer('[]', { 'content-type': 'application/json; charset=ISO-8859-1' })), 'wire.charset')[0]!.message).toContain('charset=iso-8859-1');
  });

  it('warns of, and does not fail, an ASCII body labelled charset=us-ascii', () => {
    const judged = wire(answer('[]', { 'content-type': 'application/json; charset=us-ascii' }));
    expect(ofRule(judged, 'wire.charset').map((j) => j.outcome)).toEqual(['warning']);
    expect(failuresOf(judged)).toEqual([]);
  });

  it('fails a non-ASCII body labelled charset=us-ascii', () => {
    expect(failuresOf(wire(answer('[{"name":"Zoë"}]', { 'content-type': 'application/json; charset=us-ascii' })), 'wire.charset')).toHaveLength(1);
  });
});

describe('wire.one-json-value: a body is one JSON value', () => {
  it('holds one JSON value, pretty-printed with CRLF line ends', () => {
    expect(outcomes(answer('[\r\n  {\r\n    "id": 1\r\n  }\r\n]\r\n'), 'wire.one-json-value')).toEqual(['held']);
  });

  it('holds an Error labelled application/problem+json', () => {
    const refusal = ex({ status: 404, path: '/pets/9', headers: { ...rate(98), 'content-type': 'application/problem+json' }, body: { code: 'NOT_FOUND', message: 'No pet 9.', status: 404 } });
    expect(outcomes(refusal, 'wire.one-json-value')).toEqual(['held']);
  });

  it('fails one JSON value followed by another, naming what follows', () => {
    const [failure] = failuresOf(wire(answer('{"id":1}{"id":2}')), 'wire.one-json-value');
    expect(failure!.message).toContain('sends one JSON value and then more ("{\\"id\\":2}" from character 8)');
  });

  it('fails a body labelled application/json that is not JSON, quoting it', () => {
    const [failure] = failuresOf(wire(answer('Internal Server Error')), 'wire.one-json-value');
    expect(failure!.message).toContain('is labelled application/json but its body is not JSON: "Internal Server Error"');
  });

  it('fails a body nested past any Pet without parsing it whole, which alone would cost hundreds of MB', () => {
    const [failure] = failuresOf(wire(answer(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)), 'wire.one-json-value');
    expect(failure!.message).toContain('nests arrays or objects more than 256 deep');
  });

  it('holds a body kept in part by the run\'s own budget, and judges no more of it', () => {
    const kept = answer('[{"id":1,"na');
    const judged = wire({ ...kept, response: { ...kept.response, keptInPart: 'the run had already kept 16 MiB' } });
    expect(judged.map((j) => [j.rule, j.outcome])).toEqual([['wire.header-once', 'held']]);
  });

  it('does not read as JSON a body labelled otherwise (the Content-Type check judges the label)', () => {
    expect(ofRule(wire(answer('<html></html>', { 'content-type': 'text/html' })), 'wire.one-json-value')).toEqual([]);
  });

  it('judges no body of an answer without one: HEAD, 204', () => {
    expect(ofRule(wire(ex({ method: 'HEAD', status: 200, headers: rate(99) })), 'wire.one-json-value')).toEqual([]);
    expect(wire(ex({ method: 'OPTIONS', status: 204, headers: rate(99) })).map((j) => j.rule)).toEqual(['wire.header-once', 'wire.readable']);
  });
});

describe('judgeWire: every answer, documented or not', () => {
  it('judges an undocumented request under the operation `unlisted`', () => {
    const judged = wire(ex({ method: 'PUT', path: '/pets/1', status: 405, headers: rate(99), body: { code: 'METHOD_NOT_ALLOWED', message: 'No.', status: 405 } }));
    expect(new Set(judged.map((j) => j.operationId))).toEqual(new Set(['unlisted']));
    expect(failuresOf(judged)).toEqual([]);
  });
});
