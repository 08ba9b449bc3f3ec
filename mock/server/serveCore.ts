import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { ServerResponse } from 'node:http';
import { ClientGoneError, ConnectionResetError, type ClientSignal } from '../core/coreTypes.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import type { MockCore } from '../core/createMockCore.ts';

/**
 * fastify as a thin host of the framework-free core: every request, on any path and with any
 * method, goes to `core.handle` as plain data (method, URL, headers, body bytes, the client's
 * address), and its answer is written as it is. fastify keeps what a Node server needs (the
 * connection, `trustProxy`'s client address, `inject()` for tests); the core decides everything
 * the client sees, as it does for MSW and the browser.
 */
export function serveCore(app: FastifyInstance, core: MockCore, { bodyLimit }: { bodyLimit: number }): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  // Bodies reach the core as bytes, whatever their type: the core says which it refuses (415), in
  // its own order (after the key and the rate limit), and how large is too large (413).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // Stamped before anything is awaited: requests a client sent together stay together.
    const arrivedAfter = (request.raw as { arrivedAfter?: number }).arrivedAfter ?? core.arrival();
    reply.hijack();
    const res = reply.raw;
    // Read only when the core asks, once the request is admitted and routed, as far as one byte past the limit.
    const readBody = () => readCapped(request.body as Readable | undefined, bodyLimit + 1, res);
    const gone = new ClientLeft(res);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    try {
      const answer = await core.handle({ method: request.method, url: request.url, headers, readBody, client: request.ip, arrivedAfter, signal: gone });
      // Answered already, by Node's own answer to a request it could not read to its end.
      if (res.destroyed || res.headersSent) return;
      gone.answered = true;
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? undefined);
    } catch (error) {
      // The client went away (while its answer was held, or mid-body): no one is left to answer.
      if (error instanceof ClientGoneError || res.destroyed) return;
      if (error instanceof ConnectionResetError) {
        // A TCP reset where there is a socket (the client reads ECONNRESET); in process, the answer
        // is destroyed, which the adapters turn into their host's network error.
        const socket = request.raw.socket as { resetAndDestroy?: () => void } | null;
        if (typeof socket?.resetAndDestroy === 'function') socket.resetAndDestroy();
        else res.destroy();
        return;
      }
      // Never a dropped connection: whatever failed, the client gets an Error body.
      app.log.error({ err: error }, 'unexpected error');
      if (res.headersSent) return void res.destroy();
      gone.answered = true;
      const body = JSON.stringify(new ApiError('INTERNAL_ERROR').toBody());
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    }
  };

  app.route({ method: app.supportedMethods, url: '/*', handler });
  // What fastify itself would refuse before the route (a malformed Content-Type, a QUERY without
  // one) goes to the core too: its answer, in its order (the key first), with its headers.
  app.setErrorHandler((_error, request, reply) => handler(request, reply));
  // Methods no route can carry (PROPFIND on a path of the API is still a 405 with Allow).
  app.setNotFoundHandler(handler);
  return handler;
}

/**
 * Whether the client left before its answer, asked only by an answer a fault rule holds: a class
 * (one shape, its accessor on the prototype), and no listener until one is asked for; a listener on
 * every response, or an AbortController each, costs a third of the server's throughput.
 */
class ClientLeft implements ClientSignal {
  /** Set once the core's answer is written: what happens to the connection after is not the client leaving. */
  answered = false;

  constructor(private readonly res: ServerResponse) {}

  /** Its connection closed, or something else answered it (Node, for a body it could not read), before the core did. */
  get aborted(): boolean {
    return !this.answered && (this.res.destroyed || this.res.headersSent);
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    const res = this.res;
    const left = () => {
      if (!this.answered) listener();
    };
    res.once('close', left);
    res.once('finish', left);
  }
}

/**
 * The request body, read up to `cap` bytes: one byte past the body limit tells the core it is too
 * large. The rest of a body that large is read and dropped, not kept, and the connection closes
 * once answered rather than read a body it was refused.
 */
function readCapped(stream: Readable | undefined, cap: number, res: ServerResponse): Promise<Uint8Array | undefined> {
  if (stream === undefined) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      const room = cap - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= cap) {
        stream.off('data', onData);
        stream.off('end', onEnd);
        res.shouldKeepAlive = false;
        stream.resume();
        resolve(new Uint8Array(Buffer.concat(chunks)));
      }
    };
    const onEnd = () => resolve(new Uint8Array(Buffer.concat(chunks)));
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', reject);
    stream.once('close', () => {
      if (!stream.readableEnded && size < cap) reject(new ClientGoneError('The client closed the connection before the end of its request body.'));
    });
    // Node answered for a body it could not read (a bad chunk, a timeout): the body never ends.
    res.once('finish', () => {
      if (!stream.readableEnded && size < cap) reject(new ClientGoneError('The request body was cut short and answered by the server itself.'));
    });
  });
}
