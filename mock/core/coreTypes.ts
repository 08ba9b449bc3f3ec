// What a host hands the framework-free core, and what it gets back: plain data, no framework or
// runtime type, so the same core answers in fastify's place, in MSW (Node or the browser's service
// worker), in Playwright's routing and in the Vite dev server.

export interface CoreRequest {
  method: string;
  /** The path and query under the mock's root (`/v1/pets?limit=5`, `/__mock/reset`). */
  url: string;
  /** Header names in lower case; a repeated header joined with ", " (as fetch's Headers does). */
  headers: Record<string, string>;
  /** The body bytes as sent; absent or empty when there is none. */
  body?: Uint8Array | undefined;
  /** The client's address, its anonymous rate-limit bucket. Default 127.0.0.1, as an in-process client. */
  client?: string | undefined;
  /** `arrival()` when the host received the request: requests a client sent together stay together. */
  arrivedAfter?: number | undefined;
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
