import { Worker } from 'node:worker_threads';

/**
 * Validates the OpenAPI document at `path` in a worker thread; resolves, or rejects with what is
 * wrong. SwaggerParser's validation compiles the OpenAPI meta-schema: a quarter to over half a
 * second of CPU on a busy machine, which on the main thread stalled every request in flight (at
 * start, while Prism loads, and on each --watch reload). The worker holds no process alive.
 */
export function validateSpecInWorker(path: string): { done: Promise<void>; stop: () => void } {
  const fromSource = import.meta.url.endsWith('.ts');
  const loadSpec = new URL(`../../spec/loadSpec.${fromSource ? 'ts' : 'js'}`, import.meta.url).href;
  // From the TypeScript source (tests), the module loads through tsx's loader, as Prism's worker does.
  const ready = fromSource ? "import('tsx/esm/api').then(({ register }) => register())" : 'Promise.resolve()';
  const code = `const { parentPort, workerData } = require('node:worker_threads');
${ready}.then(() => import(${JSON.stringify(loadSpec)})).then(({ validateSpec }) => validateSpec(workerData))
  .then(() => parentPort.postMessage(null), (error) => parentPort.postMessage(String(error && error.message || error)));`;
  const worker = new Worker(code, { eval: true, workerData: path });
  const done = new Promise<void>((resolve, reject) => {
    worker.once('message', (problem: string | null) => (problem === null ? resolve() : reject(new Error(problem))));
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error(`The validation of ${path} stopped before it finished.`)));
  });
  worker.unref();
  return { done, stop: () => void worker.terminate() };
}
