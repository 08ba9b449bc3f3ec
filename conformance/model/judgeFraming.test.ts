import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange, WireConnection, WireRequest } from '../http/exchange.ts';
import { frameWire } from '../http/wireExchanges.ts';
import { judgeFraming, judgeUnframable } from './judgeFraming.ts';
import { ex, resetSeq, viewOf } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

type Sent = Partial<WireRequest> & { target: string };

/** A raw connection that carried `sent` and received `bytes`; reading ended as `ended`. */
function connection(sent: Sent[], bytes: string, ended: WireConnection['ended'] = 'done', pipelined = false): WireConnection {
  return {
    id: 1,
    pipelined,
    requests: sent.map((r) => ({ method: 'GET', version: '1.1', close: false, writtenAt: 0, ...r })),
    received: new Uint8Array(Buffer.from(bytes, 'latin1')),
    ended,
    timeoutMs: 2000,
    timings: { writtenMs: sent.map(() => 0), answeredMs: [] },
  };
}

/** The exchange of the answer at `index` on the connection, as the client records it. */
function on(wire: WireConnection, index: number): Exchange {
  const request = wire.requests[index]!;
  const answer = frameWire(wire).answers[index]!;
  const base = ex({ method: request.method, path: request.target.replace(/^\/v1/, ''), status: answer.head.status, body: Buffer.from(answer.body).toString() });
  return { ...base, wire: { connection: wire, index, head: '', framing: answer.framing } };
}

const judged = (exchange: Exchange) => judgeFraming(exchange, viewOf(exchange)).map((j) => [j.rule, j.outcome]);
const messages = (exchange: Exchange) => judgeFraming(exchange, viewOf(exchange)).filter((j) => j.outcome !== 'held').map((j) => j.message);
const ok = (body: string, extra = '') => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('judgeFraming', () => {
  it('judges nothing of an exchange sent through node:http', () => {
    expect(judgeFraming(ex({ status: 200, body: '[]' }), viewOf(ex({ status: 200, body: '[]' })))).toEqual([]);
  });

  it('holds an answer framed by Content-Length that the next starts right after', () => {
    const wire = connection([{ target: '/v1/pets' }, { target: '/v1/pets', writtenAt: ok('[]').length }], ok('[]') + ok('[]'));
    expect(judged(on(wire, 0))).toEqual([
      ['framing.message-syntax', 'held'],
      ['framing.one-length', 'held'],
      ['framing.length-exact', 'held'],
      ['framing.connection-reusable', 'held'],
    ]);
  });

  it('fails a head with obsolete line folding and warns of a bare LF', () => {
    const wire = connection([{ target: '/v1/pets' }], 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\nx-a: 1\r\n  more\r\nx-b: 2\n\r\n[]');
    const exchange = on(wire, 0);
    expect(judged(exchange).filter(([rule]) => rule === 'framing.message-syntax')).toEqual([
      ['framing.message-syntax', 'failure'],
      ['framing.message-syntax', 'warning'],
    ]);
    expect(messages(exchange)[0]).toMatch(/continues the one before \(obsolete line folding\)/);
  });

  it('fails Content-Length beside Transfer-Encoding', () => {
    const wire = connection([{ target: '/v1/pets' }], 'HTTP/1.1 200 OK\r\ncontent-length: 7\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n');
    expect(judged(on(wire, 0))).toContainEqual(['framing.one-length', 'failure']);
  });

  it('fails a chunked body the connection closed before its last chunk', () => {
    const wire = connection([{ target: '/v1/pets' }], 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\n', 'closed');
    expect(judged(on(wire, 0))).toContainEqual(['framing.chunked-valid', 'failure']);
  });

  it('fails a Connection: close not made within the timeout, and warns of HTTP/1.0\'s close not made', () => {
    const closeAsked = connection([{ target: '/v1/pets', close: true }], ok('[]'), 'timeout');
    expect(judged(on(closeAsked, 0))).toContainEqual(['framing.close-honoured', 'failure']);
    const old = connection([{ target: '/v1/pets', close: true, version: '1.0' }], ok('[]'), 'timeout');
    expect(judged(on(old, 0))).toContainEqual(['framing.close-honoured', 'warning']);
    const made = connection([{ target: '/v1/pets', close: true }], ok('[]'), 'closed');
    expect(judged(on(made, 0))).toContainEqual(['framing.close-honoured', 'held']);
  });

  it('fails a kept-alive connection that leaves the next request unanswered', () => {
    const wire = connection([{ target: '/v1/pets' }, { target: '/v1/pets/1', writtenAt: ok('[]').length }], ok('[]'), 'timeout');
    expect(messages(on(wire, 0))[0]).toMatch(/the next request \(\/v1\/pets\/1\) was sent on the same kept-alive connection and got no answer within 2000 ms/);
  });

  it('warns of empty lines between two answers', () => {
    const wire = connection([{ target: '/v1/pets' }, { target: '/v1/pets', writtenAt: ok('[]').length }], `${ok('[]')}\r\n${ok('[]')}`);
    expect(judged(on(wire, 0)).filter(([rule]) => rule === 'framing.connection-reusable')).toEqual([['framing.connection-reusable', 'warning']]);
  });

  it('fails an answer that came before its request was sent: an answer to nothing', () => {
    const wire = connection([{ target: '/v1/pets' }, { target: '/v1/pets', writtenAt: 2 * ok('[]').length }], ok('[]') + ok('[]') + ok('[]'));
    expect(messages(on(wire, 0))).toEqual([expect.stringMatching(/an answer \("HTTP\/1.1 200 OK"\) came before request 2 was sent: it answers nothing/)]);
  });

  it('fails pipelined answers out of order, by what each body is', () => {
    const wire = connection([{ target: '/v1/pets/7' }, { target: '/v1/pets?limit=1' }], ok('[{"id":7}]') + ok('{"id":7}'), 'done', true);
    expect(judged(on(wire, 0))).toContainEqual(['framing.pipelined-in-order', 'failure']);
    expect(messages(on(wire, 1))[0]).toMatch(/answers request 2 of the pipeline \(\/v1\/pets\?limit=1\) with a body that is not its answer/);
    const inOrder = connection([{ target: '/v1/pets/7' }, { target: '/v1/pets?limit=1' }], ok('{"id":7}') + ok('[{"id":7}]'), 'done', true);
    expect(judged(on(inOrder, 1))).toContainEqual(['framing.pipelined-in-order', 'held']);
  });

  it('judges no pipelining where one answer came and the server closed: legal, not reached', () => {
    const wire = connection([{ target: '/v1/pets/7' }, { target: '/v1/pets?limit=1' }], ok('{"id":7}', 'connection: close\r\n'), 'closed', true);
    expect(judged(on(wire, 0)).filter(([rule]) => rule === 'framing.pipelined-in-order')).toEqual([]);
  });

  it('holds a NewPet sent chunked and answered 201 or 411, and fails one refused 400', () => {
    const post = (status: string) => connection([{ method: 'POST', target: '/v1/pets', bodyAs: 'chunked' }], `HTTP/1.1 ${status}\r\ncontent-length: 2\r\n\r\n{}`);
    expect(judged(on(post('201 Created'), 0))).toContainEqual(['framing.body-read-whole', 'held']);
    expect(judged(on(post('411 Length Required'), 0))).toContainEqual(['framing.body-read-whole', 'held']);
    expect(judged(on(post('400 Bad Request'), 0))).toContainEqual(['framing.body-read-whole', 'failure']);
    expect(judged(on(post('429 Too Many Requests'), 0)).filter(([rule]) => rule === 'framing.body-read-whole')).toEqual([]);
  });
});

describe('judgeUnframable', () => {
  it('fails a raw connection whose bytes start no answer, showing them, under its first request\'s operation', () => {
    const garbage = { ...connection([{ target: '/v1/pets?limit=1' }], 'hello there\r\n\r\n', 'closed'), operationId: 'listPets' };
    const [j] = judgeUnframable([garbage]);
    expect(j).toMatchObject({ rule: 'framing.message-syntax', operationId: 'listPets', outcome: 'failure' });
    expect(j!.exchange).toBeUndefined();
    expect(j!.message).toMatch(/^Raw connection 1 \(HTTP\/1\.1, GET \/v1\/pets\?limit=1\): the bytes that came \(.*hello.*\) start no HTTP answer: no status line/);
  });

  it('says nothing of a connection whose answers could be framed, or that received nothing', () => {
    expect(judgeUnframable([connection([{ target: '/v1/pets' }], ok('[]'))])).toEqual([]);
    expect(judgeUnframable([connection([{ target: '/v1/pets' }], '', 'closed')])).toEqual([]);
  });
});
