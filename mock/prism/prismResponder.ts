import { Worker } from 'node:worker_threads';
import type { IHttpOperationConfig } from '@stoplight/prism-http';
import type { LoadedSpec, SpecOperation } from '../../spec/loadSpec.ts';
import type { PrismQuery, PrismReply, PrismWorkerData } from './prismWorker.ts';

export interface PrismAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface PrismResponder {
  /**
   * Answers an operation from the OpenAPI document through Prism: its static example by default,
   * or what `mock` asks for (a status code, a named example, dynamic data, a seed). Prism checks
   * neither security nor the request, because the mock's own hooks already did.
   */
  respond(op: SpecOperation, mock?: Partial<IHttpOperationConfig>): Promise<PrismAnswer>;
  /** Starts loading Prism now, in the background, so the first answer that needs it does not wait. */
  warm(): void;
  /** Stops the worker. */
  close(): Promise<void>;
}

/**
 * The worker's entry: the compiled .js next to this file, or, when the mock runs from its
 * TypeScript source (tests, `--source` benches), the .ts through tsx's loader.
 */
function startWorker(data: PrismWorkerData): Worker {
  const entry = new URL(`./prismWorker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (entry.pathname.endsWith('.js')) return new Worker(entry, { workerData: data });
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData: data });
}

/**
 * Prism, run in a worker thread and started on first need (or by `warm()`). Loading it costs
 * seconds of CPU; in the worker that never stalls the requests the main thread is answering.
 * Requests that need Prism while it loads wait for it; no other request does.
 */
export function createPrismResponder(spec: LoadedSpec, logLevel: string): PrismResponder {
  let worker: Worker | undefined;
  let failure: Error | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve: (answer: PrismAnswer) => void; reject: (error: Error) => void }>();

  const failAll = (error: Error) => {
    failure = error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  const ensure = (): Worker => {
    if (worker) return worker;
    failure = undefined;
    const started = startWorker({ document: spec.document, logLevel });
    started.unref();
    started.on('message', (message: PrismReply | { ready: true }) => {
      if ('ready' in message) return;
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.ok) waiting.resolve({ status: message.status, headers: message.headers, body: message.body });
      else waiting.reject(new Error(message.message));
    });
    started.on('error', (error) => failAll(new Error(`Prism could not load: ${error.message}`)));
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      if (pending.size > 0) failAll(failure ?? new Error('Prism stopped before answering.'));
    });
    return (worker = started);
  };

  return {
    respond(op, mock = {}) {
      const running = ensure();
      const id = nextId++;
      return new Promise<PrismAnswer>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        running.postMessage({ id, method: op.method, path: op.path.replace(/\{[^}]+\}/g, '1'), mock } satisfies PrismQuery);
      });
    },
    warm() {
      ensure();
    },
    async close() {
      const running = worker;
      worker = undefined;
      if (running) await running.terminate();
    },
  };
}
