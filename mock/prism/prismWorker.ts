// Prism in a worker thread: loading @stoplight/prism-http takes seconds of CPU, which on the main
// thread would stall every request in flight. Here it loads beside the server, and answers one
// operation at a time as the main thread asks (prismResponder.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { IHttpOperationConfig, IHttpRequest } from '@stoplight/prism-http';
import { pino } from 'pino';
import type { OpenAPIV3 } from 'openapi-types';

export interface PrismWorkerData {
  document: OpenAPIV3.Document;
  logLevel: string;
}

export interface PrismQuery {
  id: number;
  method: string;
  path: string;
  mock: Partial<IHttpOperationConfig>;
}

export type PrismReply =
  | { id: number; ok: true; status: number; headers: Record<string, string>; body: unknown }
  | { id: number; ok: false; message: string };

const { document, logLevel } = workerData as PrismWorkerData;
const { createInstance, getHttpOperationsFromSpec } = await import('@stoplight/prism-http');
const operations = await getHttpOperationsFromSpec(document);
// Prism 5.12 logs with a `success` level that plain pino does not have. Its lines are about its
// own routing, which the mock does not use: only warnings and errors are shown, and at debug.
const logger = pino({ customLevels: { success: 11 }, level: logLevel === 'debug' || logLevel === 'trace' ? logLevel : 'warn', base: { component: 'prism' } });
const config = { isProxy: false, mock: { dynamic: false }, checkSecurity: false, validateRequest: false, validateResponse: false, errors: false, upstreamProxy: undefined } as const;
const prism = createInstance(config, { logger: logger as never });

parentPort!.on('message', (query: PrismQuery) => {
  // Prism is asked for the operation, not handed the client's request: the mock has already
  // routed, authenticated and validated it, and Prism's own routing and content negotiation
  // would only add ways to fail (a trailing slash, an Accept without JSON).
  const request: IHttpRequest = { method: query.method as IHttpRequest['method'], url: { path: query.path }, headers: {} };
  prism.request(request, operations, { ...config, mock: { dynamic: false, ...query.mock } })().then(
    (result) => {
      if (result._tag === 'Left') return parentPort!.postMessage({ id: query.id, ok: false, message: result.left.message } satisfies PrismReply);
      const { statusCode, headers, body } = result.right.output;
      parentPort!.postMessage({ id: query.id, ok: true, status: statusCode, headers: (headers ?? {}) as Record<string, string>, body } satisfies PrismReply);
    },
    (error: Error) => parentPort!.postMessage({ id: query.id, ok: false, message: error.message } satisfies PrismReply),
  );
});
parentPort!.postMessage({ ready: true });
