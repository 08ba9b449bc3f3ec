import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpTransport, type Transport, type TransportResponse } from '../http/transport.ts';
import { inProcessDeployment, path, startDeployment, type Deployment, type Res, type Transform } from './deployment.ts';

const latin1Bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from('{"name":"Café"}', 'latin1')]);

/** Answers a few paths itself with what a transform may send: bytes, a header twice, a coding. */
const transform: Transform = async (req, forward): Promise<Res> => {
  switch (path(req)) {
    case '/v1/bytes':
      return { status: 200, headers: { 'content-type': 'application/json; charset=iso-8859-1', 'x-ratelimit-remaining': ['5', '4'] }, body: latin1Bom };
    case '/v1/text':
      return { status: 200, headers: { 'content-type': 'application/json', 'x-note': 'plain' }, body: '\ufeff{"name":"Café"}' };
    case '/v1/gzip':
      return { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: zlib.gzipSync('{"coding":"gzip"}') };
    default: {
      const res = await forward(req);
      // A forwarded answer is text with single-valued headers: a transform edits it as a string.
      return { ...res, body: res.body.replace(/^\[/, '[') };
    }
  }
};

/** The transform's own header lines: the HTTP front adds Date, Connection and framing of its own. */
const ownLines = (res: TransportResponse, names: string[]) => res.rawHeaders.filter(([name]) => names.includes(name));

let inProcess: Deployment;
let overHttp: Deployment;
let http: Transport;
beforeAll(async () => {
  inProcess = await inProcessDeployment(transform);
  overHttp = await startDeployment(transform);
  http = httpTransport();
});
afterAll(async () => {
  await http.close?.();
  await inProcess.close();
  await overHttp.close();
});

describe('injectTransport', () => {
  it.each([
    ['/bytes', ['content-type', 'x-ratelimit-remaining']],
    ['/text', ['content-type', 'x-note']],
    ['/gzip', ['content-type', 'content-encoding']],
  ])('gives for %s what the HTTP transport gets from the wire', async (route, names) => {
    const injected = await inProcess.transport.send({ method: 'GET', url: `${inProcess.baseUrl}${route}`, headers: {} }, 5000);
    const wired = await http.send({ method: 'GET', url: `${overHttp.baseUrl}${route}`, headers: {} }, 5000);
    expect(injected.status).toBe(wired.status);
    expect(injected.bytes).toEqual(wired.bytes);
    expect(injected.body).toBe(wired.body);
    expect(ownLines(injected, names)).toEqual(ownLines(wired, names));
    expect(injected.truncated).toBe(wired.truncated);
  });

  it('keeps a byte body as bytes and a header given twice as two lines', async () => {
    const res = await inProcess.transport.send({ method: 'GET', url: `${inProcess.baseUrl}/bytes`, headers: {} }, 5000);
    expect(res.bytes).toEqual(latin1Bom);
    expect(res.body).toBe('\ufeff{"name":"Caf\ufffd"}');
    expect(res.rawHeaders).toEqual([['content-type', 'application/json; charset=iso-8859-1'], ['x-ratelimit-remaining', '5'], ['x-ratelimit-remaining', '4']]);
    expect(res.headers['x-ratelimit-remaining']).toBe('5, 4');
  });

  it('sends a text body as UTF-8 and undoes a Content-Encoding', async () => {
    const text = await inProcess.transport.send({ method: 'GET', url: `${inProcess.baseUrl}/text`, headers: {} }, 5000);
    expect([...text.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text.body).toBe('\ufeff{"name":"Café"}');
    const gzip = await inProcess.transport.send({ method: 'GET', url: `${inProcess.baseUrl}/gzip`, headers: {} }, 5000);
    expect(gzip).toMatchObject({ body: '{"coding":"gzip"}', headers: { 'content-encoding': 'gzip' } });
  });

  it('hands a transform the mock\'s answer as text, and the suite gets its bytes', async () => {
    const res = await inProcess.transport.send({ method: 'GET', url: `${inProcess.baseUrl}/pets?limit=1`, headers: { authorization: 'Bearer demo-pro' } }, 5000);
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(res.bytes)).toBe(res.body);
    expect(res.rawHeaders.map(([name]) => name)).toContain('x-ratelimit-limit');
  });
});
