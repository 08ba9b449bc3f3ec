import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { StateParts } from '../state/stateParts.ts';
import type { ApiError } from '../errors/errorCatalogue.ts';
import { lingerOnClose } from './lingeringClose.ts';
import { installNodeLevelAnswers, refuseWithoutHost } from './nodeLevelAnswers.ts';

export interface HttpFrontOptions {
  port: number;
  host: string;
  /** Node's HTTP timeouts: a request's headers, and the whole request, must arrive within these (408 otherwise). */
  headersTimeoutMs?: number | undefined;
  requestTimeoutMs?: number | undefined;
  /** How often Node checks those timeouts. Default: every second. */
  timeoutCheckIntervalMs?: number | undefined;
  /** Hands a request to the app serving now (a reload swaps it). */
  route(req: IncomingMessage, res: ServerResponse): void;
  /** The state serving now: what Node's own answers say of the client's rate limit. */
  state(): StateParts;
  /** The 405 the core serving now gives a method on a URL's path (NodeLevelContext). */
  methodNotAllowed(method: string, url: string): ApiError;
  /** The client's address, as the route reads it (adapters/clientAddress.ts): its bucket in Node's own answers too. */
  clientAddress(req: IncomingMessage): string;
}

/** The mock's listening socket: where it is, and its shutdown. */
export interface HttpFront {
  /** `http://host:port`. */
  origin: string;
  /**
   * Stops accepting, closes idle keep-alive connections at once, answers requests in flight with
   * `Connection: close`, and cuts what is still open after `graceMs`.
   */
  close(graceMs: number): Promise<void>;
  /** Cuts every connection now (a second signal): close() then finishes without waiting. */
  forceClose(): void;
}

/**
 * Node's HTTP server in front of the app: a missing Host and what Node's parser refuses on its own
 * (400, 408, 413, 431) answered as the contract's Error, connections closed as RFC 9112 asks, and
 * a graceful shutdown.
 */
export async function startHttpFront(options: HttpFrontOptions): Promise<HttpFront> {
  let shuttingDown = false;
  // Connections, tracked once each (not per request): at shutdown their in-flight responses get
  // `Connection: close` (Node's `_httpMessage` is the response a socket is writing).
  const sockets = new Set<Socket>();
  /** During shutdown: the answer closes its connection, and a connection gone idle is closed at once. */
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
    res.once('close', () => setImmediate(() => server.closeIdleConnections()));
  };
  const server = createServer({
    // A missing Host is answered below as an Error (refuseWithoutHost), not by Node's empty 400.
    requireHostHeader: false,
    connectionsCheckingInterval: options.timeoutCheckIntervalMs ?? 1000,
    headersTimeout: options.headersTimeoutMs ?? 60_000,
    requestTimeout: options.requestTimeoutMs ?? 300_000,
  }, (req, res) => {
    if (refuseWithoutHost(req, res, options)) return;
    if (shuttingDown) closeAfter(res);
    options.route(req, res);
  });
  // A client that half-closes after its requests (a FIN: it has nothing more to send, RFC 9293,
  // 3.6) still gets its answers, and then the connection closes. Node's default ends it at once,
  // losing answers not yet written: delayed, or waiting for the end of the turn (AnswerBatch).
  // An answer a stall rule holds is let go on a FIN all the same (ClientLeft, nodeHttp.ts): a
  // client that gives up sends one too. Node's own switch (its socketOnEnd), in Node 20 to 24,
  // though not in its types.
  (server as typeof server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // Longer than the idle timeouts of common load balancers (60 s), so they never reuse a closed connection.
  server.keepAliveTimeout = 72_000;
  installNodeLevelAnswers(server, options);
  server.on('connection', (socket: Socket) => {
    lingerOnClose(socket);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolveListen());
  }).catch((error: Error) => {
    throw new Error(`Cannot listen on ${options.host}:${options.port}: ${error.message}. Give another --port (0 picks a free one).`);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let cutAll = () => server.closeAllConnections();
  return {
    origin: `http://${host}:${address.port}`,
    forceClose: () => cutAll(),
    async close(graceMs) {
      shuttingDown = true;
      for (const socket of sockets) {
        const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
        if (res && !res.writableFinished) closeAfter(res);
      }
      const closed = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      server.closeIdleConnections();
      // A connection that has not sent a byte has no request in flight, but Node does not count it
      // as idle (its headers timer runs): it would hold the shutdown for the whole grace period.
      for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
      const grace = setTimeout(() => server.closeAllConnections(), graceMs);
      cutAll = () => {
        clearTimeout(grace);
        server.closeAllConnections();
      };
      await closed;
      clearTimeout(grace);
    },
  };
}
