/**
 * What the mock saw of one request, for grading the client that sent it: the request as it came,
 * the answer the mock gave, on the mock's clock. Kept in the request log, so the report follows
 * the log's lifetime (cleared by reset, shared by replicas on Redis).
 */
export interface ClientObservation {
  /** Unix milliseconds on the mock's clock. */
  at: number;
  method: string;
  /** Path and query as sent. */
  url: string;
  /** The documented operation, when the request named one. */
  operationId?: 'listPets' | 'createPet' | 'getPet' | 'listStoreOrders';
  /** 0 when no answer was given (a fault rule reset the connection). */
  status: number;
  /** The answer's Error code, when it was an error. */
  code?: string;
  /** Who sent it: the key's identity (not the key), also when the key came in the wrong place (`?api_key=`, `Token <key>`); otherwise the client's address (no key, or a bearer key the mock does not know). */
  client: string;
  /** How reports name that client: the redacted key (`demo…(9)`) or the address. */
  clientLabel: string;
  /** How the request presented a key: `bearer` as the contract says, another `scheme`, or `none`. */
  auth: 'bearer' | 'scheme' | 'none';
  /** A key-like query parameter or header beside Authorization (`api_key=`, `X-API-Key`). */
  keyElsewhere?: boolean;
  /** The answer's Retry-After, in seconds. */
  retryAfter?: number;
  /** The answer's X-RateLimit-Remaining and -Reset (Unix seconds). */
  remaining?: number;
  reset?: number;
  /**
   * The answer also carried the IETF draft's RateLimit field (the mock's `ratelimitHeaders: 'draft'`),
   * which says the same window as X-RateLimit-*: its r the remaining count, its t the seconds to the reset.
   */
  draftFields?: boolean;
  /** A digest of a POST's body: the same body sent again has the same digest. */
  bodyDigest?: string;
  /**
   * Unix milliseconds on the mock's clock when the host was handed the request (`at` is when it
   * was answered): as near as the mock can know when the client sent it. Absent in entries of an
   * older replica, which are read as sent when answered.
   */
  arrivedAt?: number;
  /** The documented query parameters sent, each with the kind of its value (never the value): common/usage/usageFacts.ts. */
  query?: Record<string, string>;
  /** The names of the JSON body's fields sent. */
  sent?: string[];
  /** The names of the answer's fields (a Pet's, each listed Pet's, an Error's). */
  given?: string[];
}

/** What the request log keeps of a request for grading its client, beside what it keeps anyway. */
export type ClientFacts = Pick<ClientObservation, 'client' | 'operationId' | 'code' | 'auth' | 'keyElsewhere' | 'retryAfter' | 'remaining' | 'reset' | 'draftFields' | 'bodyDigest' | 'arrivedAt' | 'query' | 'sent' | 'given'> & {
  /** The client as reports name it. */
  label: string;
};

/** A request-log entry as the grader reads it; undefined for one recorded without facts (an older replica's). */
export function observationOf(entry: { at: number; method: string; url: string; status: number; grade?: ClientFacts }): ClientObservation | undefined {
  if (!entry.grade) return undefined;
  const { label, ...facts } = entry.grade;
  return { at: entry.at, method: entry.method, url: entry.url, status: entry.status, clientLabel: label, ...facts };
}
