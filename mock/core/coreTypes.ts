// What a host hands the framework-free core, and what it gets back: plain data, no framework or
// runtime type, so the same core answers behind Node's HTTP server, fastify, MSW (Node or the
// browser's service worker), Playwright's routing and the Vite dev server.

export interface CoreRequest {
  method: string;
  /** The path and query under the mock's root (`/v1/pets?limit=5`, `/__mock/reset`). */
  url: string;
  /** Header names in lower case; a repeated header joined with ", " (as fetch's Headers does). */
  headers: Record<string, string>;
  /**
   * The body bytes as sent; absent when there is none. A host that streams bodies gives `readBody`
   * instead: the core reads the body only once the request is admitted and routed, as a server
   * does, so a refused request's body is never read. (On a shared store, a create whose key this
   * replica found valid before is read first, to be admitted and created in one round trip.)
   */
  body?: Uint8Array | undefined;
  readBody?: (() => Promise<Uint8Array | undefined>) | undefined;
  /** The client's address, its anonymous rate-limit bucket. Default 127.0.0.1, as an in-process client. */
  client?: string | undefined;
  /** Unix ms when the host was handed the request, on the mock's clock (`arrival()`): when the client sent it, as near as the mock knows (the client report's clientReport/told.ts). Default: when the core is handed it. */
  arrivedAt?: number | undefined;
  /** Aborted when the client goes away before its answer (a held answer is let go, and recorded as unanswered). */
  signal?: ClientSignal | undefined;
  /**
   * Bends an API answer before it is recorded (a deployment profile's choices: profiledAnswers.ts),
   * so that the request log and the access log keep what the client gets.
   */
  finish?: ((answer: CoreAnswer) => CoreAnswer) | undefined;
}

/** What the core asks of an AbortSignal (which fits): whether the client left, and a call when it does. */
export interface ClientSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
}

/** Where the core writes what a server log shows: pino's logger fits. */
export interface CoreLog {
  warn(fields: object, message: string): void;
  info(message: string): void;
  error(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

/** One API request as answered, for an access log (status 0: no answer was given). */
export interface AnsweredRequest {
  method: string;
  url: string;
  status: number;
  ms: number;
  /**
   * When it was answered, as `performance.now()` read it: a monotonic instant, which the access log
   * turns into wall-clock time as it writes its lines (its time, never the mock's clock).
   */
  answeredAt: number;
  /** The key, redacted, or what kind of Authorization header came (`missing`, `malformed`, ...). */
  key: string;
  client: string;
  runId: string | undefined;
  fault: string | undefined;
  /** A preflight whose origin is not allowed: answered 204 like an allowed one, but refused. */
  corsRefused: boolean;
}

export interface CoreAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body as text; null when the answer has none (204, HEAD). */
  body: string | null;
}

/**
 * A fault rule asked for no answer at all: the host drops the connection (a network error for
 * fetch, `route.abort()` for Playwright). Thrown by `MockCore.handle`.
 */
export class ConnectionResetError extends Error {
  override readonly name = 'ConnectionResetError';
  readonly code = 'ECONNRESET';
}

/** The client went away before its answer (`signal` aborted): there is no one to answer. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
}
