// A minimal HTTP/1.x client on a raw socket, for what node:http hides: the exact bytes of each
// answer, where one ends and the next begins, whether the server closes when asked. It writes
// requests as given (HTTP/1.0 or 1.1, one by one on a kept-alive connection or pipelined, a body in
// chunks or split across writes), reads with a byte cap and a timeout, and records everything; the
// framing is judged elsewhere, from the record alone (responseFraming.ts).
import type { Socket } from 'node:net';
import { frameConnection, type FramedConnection, type FramedRequest, type StreamEnd } from './responseFraming.ts';

/** A socket as the client needs it: net.Socket and tls.TLSSocket both are. */
export type RawSocket = Pick<Socket, 'write' | 'on' | 'once' | 'off' | 'destroy' | 'setNoDelay' | 'end'>;

/** Opens a connection to the deployment's origin (TCP, or TLS for https). */
export type OpenConnection = () => Promise<RawSocket>;

export interface RawRequest {
  method: string;
  version: '1.0' | '1.1';
  /** The request line and field lines, ending in the empty line, as written. */
  head: Uint8Array;
  /** The body in the writes it goes in; between two, the client waits for the first to be flushed and the event loop to turn. */
  body: Uint8Array[];
  /** The request asks the server to close the connection after its answer (`Connection: close`, or HTTP/1.0 without keep-alive). */
  close: boolean;
}

/** One connection as it went: what was written when, every byte that came, and how reading ended. */
export interface RawConnectionRecord {
  /** Which of the requests given went on it, by index. */
  indexes: number[];
  /** The requests on it, as the framing needs them (`writtenAt`: bytes received when each was written). */
  requests: FramedRequest[];
  received: Uint8Array;
  /** How reading ended: the server closed, the time ran out, the byte cap was met, or the client was done. */
  ended: StreamEnd | 'done';
  pipelined: boolean;
  /** Milliseconds from the connection's opening: each request written, each answer whole, the server's close. */
  timings: { writtenMs: number[]; answeredMs: (number | undefined)[]; closedMs?: number };
  /** Why the connection could not be opened or written, when it could not. */
  error?: string;
}

export interface RawExchangeOptions {
  /** How long to wait for each answer, and for the close a request asked for. */
  timeoutMs: number;
  /** The most bytes read on one connection. */
  maxBytes: number;
  /** How long all the connections may take in all: no wait ends past it. */
  budgetMs?: number;
  now?: () => number;
}

/**
 * Bytes read on one connection at most: answers to `limit=1` are a few hundred bytes, or hundreds of
 * KB where a pet's name is that long (the contract sets no maximum); past it an answer is not judged.
 */
export const defaultRawMaxBytes = 1024 * 1024;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads a socket into one growing buffer and wakes whoever waits on each event. */
class Reader {
  chunks: Buffer[] = [];
  size = 0;
  ended: StreamEnd | undefined;
  closedAt: number | undefined;
  error: string | undefined;
  #wake: (() => void) | undefined;

  constructor(readonly socket: RawSocket, readonly maxBytes: number, readonly now: () => number) {
    socket.on('data', (chunk: Buffer) => {
      if (this.ended) return;
      const room = this.maxBytes - this.size;
      this.chunks.push(Buffer.from(chunk.subarray(0, room)));
      this.size += Math.min(room, chunk.length);
      if (chunk.length >= room) {
        this.ended = 'cap';
        socket.destroy();
      }
      this.#signal();
    });
    const closed = () => {
      if (this.ended === undefined) {
        this.ended = 'closed';
        this.closedAt = this.now();
      }
      this.#signal();
    };
    socket.on('end', closed);
    socket.on('close', closed);
    socket.on('error', (error: Error) => {
      this.error ??= error.message;
      closed();
    });
  }

  bytes(): Uint8Array {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    const one = this.chunks[0] ?? Buffer.alloc(0);
    return new Uint8Array(one.buffer, one.byteOffset, one.length);
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Resolves on the next event, or false once `until` has passed. */
  next(until: number): Promise<boolean> {
    const left = until - this.now();
    if (left <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve(false);
      }, left);
      this.#wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }
}

function write(socket: RawSocket, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => socket.write(bytes, (error?: Error | null) => (error ? reject(error) : resolve())));
}

/** Writes a request: its head with the first part of its body, then each further part after the last is flushed and a turn of the event loop. */
async function writeRequest(socket: RawSocket, request: RawRequest): Promise<void> {
  const [first, ...rest] = request.body;
  await write(socket, first ? Buffer.concat([request.head, first]) : request.head);
  for (const part of rest) {
    await nextTurn();
    await write(socket, part);
  }
}

/**
 * Sends `requests` on raw connections and records what came. `pipelined`: all on one connection,
 * written at once before any answer is read (RFC 9112, 9.3.2). Otherwise one by one, each written
 * once the answer before it is whole; when the server says it closes (or closes), the rest go on a
 * new connection, as a client's would. After an answer to a request that asked for the close, the
 * client waits (up to the timeout) for the server to close. Reading stops at the byte cap, at an
 * answer that cannot be framed, or when an answer does not come within the timeout.
 */
export async function exchangeRaw(open: OpenConnection, requests: readonly RawRequest[], pipelined: boolean, options: RawExchangeOptions): Promise<RawConnectionRecord[]> {
  const clock = options.now ?? (() => performance.now());
  const stopAt = clock() + (options.budgetMs ?? Number.POSITIVE_INFINITY);
  const now = clock;
  const records: RawConnectionRecord[] = [];
  let next = 0;
  while (next < requests.length) {
    if (now() >= stopAt) break;
    const record = await oneConnection(open, requests, next, pipelined, options, now, stopAt);
    records.push(record);
    // The rest go on a new connection only when every request on this one got a whole answer.
    const sent = record.indexes.length;
    if (pipelined || record.error !== undefined || sent === 0 || record.timings.answeredMs.filter((t) => t !== undefined).length < sent) break;
    next = record.indexes[sent - 1]! + 1;
  }
  return records;
}

async function oneConnection(open: OpenConnection, all: readonly RawRequest[], from: number, pipelined: boolean, options: RawExchangeOptions, now: () => number, stopAt: number): Promise<RawConnectionRecord> {
  /** Until when to wait: the timeout, or the run's budget when it ends first (a wait it cuts is no timeout of the deployment's). */
  const within = (ms: number) => Math.min(now() + ms, stopAt);
  // Whose wait ran out is told by the deadline it had, not by reading the clock after it: a timer
  // may fire a fraction of a millisecond before its instant.
  const timedOut = (until: number): RawConnectionRecord['ended'] => (until >= stopAt ? 'done' : 'timeout');
  const started = now();
  const record: RawConnectionRecord = { indexes: [], requests: [], received: new Uint8Array(0), ended: 'done', pipelined, timings: { writtenMs: [], answeredMs: [] } };
  let socket: RawSocket;
  try {
    socket = await open();
  } catch (error) {
    record.error = (error as Error).message;
    return record;
  }
  socket.setNoDelay(true);
  const reader = new Reader(socket, options.maxBytes, now);
  let framed: FramedConnection = { answers: [] };
  const frame = () => (framed = frameConnection(reader.bytes(), record.requests, reader.ended));
  const whole = (i: number) => framed.answers[i]?.end !== undefined;
  const stamp = () => {
    for (let i = 0; i < record.requests.length; i++) if (record.timings.answeredMs[i] === undefined && whole(i)) record.timings.answeredMs[i] = now() - started;
  };
  /** Waits until `done` holds, reading ends, or the time runs out; says which. */
  const waitFor = async (done: () => boolean, until: number): Promise<'done' | 'ended' | 'timeout'> => {
    while (true) {
      frame();
      stamp();
      if (done()) return 'done';
      if (framed.unframable || reader.ended !== undefined) return 'ended';
      if (!(await reader.next(until))) {
        frame();
        stamp();
        return done() ? 'done' : 'timeout';
      }
    }
  };
  const send = async (i: number) => {
    const request = all[i]!;
    record.indexes.push(i);
    record.requests.push({ method: request.method, version: request.version, writtenAt: reader.size });
    record.timings.writtenMs.push(now() - started);
    await writeRequest(socket, request);
  };
  const finish = (ended: RawConnectionRecord['ended']) => {
    record.ended = reader.ended ?? ended;
    if (reader.closedAt !== undefined) record.timings.closedMs = reader.closedAt - started;
    record.received = new Uint8Array(reader.bytes());
    socket.destroy();
    return record;
  };
  try {
    if (pipelined) {
      for (let i = from; i < all.length; i++) {
        record.indexes.push(i);
        record.requests.push({ method: all[i]!.method, version: all[i]!.version, writtenAt: 0 });
        record.timings.writtenMs.push(now() - started);
      }
      await write(socket, Buffer.concat(all.slice(from).flatMap((r) => [r.head, ...r.body])));
      const until = within(options.timeoutMs);
      const outcome = await waitFor(() => record.requests.every((_, i) => whole(i)), until);
      if (outcome === 'timeout') return finish(timedOut(until));
      if (outcome === 'ended') return finish('done');
      return await closing(record.requests.length - 1, all[all.length - 1]!);
    }
    for (let i = from; i < all.length; i++) {
      // The server closed after the last answer: the rest go on a new connection.
      if (i > from && reader.ended !== undefined) return finish('done');
      await send(i);
      const at = record.requests.length - 1;
      const until = within(options.timeoutMs);
      const outcome = await waitFor(() => whole(at), until);
      if (outcome === 'timeout') return finish(timedOut(until));
      if (outcome === 'ended') return finish('done');
      const closes = framed.answers[at]!.closes || all[i]!.close;
      if (closes) return await closing(at, all[i]!);
    }
    return finish('done');
  } catch (error) {
    record.error = (error as Error).message;
    return finish('closed');
  }

  /** After an answer the server closes after (it said so, or was asked): waits for the close, up to the timeout. */
  async function closing(at: number, request: RawRequest): Promise<RawConnectionRecord> {
    if (!framed.answers[at]!.closes && !request.close) return finish('done');
    const until = within(options.timeoutMs);
    const outcome = await waitFor(() => reader.ended === 'closed', until);
    return finish(outcome === 'timeout' ? timedOut(until) : 'done');
  }
}

export interface RequestSpec {
  method: string;
  /** The request target: path and query, `/v1/pets?limit=1`. */
  target: string;
  version: '1.0' | '1.1';
  /** Field lines in order, as written (Host among them); the body's framing and Connection are added here. */
  headers: readonly (readonly [string, string])[];
  body?: string;
  /** How the body goes: in one write with Content-Length, in two writes with Content-Length (`split`), or `chunked` (RFC 9112, 7.1). */
  bodyAs?: 'whole' | 'split' | 'chunked';
  /** Adds `Connection: close` (RFC 9112, 9.6). */
  close?: boolean;
}

const encoder = new TextEncoder();

/**
 * Where a body is cut in two: inside its first multi-byte UTF-8 character when it has one (a server
 * that decodes each read on its own then garbles it), else in its middle.
 */
export function splitPoint(bytes: Uint8Array): number {
  const lead = bytes.findIndex((b) => b >= 0xc0);
  return lead >= 0 ? lead + 1 : Math.max(1, Math.floor(bytes.length / 2));
}

/** A request as bytes: the head with the body's framing, and the body in its writes. */
export function encodeRequest(spec: RequestSpec): RawRequest {
  const body = spec.body === undefined ? undefined : encoder.encode(spec.body);
  const lines = [`${spec.method} ${spec.target} HTTP/${spec.version}`, ...spec.headers.map(([name, value]) => `${name}: ${value}`)];
  const parts: Uint8Array[] = [];
  if (body !== undefined) {
    const cut = splitPoint(body);
    if (spec.bodyAs === 'chunked') {
      lines.push('Transfer-Encoding: chunked');
      const chunk = (data: Uint8Array) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
      parts.push(chunk(body.subarray(0, cut)), chunk(body.subarray(cut)), Buffer.from('0\r\n\r\n'));
    } else {
      lines.push(`Content-Length: ${body.length}`);
      if (spec.bodyAs === 'split') parts.push(body.subarray(0, cut), body.subarray(cut));
      else parts.push(body);
    }
  }
  if (spec.close) lines.push('Connection: close');
  const head = encoder.encode(`${lines.join('\r\n')}\r\n\r\n`);
  // HTTP/1.0 without keep-alive closes after the answer (RFC 9112, 9.3).
  const keepAlive = spec.headers.some(([name, value]) => name.toLowerCase() === 'connection' && /keep-alive/i.test(value));
  return { method: spec.method, version: spec.version, head, body: parts, close: spec.close === true || (spec.version === '1.0' && !keepAlive) };
}
