// A test deployment that speaks HTTP/1.x by hand on a raw socket, around the mock: what node's own
// server never gets wrong (a Content-Length counted in UTF-16 units, a body after HEAD's head, chunked
// sent to HTTP/1.0, a close asked for and not made, pipelined requests left unanswered) can be put
// on the wire one at a time. Without a fault it frames every answer correctly: Content-Length,
// kept alive in HTTP/1.1, closed after HTTP/1.0 and after Connection: close, pipelined requests
// answered in order. On 127.0.0.1 and a free port; `close()` ends it.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fieldMembers, readHead } from '../http/messageHead.ts';
import { readChunked } from '../http/responseFraming.ts';
import { inProcessDeployment, type Deployment } from './deployment.ts';
import { injectForward, type Req } from './injectTransport.ts';
import type { MockOptions } from '../../mock/index.ts';

/** One way of getting HTTP/1.x framing wrong. */
export interface WireFault {
  /** The Content-Length written for a body of this text: its UTF-8 byte length when absent. */
  contentLength?: (text: string, bytes: Uint8Array) => number;
  /** Frames every body chunked, to HTTP/1.0 requests too (RFC 9112, 6.1 forbids it). */
  chunkedToAll?: boolean;
  /** Writes the body after the head of an answer to HEAD too. */
  bodyOnHead?: boolean;
  /** Keeps the connection open after Connection: close. */
  ignoreClose?: boolean;
  /** Reads one request from each read of the socket: pipelined requests after it are never answered. */
  firstOfEachRead?: boolean;
  /** Not a fault: says Connection: close on every answer and closes (RFC 9112, 9.6 lets a server). */
  closeEach?: boolean;
}

const encoder = new TextEncoder();

/** Statuses' reason phrases, for the status line. */
const reasons: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No Content', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 405: 'Method Not Allowed', 411: 'Length Required', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error' };

interface Parsed {
  req: Req;
  version: string;
  close: boolean;
  end: number;
}

/** The next request in `bytes`: its head, and its body by Content-Length or chunked; undefined until it is all in. */
function nextRequest(bytes: Uint8Array): Parsed | undefined {
  // A request line read as a status line would be: the head reader wants "HTTP/"; so the line is read here.
  const text = Buffer.from(bytes).toString('latin1');
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [line, ...lines] = text.slice(0, headEnd).split('\r\n');
  const [method = 'GET', url = '/', protocol = 'HTTP/1.1'] = line!.split(' ');
  const fake = readHead(encoder.encode(`HTTP/1.1 200 OK\r\n${lines.join('\r\n')}\r\n\r\n`), 0);
  const fields = fake.kind === 'head' ? fake.head : { fields: [] as [string, string][] };
  const headers: Record<string, string> = {};
  for (const [name, value] of fields.fields) headers[name.toLowerCase()] = name.toLowerCase() in headers ? `${headers[name.toLowerCase()]}, ${value}` : value;
  const version = protocol.replace('HTTP/', '');
  const connection = fieldMembers(fields, 'connection').map((o) => o.toLowerCase());
  const close = connection.includes('close') || (version === '1.0' && !connection.includes('keep-alive'));
  let at = headEnd + 4;
  let body: Uint8Array = new Uint8Array(0);
  if (fieldMembers(fields, 'transfer-encoding').some((c) => c.toLowerCase() === 'chunked')) {
    const chunked = readChunked(bytes, at);
    if (chunked.end === undefined) return undefined;
    body = chunked.body;
    at = chunked.end;
  } else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (bytes.length < at + length) return undefined;
    body = bytes.slice(at, at + length);
    at += length;
  }
  delete headers['content-length'];
  delete headers['transfer-encoding'];
  return { req: { method, url, headers, body: Buffer.from(body).toString('utf8') }, version, close, end: at };
}

/** Starts the mock behind a hand-written HTTP/1.x front with `fault` in its framing. */
export async function startRawDeployment(fault: WireFault = {}, mockOptions: MockOptions = {}): Promise<Deployment> {
  // As startDeployment's: real time, started at least 20 s before a minute ends, so a run's requests share their windows.
  const intoMinute = Date.now() % 60_000;
  const offset = intoMinute > 40_000 ? 61_000 - intoMinute : 0;
  const clock = { now: () => Date.now() + offset, advance: () => {} };
  const deployment = await inProcessDeployment(undefined, mockOptions, clock);
  const forward = injectForward(deployment.mock);
  const sockets = new Set<Socket>();

  async function answer(socket: Socket, parsed: Parsed): Promise<void> {
    const head = parsed.req.method.toUpperCase() === 'HEAD';
    // HEAD is answered as GET, its Content-Length the length GET would send (RFC 9110, 8.6); the
    // body is left out below unless the fault writes it.
    const res = await forward(head ? { ...parsed.req, method: 'GET' } : parsed.req);
    const bytes = encoder.encode(res.body);
    const chunked = fault.chunkedToAll === true;
    const fields: string[] = Object.entries(res.headers).map(([name, value]) => `${name}: ${value}`);
    // 204 and 304 carry no framing field: RFC 9110, 8.6 forbids Content-Length on a 204, and a
    // 304's would have to be its 200's.
    const bodiless = res.status === 204 || res.status === 304;
    if (!bodiless && chunked) fields.push('transfer-encoding: chunked');
    else if (!bodiless) fields.push(`content-length: ${(fault.contentLength ?? ((_t, b) => b.length))(res.body, bytes)}`);
    if (parsed.close && !fault.ignoreClose) fields.push('connection: close');
    const status = `HTTP/1.1 ${res.status} ${reasons[res.status] ?? 'Status'}`;
    const withBody = !bodiless && (!head || fault.bodyOnHead === true);
    const body = !withBody || bytes.length === 0 ? (chunked && withBody ? encoder.encode('0\r\n\r\n') : new Uint8Array(0)) : chunked ? encoder.encode(`${bytes.length.toString(16)}\r\n${res.body}\r\n0\r\n\r\n`) : bytes;
    if (!socket.writable) return;
    socket.write(Buffer.concat([encoder.encode(`${status}\r\n${fields.join('\r\n')}\r\n\r\n`), body]));
    if (parsed.close && !fault.ignoreClose) socket.end();
  }

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = new Uint8Array(0);
    // Answers go out in the order the requests came: each waits for the one before it.
    let queue = Promise.resolve();
    socket.on('data', (data: Buffer) => {
      pending = new Uint8Array(Buffer.concat([pending, data]));
      while (true) {
        const found = nextRequest(pending);
        if (!found) break;
        const parsed = fault.closeEach ? { ...found, close: true } : found;
        pending = pending.slice(parsed.end);
        queue = queue.then(() => answer(socket, parsed)).catch(() => void socket.destroy());
        if (parsed.close || fault.firstOfEachRead) {
          if (fault.firstOfEachRead) pending = new Uint8Array(0);
          break;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ...deployment,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      await deployment.mock.close();
    },
  };
}
