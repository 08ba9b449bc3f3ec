import type { IncomingMessage } from 'node:http';

/**
 * The address of the socket a request came on: the client's, where no proxy stands in front to be
 * believed (clientAddress.ts reads X-Forwarded-For on top of it). 127.0.0.1 for a request with no
 * socket address (one made in process), as `inject()` gives.
 */
export function socketAddress(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? '127.0.0.1';
}
