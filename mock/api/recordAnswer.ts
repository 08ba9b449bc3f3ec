import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientFacts } from '../clientReport/clientFacts.ts';
import { isPromise } from '../state/awaitable.ts';
import { MAX_RUN_ID } from '../state/requestLog.ts';
import type { StateParts } from '../state/stateParts.ts';
import type { AccessLog } from './accessLog.ts';
import './faultPlugin.ts';

/**
 * The run a request belongs to: the conformance suite sends `X-Conformance-Run-Id` on every
 * request, so one run can be found in a mock many clients share. Cut to a bounded length (a header
 * may be 16 KiB); repeated headers arrive joined by Node, and are kept as one value.
 */
export function runIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-conformance-run-id'];
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (value === undefined || value === '') return undefined;
  return value.length > MAX_RUN_ID ? value.slice(0, MAX_RUN_ID) : value;
}

/**
 * Puts an answered request in the request log (`GET /__mock/requests`) and the access log, with
 * the client's address (`request.ip`: X-Forwarded-For's with --trust-proxy, as the rate limit
 * counts it), its run id and the fault rule that took it, if one did. The answer is out already:
 * nothing waits, and a request log that could not record it says so. `status` is 0 for a request
 * given no answer (a fault rule reset its connection), as a browser reports a network error.
 */
export function recordAnswer(state: Pick<StateParts, 'clock' | 'log'>, accessLog: AccessLog | undefined, request: FastifyRequest, reply: FastifyReply, key: string | null, status = reply.statusCode): void {
  // Undefined only when the socket is gone before the answer is recorded.
  const client = request.ip as string | undefined;
  const runId = runIdOf(request);
  // Undefined outside the API's context, where no rule applies.
  const fault = request.fault?.id;
  const added = state.log.add({
    at: state.clock.now(), method: request.method, url: request.url, status, key, ms: Math.round(reply.elapsedTime * 10) / 10,
    ...(client === undefined ? {} : { client }),
    ...(runId === undefined ? {} : { runId }),
    ...(fault === undefined ? {} : { fault }),
    grade: clientFacts(request, reply, key),
  });
  if (isPromise(added)) added.catch((error: Error) => request.log.warn({ err: error }, 'could not record the request'));
  accessLog?.record(request, reply, client, runId, { status, fault });
}
