import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errorCatalogue } from '../errors/errorCatalogue.ts';
import { MockAddress } from './mockAddress.ts';
import { openInProcessMock, type PetsMockOptions, type PlainResponse } from './inProcessMock.ts';
import type { PetsMockHost } from './petsMockHost.ts';
import { answerRaw } from './nodeHttp.ts';
import { socketAddress } from './socketAddress.ts';
import type { CoreRequest } from '../core/coreTypes.ts';

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
 * its paths with exactly what the HTTP server would answer, handed over as the pets-mock server
 * hands them (answerRaw): its body read only when the mock asks, up to one byte past the body
 * limit (an oversized one gets the mock's own 413), the client address read from the socket.
 * Other requests go to `next()`.
 */
export function petsMockMiddleware(options: PetsMockMiddlewareOptions): PetsMockMiddleware {
  const { basePath, configuredIn, log, ...coreOptions } = options;
  const address = new MockAddress(`${anyOrigin}${basePath}`);
  const control = coreOptions.control !== false;
  const where = `${address.basePath}${control ? `, its control API at ${address.controlPath}` : ''}`;
  const hostLog = { error: (fields: { err?: unknown }, message: string) => log?.error(`pets mock: ${message}: ${(fields.err as Error | undefined)?.message ?? ''}`) };
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
    void answer(req, res);
  };

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    // When it arrived, on the mock's clock, before anything is awaited: when the client sent it, as near as the mock knows (client report).
    const arrivedAt = built?.arrival();
    let host: PetsMockHost;
    try {
      host = await mockFor(method, req.url!);
    } catch (error) {
      return write(res, internalError(error as ApiError));
    }
    // The mock's answer whole, and nothing else: headers the server's earlier middlewares set (Vite's
    // CORS adds `Vary: Origin` and its own Access-Control-*) would make it differ from the HTTP server's,
    // and the mock's CORS (its `corsOrigins`) is the one that exposes the rate-limit headers.
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    // As the pets-mock server hands a request over (answerRaw): one body reader, one client address.
    const answerer = { answerNow: (request: CoreRequest) => host.answer({ ...request, headers: withoutPseudoHeaders(request.headers) }) };
    await answerRaw(answerer, { req, res, ip: socketAddress(req), arrivedAt: arrivedAt ?? host.arrival() }, { bodyLimit: host.bodyLimit, log: hostLog });
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

/** HTTP/2's pseudo-headers are no fields (RFC 9113, 8.3): left out, `:authority` kept as Host. */
function withoutPseudoHeaders(headers: Record<string, string>): Record<string, string> {
  const authority = headers[':authority'];
  if (authority === undefined && !Object.keys(headers).some((name) => name.startsWith(':'))) return headers;
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!name.startsWith(':')) fields[name] = value;
  if (fields.host === undefined && authority !== undefined) fields.host = authority;
  return fields;
}

function write(res: ServerResponse, answer: PlainResponse): void {
  if (res.writableEnded || res.destroyed) return;
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(answer.status, answer.headers).end(answer.body ? Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength) : undefined);
}

function internalError(error: ApiError): PlainResponse {
  return {
    status: error.statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...error.headers },
    body: new TextEncoder().encode(JSON.stringify(error.toBody())) as Uint8Array<ArrayBuffer>,
  };
}
