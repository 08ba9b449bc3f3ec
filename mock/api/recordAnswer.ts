import type { FastifyReply, FastifyRequest } from 'fastify';
import { isPromise } from '../state/awaitable.ts';
import type { StateParts } from '../state/stateParts.ts';
import type { AccessLog } from './accessLog.ts';

/**
 * Puts an answered request in the request log (`GET /__mock/requests`) and the access log. The
 * answer is out already: nothing waits, and a request log that could not record it says so.
 */
export function recordAnswer(state: Pick<StateParts, 'clock' | 'log'>, accessLog: AccessLog | undefined, request: FastifyRequest, reply: FastifyReply, key: string | null): void {
  const added = state.log.add({ at: state.clock.now(), method: request.method, url: request.url, status: reply.statusCode, key, ms: Math.round(reply.elapsedTime * 10) / 10 });
  if (isPromise(added)) added.catch((error: Error) => request.log.warn({ err: error }, 'could not record the request'));
  accessLog?.record(request, reply);
}
