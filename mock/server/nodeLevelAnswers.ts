import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { rateHeaders } from '../rateLimits/refusals.ts';
import { peekRate, type ClientIdentity } from '../rateLimits/peekRate.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { whenReady } from '../state/awaitable.ts';
import type { StateParts } from '../state/stateParts.ts';
import { imfFixdate } from '../core/dateField.ts';

/**
 * Answers that Node's HTTP layer would otherwise write on its own (an empty 400, 408, 417 or 431,
 * or nothing at all for CONNECT), written here as the contract's Error, with `Connection: close`
 * and, where the client can be identified (its address; its key once headers were read), the
 * X-RateLimit-* headers of its bucket.
 */
/**
 * Answers with the client's rate-limit headers, when they can be had (with none rather than not at
 * all), and the Date of the mock's clock (RFC 9110, 6.6.1), as the mock's own answers carry it.
 */
function withRateHeaders(identity: ClientIdentity, state: StateParts, answer: (headers: Record<string, string>) => void): void {
  const dated = (headers: Record<string, string>) => answer({ ...headers, date: imfFixdate(state.clock.now()) });
  try {
    whenReady(peekRate(identity, state), (decision) => dated(rateHeaders(decision)), () => dated({}));
  } catch {
    dated({});
  }
}

/** What Node's own answers need of the app serving now: its state (the client's rate-limit headers), and its 405s. */
export interface NodeLevelContext {
  state(): StateParts;
  /** The 405 the mock gives `method` on a request target (pipeline/route.ts: the one source of 405s). */
  methodNotAllowed(method: string, url: string): ApiError;
  /** The client's address as the mock reads it (adapters/clientAddress.ts, by --trust-proxy): whose rate-limit headers Node's answers carry. */
  clientAddress(req: IncomingMessage): string;
}

export function installNodeLevelAnswers(server: Server, current: NodeLevelContext): void {
  const currentState = () => current.state();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A peer that reset the connection, or a socket already closing, cannot be answered.
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    // A response to a request read before the error is already on its way (a GET whose
    // Transfer-Encoding the parser refused only after dispatching it): a second answer on the
    // same connection would be read as the answer to a request the client never sent. Let the
    // first finish, then close.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    // The parser failed inside the body of a request already dispatched (a bad chunk size): the
    // route waits for a body that will never come, and nothing would answer. Answer for it, and close.
    const request = (inFlight as (ServerResponse & { req?: IncomingMessage }) | null | undefined)?.req;
    if (inFlight && request && !request.complete && !inFlight.headersSent) {
      return void withRateHeaders(identityOf(request, current.clientAddress), currentState(), (headers) => writeResponse(inFlight, clientErrorAnswer(error, current), headers));
    }
    if (inFlight && !inFlight.writableEnded) {
      inFlight.shouldKeepAlive = false;
      inFlight.once('finish', () => socket.end());
      return;
    }
    if (inFlight) return void socket.end();
    const address = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? '';
    withRateHeaders({ headers: {}, ip: address }, currentState(), (headers) => writeRaw(socket, clientErrorAnswer(error, current), headers));
  });

  // `Expect` other than 100-continue (RFC 9110, 10.1.1): 417, as an Error.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const error = new ApiError('EXPECTATION_FAILED', `The mock does not do "Expect: ${request.headers.expect}". Send "Expect: 100-continue" or no Expect header.`);
    withRateHeaders(identityOf(request, current.clientAddress), currentState(), (headers) => writeResponse(response, error, headers));
    request.resume();
  });

  // CONNECT asks the mock to be a proxy, which it is not (RFC 9110, 9.3.6): its target names no
  // resource of the mock, so Allow lists what the API serves (the one source of 405s).
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const error = current.methodNotAllowed('CONNECT', request.url ?? '*');
    withRateHeaders(identityOf(request, current.clientAddress), currentState(), (headers) => writeRaw(socket, error, headers));
  });
}

function identityOf(request: IncomingMessage, clientAddress: (req: IncomingMessage) => string): ClientIdentity {
  const authorization = request.headers.authorization;
  return { headers: typeof authorization === 'string' ? { authorization } : {}, ip: clientAddress(request) };
}

/** The catalogue error for what Node's parser refused. */
function clientErrorAnswer(error: NodeJS.ErrnoException, current: Pick<NodeLevelContext, 'methodNotAllowed'>): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('HEADERS_TOO_LARGE');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return new ApiError('REQUEST_TIMEOUT');
    case 'HPE_INVALID_METHOD': {
      // A well-formed request line with a method no one knows is 405, with the Allow of its path as
      // the core answers a method the path does not serve; a line that is not one is 400.
      const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.[01]\r?\n/.exec((error as { rawPacket?: Buffer }).rawPacket?.toString('latin1') ?? '');
      if (!line) break;
      return current.methodNotAllowed(line[1]!, line[2]!);
    }
    default:
      break;
  }
  return new ApiError('BAD_REQUEST', `The request is not valid HTTP/1.1 (${error.code ?? error.message}). Check the request line and headers.`);
}

/** An Error answer written straight to the socket, for requests Node never turned into one. */
function writeRaw(socket: Duplex, error: ApiError, extra: Record<string, string>): void {
  const body = JSON.stringify(error.toBody());
  const headers = { ...extra, ...error.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode]}\r\n${head}\r\n${body}`);
}

/** An Error answer on a response Node created but fastify will not see. */
function writeResponse(response: ServerResponse, error: ApiError, extra: Record<string, string>): void {
  const body = JSON.stringify(error.toBody());
  response.shouldKeepAlive = false;
  response.writeHead(error.statusCode, { ...extra, ...error.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.end(body);
}

/** Whether the raw header lines name a Host: read from them, so Node's own `req.headers` is never built for it. */
function hasHost(rawHeaders: readonly string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') return true;
  }
  return false;
}

/** A request Node accepted that the mock must not answer: HTTP/1.1 without Host (RFC 9112, 3.2). */
export function refuseWithoutHost(request: IncomingMessage, response: ServerResponse, current: Pick<NodeLevelContext, 'state' | 'clientAddress'>): boolean {
  if (request.httpVersion !== '1.1' || hasHost(request.rawHeaders)) return false;
  const error = new ApiError('BAD_REQUEST', 'The request has no Host header, which HTTP/1.1 requires. Send "Host: <host>:<port>".');
  withRateHeaders(identityOf(request, current.clientAddress), current.state(), (headers) => writeResponse(response, error, headers));
  request.resume();
  return true;
}
