// Prism in a worker thread: loading @stoplight/prism-http takes seconds of CPU, which on the main
// thread would stall every request in flight. Here it loads beside the server, once per process,
// and answers operations of any number of specs as the main thread asks (prismResponder.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { IHttpOperationConfig, IHttpRequest, getHttpOperationsFromSpec as GetOperations } from '@stoplight/prism-http';
import { pino } from 'pino';
import type { OpenAPIV3 } from 'openapi-types';

export interface PrismWorkerData {
  logLevel: string;
}

export type PrismMessage =
  | { type: 'spec'; specId: number; document: OpenAPIV3.Document }
  | { type: 'forget'; specId: number }
  | { type: 'query'; id: number; specId: number; method: string; path: string; mock: Partial<IHttpOperationConfig> };

export type PrismReply =
  | { id: number; ok: true; status: number; headers: Record<string, string>; body: unknown }
  | { id: number; ok: false; message: string };

const { logLevel } = workerData as PrismWorkerData;
const { createInstance, getHttpOperationsFromSpec } = await import('@stoplight/prism-http');
// Prism 5.12 logs with a `success` level that plain pino does not have. Its lines are about its
// own routing, which the mock does not use: only warnings and errors are shown, and at debug.
const logger = pino({ customLevels: { success: 11 }, level: logLevel === 'debug' || logLevel === 'trace' ? logLevel : 'warn', base: { component: 'prism' } });
const config = { isProxy: false, mock: { dynamic: false }, checkSecurity: false, validateRequest: false, validateResponse: false, errors: false, upstreamProxy: undefined } as const;
const prism = createInstance(config, { logger: logger as never });
const specs = new Map<number, ReturnType<typeof GetOperations>>();

parentPort!.on('message', (message: PrismMessage) => {
  if (message.type === 'spec') {
    const operations = getHttpOperationsFromSpec(message.document);
    operations.catch(() => {});
    specs.set(message.specId, operations);
    return;
  }
  if (message.type === 'forget') {
    specs.delete(message.specId);
    return;
  }
  const reply = (answer: PrismReply) => parentPort!.postMessage(answer);
  const operations = specs.get(message.specId);
  if (!operations) return reply({ id: message.id, ok: false, message: 'Prism has no spec for this mock (it was closed).' });
  // Prism is asked for the operation, not handed the client's request: the mock has already
  // routed, authenticated and validated it, and Prism's own routing and content negotiation
  // would only add ways to fail (a trailing slash, an Accept without JSON).
  const request: IHttpRequest = { method: message.method as IHttpRequest['method'], url: { path: message.path }, headers: {} };
  operations
    .then((ops) => prism.request(request, ops, { ...config, mock: { dynamic: false, ...message.mock } })())
    .then(
      (result) => {
        if (result._tag === 'Left') return reply({ id: message.id, ok: false, message: result.left.message });
        const { statusCode, headers, body } = result.right.output;
        reply({ id: message.id, ok: true, status: statusCode, headers: (headers ?? {}) as Record<string, string>, body });
      },
      (error: Error) => reply({ id: message.id, ok: false, message: error.message }),
    );
});
