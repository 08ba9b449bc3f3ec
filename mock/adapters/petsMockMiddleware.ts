import type { IncomingMessage, ServerResponse } from 'node:http';
import { defaultBodyLimit } from '../core/createMockCore.ts';
import { ApiError, errorCatalogue } from '../errors/errorCatalogue.ts';
import { MockAddress } from './mockAddress.ts';
import { openInProcessMock, type PetsMockOptions, type PlainResponse } from './inProcessMock.ts';
import type { PetsMockHost } from './petsMockHost.ts';
import { isConnectionReset } from './petsMockHost.ts';
import { joinedHeaders } from './nodeHttp.ts';

/** A Connect-style middleware (Vite, Connect, Express, a bare `node:http` handler) serving one mock. */
export interface PetsMockMiddleware {
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
  /** Frees the mock (once built); requests reaching the middleware afterwards are answered 500 saying so. */
  close(): Promise<void>;
}

export interface PetsMockMiddlewareOptions extends Omit<PetsMockOptions, 'baseUrl'> {
  /** The API's path on the server, ending in `/v1` (`/api/v1`); the control API sits beside it (`/api/__mock`). */
  basePath: string;
  /** What a developer changes when the mock cannot be built, for its message: "the options of petsMock() in vite.config.ts". */
  configuredIn: string;
  /** Told when the mock has been built, or why it could not be. */
  log?: { info(message: string): void; error(message: string): void };
}

// The origin only places the mock's paths for MockAddress: the mock answers on whatever origin the
// request came to, and its Location headers are paths.
const anyOrigin = 'http://localhost';

/**
 * Builds one mock, on the first request for it, and answers, in this process, the requests under
 * its paths with exactly what the HTTP server would answer: the request's method, path, headers and
 * body bytes go through the same pipeline as the MSW and Playwright adapters'. Other requests go to
 * `next()`. The body is read up to one byte past the mock's body limit, so an oversized one gets the
 * mock's own 413 Error body without being held in memory whole.
 */
export function petsMockMiddleware(options: PetsMockMiddlewareOptions): PetsMockMiddleware {
  const { basePath, configuredIn, log, ...coreOptions } = options;
  const address = new MockAddress(`${anyOrigin}${basePath}`);
  const control = coreOptions.control !== false;
  const bodyLimit = coreOptions.bodyLimit ?? defaultBodyLimit;
  const where = `${address.basePath}${control ? `, its control API at ${address.controlPath}` : ''}`;
  // Built when first asked for, not with the server: a server no page calls (Vitest's, which loads
  // the same vite.config.ts) never pays for it, and the dev server starts as fast as without it.
  let building: Promise<PetsMockHost> | undefined;
  /** The mock once built: what stamps a request's arrival before its body is read. */
  let built: PetsMockHost | undefined;
  const build = () => {
    if (building) return building;
    building = openInProcessMock({ ...coreOptions, baseUrl: address.baseUrl });
    building.then(
      (core) => {
        built = core;
        log?.info(`pets mock: the Pet Adoption API at ${where}`);
      },
      (error: Error) => log?.error(`pets mock: could not be built, and answers 500 at ${where}: ${error.message} Fix ${configuredIn}.`),
    );
    return building;
  };
  let closing: Promise<void> | undefined;

  const middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    // A request line in absolute form (`GET http://host/path`) or `*` is a proxy's or OPTIONS' business, not a path of the mock's.
    const url = req.url?.startsWith('/') ? `${anyOrigin}${req.url}` : undefined;
    if (url === undefined || address.toMockPath(url, { control }) === undefined) return next();
    void answer(req, res, url);
  };

  async function answer(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
    const method = req.method ?? 'GET';
    // When it arrived, on the mock's clock, before the body is read: when the client sent it, as near as the mock knows (client report).
    const arrivedAt = built?.arrival();
    const body = await readBody(req, bodyLimit);
    // The client left before its body arrived: nobody to answer.
    if (body === undefined) return;
    let answer: PlainResponse;
    try {
      const core = await mockFor(method, req.url!);
      answer = await core.handle({ method, url, headers: plainHeaders(req), body: body.bytes, arrivedAt });
    } catch (error) {
      // A fault rule reset the connection: so does the server, with no answer (the client reads ECONNRESET).
      if (isConnectionReset(error)) return void req.socket.resetAndDestroy();
      answer = internalError(error instanceof ApiError ? error : new ApiError('INTERNAL_ERROR', `${errorCatalogue.INTERNAL_ERROR.message} (${(error as Error).message})`));
    }
    write(req, res, answer, body.cut);
  }

  async function mockFor(method: string, path: string): Promise<PetsMockHost> {
    if (closing) throw new ApiError('INTERNAL_ERROR', `The pets mock at ${address.basePath} was closed with its server, and ${method} ${path} still reached it. Start the server again.`);
    try {
      return await build();
    } catch (error) {
      throw new ApiError('INTERNAL_ERROR', `The pets mock at ${address.basePath} could not be built: ${(error as Error).message} Fix ${configuredIn}, then start the server again.`);
    }
  }

  return Object.assign(middleware, {
    close: () => (closing ??= building?.then((core) => core.close(), () => undefined) ?? Promise.resolve()),
  });
}

/** The request's headers as the server's host gives them (joinedHeaders: a repeated field joined); HTTP/2's pseudo-headers left out, `:authority` kept as Host. */
function plainHeaders(req: IncomingMessage): Record<string, string> {
  const headers = joinedHeaders(req.rawHeaders);
  const authority = headers[':authority'];
  for (const name of Object.keys(headers)) if (name.startsWith(':')) delete headers[name];
  if (headers.host === undefined && authority !== undefined) headers.host = authority;
  return headers;
}

/**
 * The request's body, up to one byte past `limit` (`cut` then: the rest is never read), or
 * undefined when the client went away first. Events rather than `for await`: leaving an async
 * iterator early destroys the request, and with it the socket the answer must go out on.
 */
function readBody(req: IncomingMessage, limit: number): Promise<{ bytes: Uint8Array; cut: boolean } | undefined> {
  if (req.readableEnded) return Promise.resolve({ bytes: new Uint8Array(0), cut: false });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: { bytes: Uint8Array; cut: boolean } | undefined) => {
      req.off('data', onData).off('end', onEnd).off('close', onGone).off('error', onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size > limit) {
        req.pause();
        done({ bytes: Buffer.concat(chunks), cut: true });
      }
    };
    const onEnd = () => done({ bytes: Buffer.concat(chunks), cut: false });
    const onGone = () => done(undefined);
    req.on('data', onData).once('end', onEnd).once('close', onGone).once('error', onGone);
  });
}

function write(req: IncomingMessage, res: ServerResponse, answer: PlainResponse, cut: boolean): void {
  if (res.writableEnded || res.destroyed) return;
  res.statusCode = answer.status;
  // The mock's answer whole, and nothing else: headers the server's earlier middlewares set (Vite's
  // CORS adds `Vary: Origin` and its own Access-Control-*) would make it differ from the HTTP server's,
  // and the mock's CORS (its `corsOrigins`) is the one that exposes the rate-limit headers.
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  // The rest of a body cut at the limit is never read: close the connection after the answer rather
  // than read what may be gigabytes (HTTP/2 closes a stream, not a connection, and forbids the header).
  if (cut && req.httpVersionMajor < 2) res.setHeader('connection', 'close');
  res.end(answer.body ? Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength) : undefined);
}

function internalError(error: ApiError): PlainResponse {
  return {
    status: error.statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...error.headers },
    body: new TextEncoder().encode(JSON.stringify(error.toBody())) as Uint8Array<ArrayBuffer>,
  };
}
