import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { MockCore } from '../core/createMockCore.ts';
import { answerRaw } from './answerRaw.ts';
import { bodyStreamOf } from './serveNode.ts';

/**
 * fastify as a thin host of the framework-free core: every request, on any path and with any
 * method, goes to `core.handle` as plain data (method, URL, headers, body bytes, the client's
 * address), and its answer is written as it is (answerRaw.ts). fastify keeps what a Node server
 * needs (the connection, `inject()` for tests); the core decides
 * everything the client sees, as it does for MSW and the browser. The `pets-mock` server hands
 * requests to the same answerRaw without fastify's request lifecycle (serveNode.ts).
 */
export function serveCore(app: FastifyInstance, core: MockCore, { bodyLimit, clientAddress }: { bodyLimit: number; clientAddress: (req: IncomingMessage) => string }): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  // Bodies reach the core as bytes, whatever their type: the core says which it refuses (415), in
  // its own order (after the key and the rate limit), and how large is too large (413).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // Stamped before anything is awaited: requests a client sent together stay together.
    const arrivedAfter = core.arrival();
    reply.hijack();
    // The body by the hosts' one rule (bodyStreamOf), not by fastify's, which parses a DELETE that
    // has a Content-Type and no body: the raw request is the stream, which fastify's pass-through
    // parser has not read.
    await answerRaw(core, { req: request.raw, res: reply.raw, ip: clientAddress(request.raw), body: bodyStreamOf(request.raw), arrivedAfter }, { bodyLimit, log: app.log });
  };

  app.route({ method: app.supportedMethods, url: '/*', handler });
  // What fastify itself would refuse before the route (a malformed Content-Type, a QUERY without
  // one) goes to the core too: its answer, in its order (the key first), with its headers.
  app.setErrorHandler((_error, request, reply) => handler(request, reply));
  // Methods no route can carry (PROPFIND on a path of the API is still a 405 with Allow).
  app.setNotFoundHandler(handler);
  return handler;
}
