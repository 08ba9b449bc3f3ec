import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactKey } from './keyRing.ts';
import { parseAuthorization } from './parseAuthorization.ts';

/**
 * One log line per request, when it completes, through fastify's logger. The API key is
 * redacted (its first characters and length), and the headers are not logged at all.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const credentials = parseAuthorization(request.headers.authorization);
    const line = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      key: credentials.kind === 'bearer' ? redactKey(credentials.token) : credentials.kind,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.info(line, 'request');
  }
}
