import { describe, expect, it } from 'vitest';
import { readHead } from './messageHead.ts';
import { frameConnection, readChunked, type FramedRequest } from './responseFraming.ts';

const bytes = (...parts: (string | Uint8Array)[]) => new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p)))));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const get = (writtenAt = 0): FramedRequest => ({ method: 'GET', version: '1.1', writtenAt });
const ok = (body: string, extra = '') => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
const kinds = (answer: { problems: { kind: string }[] } | undefined) => answer?.problems.map((p) => p.kind) ?? [];

describe('readHead', () => {
  it('reads the status line and the field lines, names as sent and values trimmed', () => {
    const read = readHead(bytes('HTTP/1.1 404 Not Found\r\nContent-Type:  application/json \r\nX-RateLimit-Limit: 60\r\n\r\n{}'), 0);
    expect(read.kind).toBe('head');
    if (read.kind !== 'head') return;
    expect(read.head).toMatchObject({ version: '1.1', status: 404, fields: [['Content-Type', 'application/json'], ['X-RateLimit-Limit', '60']], problems: [] });
    expect(read.head.end).toBe(read.head.statusLine.length + 2 + 'Content-Type:  application/json \r\n'.length + 'X-RateLimit-Limit: 60\r\n'.length + 2);
  });

  it('names obsolete line folding, whitespace before a colon, a line without one and a bare LF', () => {
    const read = readHead(bytes('HTTP/1.1 200 OK\r\nA: 1\r\n  folded\r\nB : 2\r\nno colon\r\nC: 3\n\r\n'), 0);
    expect(read.kind).toBe('head');
    if (read.kind !== 'head') return;
    expect(read.head.problems.map((p) => p.kind)).toEqual(['obs-fold', 'space-before-colon', 'field-syntax', 'bare-lf']);
    expect(read.head.fields[0]).toEqual(['A', '1 folded']);
  });

  it('says a status line that is not one, and bytes that start none', () => {
    const read = readHead(bytes('HTTP/1.1 OK\r\n\r\n'), 0);
    expect(read.kind === 'head' && read.head.problems[0]!.kind).toBe('status-line');
    expect(readHead(bytes('"}]HTTP/1.1 200 OK\r\n'), 0).kind).toBe('not-http');
    expect(readHead(bytes('HTT'), 0).kind).toBe('more');
  });

  it('gives up on a head past the limit, keeping its status line', () => {
    const read = readHead(bytes(`HTTP/1.1 200 OK\r\n${'X-A: b\r\n'.repeat(100)}`), 0, 200);
    expect(read.kind).toBe('more');
    expect(read.kind === 'more' && read.head).toMatchObject({ status: 200, problems: [{ kind: 'head-too-long' }] });
  });
});

describe('frameConnection', () => {
  it('frames answers by Content-Length, one after the other', () => {
    const framed = frameConnection(bytes(ok('[1]'), ok('{"id":2}')), [get(), get()]);
    expect(framed.answers.map((a) => [a.head.status, a.framing, text(a.body), a.problems])).toEqual([
      [200, 'content-length', '[1]', []],
      [200, 'content-length', '{"id":2}', []],
    ]);
    expect(framed.unframable).toBeUndefined();
  });

  it('says a Content-Length that counts UTF-16 units leaves bytes that start no answer, and reads the next answer past them', () => {
    const body = '[{"name":"Émile 🐕"}]';
    const wrong = `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    const framed = frameConnection(bytes(wrong, ok('[]')), [get(), get()]);
    expect(kinds(framed.answers[0])).toEqual(['length-short']);
    expect(framed.answers[0]!.problems[0]!.detail).toMatch(/Content-Length \(21\) ends the body before 3 bytes that start no answer/);
    expect(text(framed.answers[1]!.body)).toBe('[]');
  });

  it('says a Content-Length that runs into the next pipelined answer swallows it', () => {
    const framed = frameConnection(bytes('HTTP/1.1 200 OK\r\ncontent-length: 30\r\n\r\n[]', ok('[1]')), [get(), get()]);
    expect(kinds(framed.answers[0])).toEqual(['length-long']);
  });

  it('says a Content-Length the connection closed before meeting', () => {
    const framed = frameConnection(bytes('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n[1,'), [get()], 'closed');
    expect(framed.answers[0]).toMatchObject({ unfinished: 'closed', problems: [{ kind: 'length-unmet' }] });
  });

  it('waits for the rest of an answer while bytes may still come', () => {
    const open = frameConnection(bytes('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n[1,'), [get()]).answers[0]!;
    expect([open.end, open.unfinished, open.problems]).toEqual([undefined, undefined, []]);
    expect(frameConnection(bytes('HTTP/1.1 200 OK\r\ncontent-'), [get()]).answers).toEqual([]);
  });

  it('joins chunks, with extensions and trailers', () => {
    const framed = frameConnection(bytes('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3;x=y\r\n[1,\r\n2\r\n2]\r\n0\r\nX-Trailer: 1\r\n\r\n', ok('[]')), [get(), get()]);
    expect(framed.answers.map((a) => [a.framing, text(a.body), a.problems])).toEqual([
      ['chunked', '[1,2]', []],
      ['content-length', '[]', []],
    ]);
  });

  it('says a chunk whose size does not match its data, and frames nothing after it', () => {
    const framed = frameConnection(bytes('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[1,2]\r\n0\r\n\r\n', ok('[]')), [get(), get()]);
    expect(kinds(framed.answers[0])).toEqual(['chunk-syntax']);
    expect(framed.answers).toHaveLength(1);
    expect(framed.unframable).toBeDefined();
  });

  it('says a chunk size that is no hex number, and a chunked body the connection closed inside', () => {
    expect(readChunked(bytes('zz\r\n'), 0).problems[0]!.kind).toBe('chunk-syntax');
    expect(readChunked(bytes('3\r\n[1,\r\n'), 0, 'closed').problems[0]!.kind).toBe('chunk-unfinished');
    const open = readChunked(bytes('3\r\n[1,\r\n'), 0, 'timeout');
    expect([open.end, open.problems, text(open.body)]).toEqual([undefined, [], '[1,']);
  });

  it('says Content-Length beside Transfer-Encoding, and Content-Length twice', () => {
    const both = frameConnection(bytes('HTTP/1.1 200 OK\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n'), [get()]);
    expect(kinds(both.answers[0])).toEqual(['length-and-chunked']);
    const twice = frameConnection(bytes('HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 2\r\n\r\n[]'), [get()]);
    expect(kinds(twice.answers[0])).toEqual(['length-invalid']);
    expect(twice.answers[0]!.end).toBeDefined();
  });

  it('says Transfer-Encoding sent to an HTTP/1.0 request', () => {
    const framed = frameConnection(bytes('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n'), [{ method: 'GET', version: '1.0', writtenAt: 0 }]);
    expect(kinds(framed.answers[0])).toEqual(['coding-to-1.0']);
    expect(framed.answers[0]!.closes).toBe(true);
  });

  it('says a body after the head of an answer to HEAD, and frames the next answer after it', () => {
    const framed = frameConnection(bytes('HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\n[1]', ok('[2]')), [{ method: 'HEAD', version: '1.1', writtenAt: 0 }, get(40)]);
    expect(framed.answers[0]).toMatchObject({ framing: 'none', problems: [{ kind: 'head-body' }] });
    expect(text(framed.answers[1]!.body)).toBe('[2]');
  });

  it('says a body after a 204', () => {
    const framed = frameConnection(bytes('HTTP/1.1 204 No Content\r\n\r\n{}', ok('[]')), [get(), get()]);
    expect(kinds(framed.answers[0])).toEqual(['no-body-body']);
  });

  it('says an answer that came before its request was sent', () => {
    const two = bytes(ok('[1]'), ok('[1]'));
    const framed = frameConnection(two, [get(0), get(two.length)]);
    expect(kinds(framed.answers[0])).toEqual(['unsolicited']);
  });

  it('frames an answer without a length by the connection\'s close, and leaves it unfinished while the connection stays open', () => {
    const answer = bytes('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n[1]');
    expect(frameConnection(answer, [get()], 'closed').answers[0]).toMatchObject({ framing: 'close', closes: true, problems: [] });
    expect(text(frameConnection(answer, [get()], 'closed').answers[0]!.body)).toBe('[1]');
    const open = frameConnection(answer, [get()], 'timeout').answers[0]!;
    expect([open.framing, open.unfinished, open.end]).toEqual(['close', 'timeout', undefined]);
  });

  it('skips a 100 Continue before the answer', () => {
    const framed = frameConnection(bytes('HTTP/1.1 100 Continue\r\n\r\n', ok('{"id":1}')), [{ method: 'POST', version: '1.1', writtenAt: 0 }]);
    expect(framed.answers[0]).toMatchObject({ interim: [{ status: 100 }], head: { status: 200 } });
  });

  it('says bytes that start no answer where the first answer should be', () => {
    expect(frameConnection(bytes('SSH-2.0-OpenSSH\r\n'), [get()]).unframable).toBeDefined();
  });

  it('keeps the status line of a head that never ends', () => {
    const framed = frameConnection(bytes(`HTTP/1.1 200 OK\r\n${'X-Endless: yes\r\n'.repeat(5000)}`), [get()], 'cap');
    expect(framed.answers[0]).toMatchObject({ head: { status: 200 }, unfinished: 'cap' });
    expect(kinds(framed.answers[0])).toContain('head-too-long');
  });

  it('says the connection closes after an answer with Connection: close, or to HTTP/1.0 without keep-alive', () => {
    expect(frameConnection(bytes(ok('[]', 'connection: close\r\n')), [get()]).answers[0]!.closes).toBe(true);
    expect(frameConnection(bytes(ok('[]')), [get()]).answers[0]!.closes).toBe(false);
    expect(frameConnection(bytes(ok('[]')), [{ method: 'GET', version: '1.0', writtenAt: 0 }]).answers[0]!.closes).toBe(true);
    expect(frameConnection(bytes(ok('[]', 'connection: keep-alive\r\n')), [{ method: 'GET', version: '1.0', writtenAt: 0 }]).answers[0]!.closes).toBe(false);
  });

  it('says an answer after the last, for no request', () => {
    expect(kinds(frameConnection(bytes(ok('[]'), ok('[]')), [get()]).answers[0])).toEqual(['unsolicited']);
  });

  it('notes empty lines between answers, and bytes left after the last', () => {
    const framed = frameConnection(bytes(ok('[]'), '\r\n', ok('[]'), 'xyz'), [get(), get()]);
    expect(kinds(framed.answers[0])).toEqual(['stray-crlf']);
    expect(kinds(framed.answers[1])).toEqual(['length-short']);
  });
});
