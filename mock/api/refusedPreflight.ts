import type { FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import { LogThrottle } from './logThrottle.ts';

/** A CORS preflight the mock answered without allowing its origin: the browser will not send the request. */
export function isRefusedPreflight(request: FastifyRequest, reply: FastifyReply): boolean {
  return request.method === 'OPTIONS'
    && typeof request.headers.origin === 'string'
    && request.headers['access-control-request-method'] !== undefined
    && !reply.hasHeader('access-control-allow-origin');
}

/**
 * Warns of a refused preflight with the origin and the origins that are allowed: the page only
 * shows a CORS error in its console, and the access-log line of a refused preflight (204) reads
 * like an allowed one's but for its `cors=refused`. Once a minute per origin, so a page retrying
 * in a loop does not fill the log.
 */
export function logRefusedPreflight(allowed: readonly string[]): onResponseHookHandler {
  const throttle = new LogThrottle();
  return (request, reply, done) => {
    if (isRefusedPreflight(request, reply)) {
      const origin = request.headers.origin as string;
      if (throttle.fresh([origin]).length > 0) {
        const path = request.url.split('?')[0];
        request.log.warn({ cors: 'refused', origin, allowed }, `CORS preflight refused: ${request.headers['access-control-request-method']} ${path} from the origin ${origin}, which is not allowed (allowed: ${allowed.join(', ')}), so the browser will not send the request. Add the origin with --cors-origin (corsOrigins), or give * for any. Logged once a minute per origin.`);
      }
    }
    done();
  };
}
