import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactKey } from '../state/keyRing.ts';
import { keyLabel } from './accessLog.ts';

/**
 * fastify's own per-request logging, reduced to failures: the access log (accessLog.ts) already
 * prints a line per API request, more cheaply. The API key is redacted, and the headers are not
 * logged at all.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error) return;
    const line = {
      method: request.method,
      // The control API takes keys in its paths (PUT /__mock/keys/{key}): never log one whole.
      url: request.url.replace(/^(\/__mock\/keys\/)([^/?]+)/, (_, route: string, key: string) => `${route}${redactKey(key)}`),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      key: keyLabel(request.headers.authorization),
    };
    reply.log.error({ ...line, err: error }, 'request failed');
  }
}
