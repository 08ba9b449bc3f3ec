// A request of Node's HTTP server handed to the mock, and its answer written back: the host of the
// pets-mock server, of the fastify adapter and of the Vite middleware (petsMockMiddleware.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { ClientGoneError, ConnectionResetError, type ClientSignal, type CoreAnswer, type CoreRequest } from '../core/coreTypes.ts';
import { bodyIsSent } from '../pipeline/readRequest.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { imfFixdate } from '../core/dateField.ts';
import { isPromise, type Awaitable } from '../state/awaitable.ts';
import { AnswerBatch } from './answerBatch.ts';

/** What a Node host needs of the mock: its answers, and its clock's instant for a request handed over (arrival). */
export interface NodeAnswerer {
  /** The answer, at once when nothing had to wait (MockCore.answerNow). */
  answerNow(request: CoreRequest): Awaitable<CoreAnswer>;
  arrival(): number;
}

/** Where a Node host's errors go: pino's logger fits. */
export interface HostLog {
  error(fields: object, message: string): void;
}

/**
 * A `node:http` request listener answering every request with the mock (answerRaw): the pets-mock
 * server's host. `current` is asked per request, so a reload's new mock answers the next one. The
 * server owns its sockets, so its answers are written together at the end of each turn of the
 * event loop (AnswerBatch).
 */
export function serveNode(current: () => NodeAnswerer, { bodyLimit, clientAddress, log }: { bodyLimit: number; clientAddress: (req: IncomingMessage) => string; log: HostLog }): (req: IncomingMessage, res: ServerResponse) => void {
  const options = { bodyLimit, log, batch: new AnswerBatch(log) };
  return (req, res) => {
    const mock = current();
    const arrivedAt = mock.arrival();
    void answerRaw(mock, { req, res, ip: clientAddress(req), arrivedAt }, options);
  };
}

/** One request as a Node host holds it: the raw request and response, and what the host read of them. */
export interface RawExchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The client's address (trustProxy's, when one is believed). */
  ip: string;
  /** `core.arrival()` when the request arrived: when the client sent it, as near as the mock knows. */
  arrivedAt: number;
}

/**
 * Hands a request from Node to the mock and writes its answer as it is: the one behaviour of the
 * Node hosts (serveNode, and the fastify adapter). The body is read only when the mock asks, as
 * far as one byte past the limit; a `reset` rule gets a TCP reset; a client that leaves while its
 * answer is held is noticed; whatever fails, the client gets an Error body. An answer the mock
 * gives at once is written at once (its body at the end of the turn, with a `batch`): nothing is
 * returned then, a promise otherwise.
 */
export function answerRaw(core: Pick<NodeAnswerer, 'answerNow'>, { req, res, ip, arrivedAt }: RawExchange, options: HostOptions): Promise<void> | undefined {
  const { bodyLimit } = options;
  const gone = new ClientLeft(req, res);
  // Read from the raw lines, once: Node's own `req.headers` is never built.
  const headers = joinedHeaders(req.rawHeaders);
  let answer: Awaitable<CoreAnswer>;
  try {
    answer = core.answerNow({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers,
      // The request is the body's stream; one without a body (bodyIsSent) has nothing to read, and no reader is made for it.
      readBody: bodyIsSent(headers) ? () => readCapped(req, bodyLimit + 1, res) : undefined,
      client: ip,
      arrivedAt,
      signal: gone,
    });
  } catch (error) {
    return void failed(req, res, gone, arrivedAt, options, error);
  }
  if (isPromise(answer)) return answer.then((given) => written(req, res, gone, arrivedAt, options, given), (error: unknown) => failed(req, res, gone, arrivedAt, options, error));
  written(req, res, gone, arrivedAt, options, answer);
  return undefined;
}

/** How a Node host hands requests over: the body limit, where errors go, and the batch its answers' bodies wait in, if any. */
export interface HostOptions {
  bodyLimit: number;
  log: HostLog;
  /** Only for a server that owns its sockets: a host inside someone else's app (fastify, Vite) ends each answer at once. */
  batch?: AnswerBatch | undefined;
}

function written(req: IncomingMessage, res: ServerResponse, gone: ClientLeft, arrivedAt: number, options: HostOptions, answer: CoreAnswer): void {
  // Answered already, by Node's own answer to a request it could not read to its end.
  if (res.destroyed || res.headersSent) return;
  gone.answered = true;
  try {
    // The head at once: what Node's own answers (nodeLevelAnswers.ts) then do on this connection
    // sees an answer under way, as it does once the answer is written.
    res.writeHead(answer.status, answer.headers);
    if (options.batch) options.batch.end(res, answer.body ?? undefined);
    else res.end(answer.body ?? undefined);
  } catch (error) {
    // An answer Node cannot write (a header it refuses) is the mock's fault: an Error body still.
    failed(req, res, gone, arrivedAt, options, error);
  }
}

function failed(req: IncomingMessage, res: ServerResponse, gone: ClientLeft, arrivedAt: number, { log, batch }: HostOptions, error: unknown): void {
  // The client went away (while its answer was held, or mid-body): no one is left to answer. A
  // connection it only half-closed is closed here: the server keeps a half-closed one open until
  // its answers are out (httpFront.ts), and this one will get none.
  if (error instanceof ClientGoneError || res.destroyed) {
    if (!res.destroyed && !res.headersSent) res.destroy();
    return;
  }
  if (error instanceof ConnectionResetError) {
    // A TCP reset where there is a socket (the client reads ECONNRESET); in process, the answer
    // is destroyed, which the adapters turn into their host's network error. The answers given
    // before it on the connection (pipelined, waiting in the batch) go out first.
    batch?.flushNow();
    const socket = req.socket as { resetAndDestroy?: () => void } | null;
    if (typeof socket?.resetAndDestroy === 'function') socket.resetAndDestroy();
    else res.destroy();
    return;
  }
  // Never a dropped connection: whatever failed, the client gets an Error body.
  log.error({ err: error }, 'unexpected error');
  if (res.headersSent) return void res.destroy();
  gone.answered = true;
  const text = JSON.stringify(new ApiError('INTERNAL_ERROR').toBody());
  // Dated on the mock's clock as every answer is (when the request arrived: the core gave no now), never Node's machine time.
  res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', date: imfFixdate(arrivedAt) }).end(text);
}

/**
 * The request's headers as the core takes them, and as fetch's Headers gives them to the MSW and
 * browser hosts: names in lower case, every repeated field joined with ", " (RFC 9110, 5.3). Node's
 * `req.headers` keeps only the first of a repeated Authorization or Content-Type, so a request with
 * two keys would be admitted here with the first and refused in a browser; from the raw lines, both
 * hosts read "Bearer a, Bearer b" and answer it alike (401).
 */
export function joinedHeaders(rawHeaders: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const had = headers[name];
    headers[name] = had === undefined ? rawHeaders[i + 1]! : `${had}, ${rawHeaders[i + 1]!}`;
  }
  return headers;
}

/**
 * Whether the client left before its answer, asked only by an answer a fault rule holds: a class
 * (one shape, its accessor on the prototype), and no listener until one is asked for; a listener on
 * every response, or an AbortController each, costs a third of the server's throughput. A client
 * that gives up closes its side of the connection: its FIN ends the socket's reading side, which
 * is all a server sees of it (one that only half-closes looks the same, and is taken as gone too).
 */
class ClientLeft implements ClientSignal {
  /** Set once the core's answer is written: what happens to the connection after is not the client leaving. */
  answered = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {}

  /** Its connection closed or its FIN came, or something else answered it (Node, for a body it could not read), before the core did. */
  get aborted(): boolean {
    return !this.answered && (this.res.destroyed || this.res.headersSent || this.req.socket?.readableEnded === true);
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    const { req, res } = this;
    // The connection's, not the response's: a pipelined answer waiting its turn has no socket yet.
    const socket = req.socket;
    const left = () => {
      // Off the connection once decided: a keep-alive connection serves many requests.
      socket?.off('end', left);
      res.off('close', left);
      res.off('finish', left);
      if (!this.answered) listener();
    };
    res.on('close', left);
    res.on('finish', left);
    socket?.on('end', left);
  }
}

/**
 * The request body, read up to `cap` bytes: one byte past the body limit tells the core it is too
 * large. The rest of a body that large is read and dropped, not kept, and the connection closes
 * once answered rather than read a body it was refused.
 */
function readCapped(stream: Readable, cap: number, res: ServerResponse): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // The bytes read, as a plain Uint8Array over the joined chunks (no second copy).
    const read = () => {
      const joined = Buffer.concat(chunks, size);
      return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
    };
    const onData = (chunk: Buffer) => {
      const room = cap - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= cap) {
        stream.off('data', onData);
        stream.off('end', onEnd);
        res.shouldKeepAlive = false;
        stream.resume();
        resolve(read());
      }
    };
    const onEnd = () => resolve(read());
    // Cut short: the client closed the connection, or Node answered for a body it could not read
    // (a bad chunk, a timeout) and the body never ends. Listened to with `on`, not `once`: each
    // fires once at most, and a promise settles once, so no wrapper is made per request.
    const onCut = () => {
      if (!stream.readableEnded && size < cap) reject(new ClientGoneError(res.headersSent ? 'The request body was cut short and answered by the server itself.' : 'The client closed the connection before the end of its request body.'));
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', reject);
    stream.on('close', onCut);
    res.on('finish', onCut);
  });
}
