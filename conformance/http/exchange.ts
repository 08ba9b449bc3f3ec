/** One request the suite sent and what came back: the evidence every finding points to. */

export type Intent =
  /** A request the contract says must succeed. */
  | 'valid'
  /** A request built to be refused (bad parameter, bad body): any 4xx Error is its right answer. */
  | 'invalid'
  /** A request without a usable key: 401 is its right answer. */
  | 'unauthenticated';

/** How a request authenticates: with the run's key, with nothing, or with a given header. */
export type Auth = 'key' | 'none' | { authorization: string };

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  /** Relative to the base URL, with its query: `/pets?limit=1`. */
  path: string;
  auth: Auth;
  headers?: Record<string, string>;
  /** The raw body; sent as is, so malformed JSON stays malformed. */
  body?: string;
  operationId: string;
  intent: Intent;
}

export interface ApiResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
  durationMs: number;
}

export interface Exchange {
  seq: number;
  checkId: string;
  operationId: string;
  intent: Intent;
  /** Which quota the request spends: the run's key, or the client's anonymous one. */
  bucket: 'key' | 'anonymous';
  sentAt: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: ApiResponse;
}

/** A request that got no answer: what was sent, and why nothing came back. */
export interface UnansweredRequest {
  checkId: string;
  operationId: string;
  sentAt: number;
  durationMs: number;
  request: Exchange['request'];
  error: string;
}

export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
