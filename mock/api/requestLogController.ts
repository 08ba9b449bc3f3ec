import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactKey } from '../state/keyRing.ts';
import { parseAuthorization } from './parseAuthorization.ts';

/** The key of a request the guard did not accept, redacted, or what kind of header it had. */
function keyLabel(header: string | undefined): string {
  const credentials = parseAuthorization(header);
  return credentials.kind === 'bearer' ? redactKey(credentials.token) : credentials.kind;
}

/**
 * One log line per request, when it completes, through fastify's logger. The API key is
 * redacted (its first characters and length), and the headers are not logged at all.
 *
 * The line is logged at `debug`: a line per request costs the mock about a third of its
 * throughput (docs/performance.md), so `--log-level debug` turns it on. Failures are logged at
 * `error` whatever the level.
 */
export class RequestLogController extends LogController {
  constructor(private readonly linePerRequest: boolean) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && !this.linePerRequest) return;
    const line = {
      method: request.method,
      // The control API takes keys in its paths (PUT /__mock/keys/{key}): never log one whole.
      url: request.url.replace(/^(\/__mock\/keys\/)([^/?]+)/, (_, route: string, key: string) => `${route}${redactKey(decodeURIComponent(key))}`),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      key: request.apiKey?.label ?? keyLabel(request.headers.authorization),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.debug(line, 'request');
  }
}
