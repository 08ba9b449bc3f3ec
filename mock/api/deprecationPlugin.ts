import type { FastifyPluginAsync, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import './routeConfig.ts';
import { defaultDeprecatedSince, deprecationMarks } from '../core/deprecationMarks.ts';

export interface DeprecationOptions {
  spec: LoadedSpec;
  deprecatedSince?: Date;
}

/** Marks every answer of a deprecated operation (deprecationMarks). */
const deprecation: FastifyPluginAsync<DeprecationOptions> = async (app, { spec, deprecatedSince = defaultDeprecatedSince }) => {
  const headers = deprecationMarks(spec, deprecatedSince);
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
