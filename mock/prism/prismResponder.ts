import { Worker } from 'node:worker_threads';
import type { IHttpOperationConfig } from '@stoplight/prism-http';
import type { LoadedSpec, SpecOperation } from '../../spec/loadSpec.ts';
import type { PrismMessage, PrismReply, PrismWorkerData } from './prismWorker.ts';
import { realTimers } from '../state/realTimers.ts';

export interface PrismAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface PrismResponder {
  /**
   * Answers an operation from the OpenAPI document through Prism: its static example by default,
   * or what `mock` asks for (a status code, a named example, dynamic data, a seed). Prism checks
   * neither security nor the request, because the mock's pipeline already did (mock/pipeline).
   */
  respond(op: SpecOperation, mock?: Partial<IHttpOperationConfig>): Promise<PrismAnswer>;
  /** Starts loading Prism now, in the background, so the first answer that needs it does not wait. */
  warm(): void;
  /** Lets go of the worker (it stops when no mock uses it). */
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

type Waiting = { resolve: (answer: PrismAnswer) => void; reject: (error: Error) => void };

/** How long the worker outlives its last mock, so the next mock (the next test) finds it loaded. */
const IDLE_MS = 60_000;

/**
 * One worker per process, shared by every mock in it and stopped IDLE_MS after the last one lets
 * go. Loading Prism's code costs seconds of CPU per thread; a test file that builds thirty mocks
 * one after another should pay it once, not thirty times. Neither the worker nor its idle timer
 * keeps a process alive. The worker holds no mock state: each mock's spec is sent
 * under its own id, and answers depend only on the spec and the request.
 */
class SharedWorker {
  static #current: SharedWorker | undefined;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Waiting>();
  #users = 0;
  #nextQuery = 0;
  #failure: Error | undefined;
  #idle: NodeJS.Timeout | undefined;

  static acquire(logLevel: string): SharedWorker {
    const shared = (SharedWorker.#current ??= new SharedWorker(logLevel));
    shared.#users++;
    realTimers.clearTimeout(shared.#idle);
    return shared;
  }

  private constructor(logLevel: string) {
    this.#worker = startWorker({ logLevel });
    this.#worker.on('message', (reply: PrismReply) => {
      const waiting = this.#pending.get(reply.id);
      if (!waiting) return;
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if (reply.ok) waiting.resolve({ status: reply.status, headers: reply.headers, body: reply.body });
      else waiting.reject(new Error(reply.message));
    });
    const fail = (error: Error) => {
      this.#failure ??= error;
      if (SharedWorker.#current === this) SharedWorker.#current = undefined;
      for (const waiting of this.#pending.values()) waiting.reject(error);
      this.#pending.clear();
    };
    this.#worker.on('error', (error) => fail(new Error(`Prism could not load: ${error.message}`)));
    this.#worker.on('exit', () => fail(new Error('Prism stopped before answering.')));
    // Idle, the worker never keeps a process alive: the server (or the test) does that, and a mock
    // left open must not hold a test runner (Jest waits for the event loop to empty) or a script.
    // While a query waits for its answer it does (query()), or a script awaiting a Prefer answer
    // would end before it. unref() comes after the listeners: attaching the first 'message'
    // listener refs the worker's port again (a MessagePort is ref'd while it has one).
    this.#worker.unref();
  }

  /** False once the worker failed or stopped: its users start another. */
  get alive(): boolean {
    return this.#failure === undefined;
  }

  post(message: PrismMessage): void {
    this.#worker.postMessage(message);
  }

  query(specId: number, op: SpecOperation, mock: Partial<IHttpOperationConfig>): Promise<PrismAnswer> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextQuery++;
    return new Promise<PrismAnswer>((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.post({ type: 'query', id, specId, method: op.method, path: op.path.replace(/\{[^}]+\}/g, '1'), mock });
    });
  }

  release(specId: number): void {
    this.post({ type: 'forget', specId });
    if (--this.#users > 0) return;
    // A real timer: a test's fake timers would keep an idle worker (and its thread) alive.
    this.#idle = realTimers.setTimeout(() => {
      if (SharedWorker.#current === this) SharedWorker.#current = undefined;
      void this.#worker.terminate();
    }, IDLE_MS);
    this.#idle.unref();
  }
}

let nextSpecId = 0;

/**
 * Prism for one spec, run in the shared worker thread and started on first need (or by `warm()`).
 * Requests that need Prism while it loads wait for it; no other request does.
 */
export function createPrismResponder(spec: LoadedSpec, mockLogLevel: string | false | undefined): PrismResponder {
  // A mock that logs nothing (the default) has a Prism that logs nothing either.
  const logLevel = mockLogLevel === false || mockLogLevel === undefined ? 'silent' : mockLogLevel;
  const specId = nextSpecId++;
  let worker: SharedWorker | undefined;
  const ensure = (): SharedWorker => {
    if (!worker?.alive) {
      worker = SharedWorker.acquire(logLevel);
      worker.post({ type: 'spec', specId, document: spec.document });
    }
    return worker;
  };
  return {
    respond: (op, mock = {}) => ensure().query(specId, op, mock),
    warm: () => void ensure(),
    async close() {
      const held = worker;
      worker = undefined;
      held?.release(specId);
    },
  };
}
