import { Worker } from 'node:worker_threads';

/** How long the worker outlives its last validation, so the next one (a --watch reload, the next mock) finds it loaded. */
const IDLE_MS = 60_000;

type Waiting = { path: string; resolve: () => void; reject: (error: Error) => void };

interface ValidationWorker {
  worker: Worker;
  waiting: Map<number, Waiting>;
  next: number;
  idle?: NodeJS.Timeout;
}

/** The one validation worker of this process, while it runs. */
let shared: ValidationWorker | undefined;

function startValidationWorker(): ValidationWorker {
  const fromSource = import.meta.url.endsWith('.ts');
  const loadSpec = new URL(`../../spec/loadSpec.${fromSource ? 'ts' : 'js'}`, import.meta.url).href;
  // From the TypeScript source (tests), the module loads through tsx's loader, as Prism's worker does.
  const ready = fromSource ? "import('tsx/esm/api').then(({ register }) => register())" : 'Promise.resolve()';
  const code = `const { parentPort } = require('node:worker_threads');
const loaded = ${ready}.then(() => import(${JSON.stringify(loadSpec)}));
parentPort.on('message', ({ id, path }) => loaded.then(({ validateSpec }) => validateSpec(path))
  .then(() => parentPort.postMessage({ id, problem: null }), (error) => parentPort.postMessage({ id, problem: String(error && error.message || error) })));`;
  const self: ValidationWorker = { worker: new Worker(code, { eval: true }), waiting: new Map(), next: 0 };
  self.worker.on('message', ({ id, problem }: { id: number; problem: string | null }) => {
    const waiting = self.waiting.get(id);
    self.waiting.delete(id);
    if (problem === null) waiting?.resolve();
    else waiting?.reject(new Error(problem));
    if (self.waiting.size > 0) return;
    self.idle = setTimeout(() => {
      if (shared === self) shared = undefined;
      void self.worker.terminate();
    }, IDLE_MS);
    self.idle.unref();
  });
  const fail = (error: Error) => {
    if (shared === self) shared = undefined;
    for (const { path, reject } of self.waiting.values()) reject(new Error(`The validation of ${path} stopped before it finished: ${error.message}`));
    self.waiting.clear();
  };
  self.worker.on('error', fail);
  self.worker.on('exit', () => fail(new Error('the worker exited')));
  // Neither the worker nor its idle timer keeps a process alive: the server that waits for a
  // validation does. unref() comes after the listeners, which ref the worker's port again.
  self.worker.unref();
  return self;
}

/**
 * Validates the OpenAPI document at `path` in a worker thread; resolves, or rejects with what is
 * wrong. SwaggerParser's validation compiles the OpenAPI meta-schema: a quarter to over half a
 * second of CPU on a busy machine, which on the main thread stalled every request in flight (at
 * start, while Prism loads, and on each --watch reload). One worker serves every validation of
 * the process and stays loaded for a minute after the last, so a reload does not pay for loading
 * SwaggerParser again. It holds no state between validations: each reads its file afresh.
 */
export function validateSpecInWorker(path: string): Promise<void> {
  const current = (shared ??= startValidationWorker());
  clearTimeout(current.idle);
  const id = current.next++;
  return new Promise<void>((resolve, reject) => {
    current.waiting.set(id, { path, resolve, reject });
    current.worker.postMessage({ id, path });
  });
}
