import { parseLossless, toPlain, type LosslessValue } from '../json/losslessJson.ts';

/** One request the suite sent and what came back: the evidence every finding points to. */

export type Intent =
  /** A request the contract says must succeed. */
  | 'valid'
  /** A request built to be refused (bad parameter, bad body): any 4xx Error is its right answer. */
  | 'invalid'
  /** A request without a usable key: 401 is its right answer. */
  | 'unauthenticated'
  /** The rate-limit probe's: a 429 is what it is after. */
  | 'over-limit';

/**
 * How a request authenticates: with the run's key, with nothing, or with a given header. A given
 * header that still carries the real key (`bearer KEY`) says `spends: 'key'`, so pacing counts it
 * against the key's quota.
 */
export type Auth = 'key' | 'none' | { authorization: string; spends?: 'key' };

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
  /** The generated case this request belongs to, e.g. `create-pet/body/categoryId/float`: stable across runs. */
  case?: string;
}

export interface ApiResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. Integers past 2^53 are approximate here. */
  json: unknown;
  /** The body parsed losslessly: integers past 2^53 - 1 are BigInts with their exact digits. */
  value?: LosslessValue;
  durationMs: number;
}

export interface Exchange {
  seq: number;
  checkId: string;
  operationId: string;
  intent: Intent;
  case?: string;
  /** The request's path and query relative to the base URL, `/pets?limit=1`, for findings. */
  path: string;
  /** Which quota the request spends: the run's key, or the client's anonymous one. */
  bucket: 'key' | 'anonymous';
  sentAt: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: ApiResponse;
  /** Transport failures retried before this answer came (a GET only). */
  retries: number;
}

/** A request that got no answer: what was sent, and why nothing came back. */
export interface UnansweredRequest {
  checkId: string;
  operationId: string;
  case?: string;
  /** How many requests had been answered when this one was sent: places it among the exchanges. */
  afterSeq: number;
  sentAt: number;
  durationMs: number;
  request: Exchange['request'];
  error: string;
}

/** The body read as JSON both ways: `json` as JSON.parse gives it, `value` lossless. Both undefined when not JSON. */
export function parseBody(text: string): { json: unknown; value?: LosslessValue } {
  if (text.trim() === '') return { json: undefined };
  try {
    const value = parseLossless(text);
    return { json: toPlain(value), value };
  } catch {
    return { json: undefined };
  }
}
