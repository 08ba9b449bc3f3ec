import type { FastifyPluginAsync, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import './routeConfig.ts';

export interface DeprecationOptions {
  spec: LoadedSpec;
  /**
   * Since when deprecated operations are deprecated. The contract says getPet is deprecated
   * but not since when, so the mock states 1 January 2026.
   */
  deprecatedSince?: Date;
}

/**
 * Marks every answer of a deprecated operation: `Deprecation` (RFC 9745, a Structured Field Date)
 * and, where the document gives a removal date in `x-sunset`, `Sunset` (RFC 8594, an HTTP-date).
 */
const deprecation: FastifyPluginAsync<DeprecationOptions> = async (app, { spec, deprecatedSince = new Date(Date.UTC(2026, 0, 1)) }) => {
  const headers = new Map<string, Record<string, string>>();
  for (const op of spec.operations) {
    if (!op.operation.deprecated) continue;
    const marks: Record<string, string> = { deprecation: `@${Math.floor(deprecatedSince.getTime() / 1000)}` };
    const sunset = (op.operation as { 'x-sunset'?: string })['x-sunset'];
    if (sunset) marks.sunset = new Date(`${sunset}T00:00:00Z`).toUTCString();
    headers.set(op.operationId, marks);
  }
  // A hook on the deprecated routes alone: the others pay nothing for it.
  app.addHook('onRoute', (route) => {
    const marks = headers.get(route.config?.operationId ?? '');
    if (!marks) return;
    const mark: onSendHookHandler = (_request, reply, payload, done) => {
      reply.headers(marks);
      done(null, payload);
    };
    route.onSend = [...(Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : []), mark];
  });
};

export const deprecationPlugin = fp(deprecation, { name: 'deprecation' });
