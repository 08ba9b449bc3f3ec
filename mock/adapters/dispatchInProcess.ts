import { EventEmitter } from 'node:events';
import { ServerResponse, type IncomingMessage } from 'node:http';
import { Readable, Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** A request handed to the app in this process: what a fetch Request or a Playwright route carries. */
export interface InProcessRequest {
  method: string;
  /** The path and query, e.g. `/v1/pets?limit=5`. */
  url: string;
  headers?: Record<string, string | undefined> | undefined;
  body?: Uint8Array | string | undefined;
  /** How many answers the app had given when the client sent it (`answerOrder`), taken by the host at once. */
  arrivedAfter?: number | undefined;
}

export interface InProcessAnswer {
  status: number;
  /** Header names in lower case, as the app set them. */
  headers: Record<string, string | string[]>;
  /** The body as the app wrote it (a HEAD or 204 answer may still have written one: the caller drops it). */
  body: Buffer;
}

/** Thrown when the app destroyed the answer instead of finishing it (a reset connection). */
export class InProcessResetError extends Error {
  override readonly name = 'InProcessResetError';
  readonly code = 'ECONNRESET';
}

const readied = new WeakSet<FastifyInstance>();

/**
 * Readies the app for dispatchInProcess, once: each app.ready() schedules fastify's boot steps again
 * (process.nextTick, queueMicrotask, setTimeout), which Jest fakes for the modules a test loads.
 * Call it where the app is built, before a test can fake timers.
 */
export async function readyInProcess(app: FastifyInstance): Promise<void> {
  await app.ready();
  readied.add(app);
}

/** The client address an in-process request comes from: the one `inject()` gives, so request logs and rate-limit buckets read the same. */
const clientAddress = '127.0.0.1';

// The socket both sides show fastify: an address to read, events to listen to, nothing to send.
class NoSocket extends EventEmitter {
  readonly remoteAddress = clientAddress;
  readonly encrypted = false;
  constructor(private readonly onDestroy: (error?: Error) => void) {
    super();
  }
  destroy(error?: Error): this {
    this.onDestroy(error);
    return this;
  }
}

/** The request body as a stream that is complete from the start: reading it needs no timer. */
class RequestStream extends Readable {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly rawHeaders: string[];
  readonly httpVersion = '1.1';
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor = 1;
  readonly aborted = false;
  readonly socket: NoSocket;

  constructor(request: InProcessRequest, socket: NoSocket) {
    super({ read() {} });
    this.method = request.method.toUpperCase();
    this.url = request.url;
    this.socket = socket;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
    const body = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
    // As inject() does: the Host the URL implies, and the body's length unless the caller gave one.
    headers.host ??= 'localhost:80';
    if (body && body.byteLength > 0 && headers['content-length'] === undefined) headers['content-length'] = String(body.byteLength);
    this.headers = headers;
    this.rawHeaders = Object.entries(headers).flat();
    if (body && body.byteLength > 0) this.push(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    this.push(null);
  }
}

/** Keeps what the app writes, and the headers it sends. */
class AnswerCollector extends ServerResponse {
  readonly chunks: Buffer[] = [];
  #destroyed = false;

  constructor(request: RequestStream, private readonly onReset: (error?: Error) => void) {
    super(request as unknown as IncomingMessage);
    // Headers given to writeHead() are then kept where getHeaders() reads them (Node keeps them
    // only in the serialized head when no header was set before).
    this.setHeader('x-in-process', '1');
    this.removeHeader('x-in-process');
    // Writes complete at once: a timer (setImmediate) here is what a faked clock would hold back.
    this.assignSocket(new Writable({ write: (_chunk, _encoding, done) => done() }) as never);
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    this.#keep(chunk, encoding);
    return super.write(chunk as string, encoding as BufferEncoding, callback as () => void);
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (typeof chunk !== 'function') this.#keep(chunk, encoding);
    return super.end(chunk as string, encoding as BufferEncoding, callback as () => void);
  }

  override destroy(error?: Error): this {
    if (this.#destroyed) return this;
    this.#destroyed = true;
    this.onReset(error);
    return this;
  }

  #keep(chunk: unknown, encoding: unknown): void {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (typeof chunk === 'string') this.chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else if (chunk instanceof Uint8Array) this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
}

/**
 * Answers one request with the app, in this process, as fastify's `inject()` would, but on no
 * timer: inject's request stream waits on `setImmediate` and its answer on `process.nextTick`,
 * which a test's fake timers (Vitest, Jest, Sinon) hold until the test advances them, so the
 * adapters would hang. Here the body is in the stream before it is read, writes complete at once,
 * and the answer is taken when the app finishes it. Rejects with InProcessResetError when the app
 * destroys the answer instead (a reset connection). An app not yet ready is readied first, as
 * inject() does (its plugins load on process.nextTick: ready the app before faking timers).
 */
export async function dispatchInProcess(app: FastifyInstance, request: InProcessRequest): Promise<InProcessAnswer> {
  if (!readied.has(app)) await readyInProcess(app);
  return new Promise((resolve, reject) => {
    let settled = false;
    const reset = (error?: Error) => {
      if (settled) return;
      settled = true;
      reject(new InProcessResetError(error ? `The mock reset the connection: ${error.message}` : 'The mock reset the connection before it answered.'));
    };
    const socket = new NoSocket(reset);
    const req = new RequestStream(request, socket);
    if (request.arrivedAfter !== undefined) (req as { arrivedAfter?: number }).arrivedAfter = request.arrivedAfter;
    const res = new AnswerCollector(req, reset);
    res.once('finish', () => {
      if (settled) return;
      settled = true;
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.map(String) : String(value);
      }
      // Node writes Date into the head itself, as the server's answers carry it.
      const date = /\r\ndate: ([^\r]*)\r\n/i.exec((res as unknown as { _header?: string })._header ?? '');
      if (date && headers.date === undefined) headers.date = date[1]!;
      resolve({ status: res.statusCode, headers, body: Buffer.concat(res.chunks) });
    });
    res.once('error', (error) => reset(error));
    app.routing(req as unknown as IncomingMessage, res);
  });
}

/** Control requests to `app` for the handle (createPetsMockControl), on no timer a test can fake. */
export function appControlSend(app: FastifyInstance): (request: { method: string; url: string; headers: Record<string, string>; body?: string | undefined }) => Promise<{ status: number; body: string }> {
  return async (request) => {
    const res = await dispatchInProcess(app, request);
    return { status: res.status, body: res.body.toString('utf8') };
  };
}
