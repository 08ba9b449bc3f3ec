import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import type { MockCore } from '../core/createMockCore.ts';
import type { TrustProxy } from './parseTrustProxy.ts';
import { answerRaw } from './answerRaw.ts';
import { bodyIsSent } from '../core/readRequest.ts';

/** The body's stream when the request has a body (bodyIsSent): the request itself. */
export function bodyStreamOf(req: IncomingMessage): Readable | undefined {
  return bodyIsSent(req.headers) ? req : undefined;
}

/** The client's address, for both hosts: the socket's, or X-Forwarded-For's as far as the trusted proxies go (proxy-addr, as fastify's `trustProxy` reads it). */
export function clientAddressOf(trust: TrustProxy | undefined): (req: IncomingMessage) => string {
  if (trust === undefined) return (req) => req.socket.remoteAddress ?? '127.0.0.1';
  const trusted = typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : proxyAddr.compile(trust);
  return (req) => proxyAddr(req, trusted);
}

/**
 * The `pets-mock` server's host: Node's request handed to the core (answerRaw.ts) with what
 * fastify's host gives it (the client's address, the body's stream), without fastify's
 * request lifecycle, which costs a fifth of the server's throughput (docs/performance.md). The
 * answers are the fastify host's; `serveNode.test.ts` holds the two alike on real sockets.
 */
export function serveNode(core: MockCore, { bodyLimit, clientAddress, log }: { bodyLimit: number; clientAddress: (req: IncomingMessage) => string; log: { error(fields: object, message: string): void } }): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const arrivedAfter = core.arrival();
    void answerRaw(core, { req, res, ip: clientAddress(req), body: bodyStreamOf(req), arrivedAfter }, { bodyLimit, log });
  };
}
