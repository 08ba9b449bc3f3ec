// What the HTTP linter remembers of a run: the last answer to a GET of each URL (the 304s and
// HEADs that follow it are held to it), the strong entity tags each URL gave, the methods each
// path served, and what each key's answers said of its validity.
import type { Exchange } from '../../http/exchange.ts';
import type { KeyName } from '../requestView.ts';

/** The last answer to a GET of one URL with one credential. */
export interface GetAnswer {
  seq: number;
  status: number;
  /** Header names (lower case) to their values, joined. */
  headers: Record<string, string>;
  bytes: Uint8Array;
  /** The body as it came was content-coded: its length on the wire is not `bytes.length`. */
  coded: boolean;
  /** The run's count of served writes when it was given: a later answer after more writes may differ. */
  writes: number;
  /** The request's Authorization and Accept as sent: a refusal may turn on their spelling. */
  asked: { authorization?: string; accept?: string };
}

export interface KeyStanding {
  /** The first answer that served the key (a 2xx): from then on the key is valid. */
  servedAt?: number;
  /** 401s to the key before any answer served it, judged once one does. */
  refusedBefore: Exchange[];
  /** The last 429 to the key: a ban may follow it ("may lead to a temporary ban of the API key"). */
  throttledAt?: number;
}

export interface HttpMemory {
  /** By `credential \0 path-and-query`. */
  lastGet: Map<string, GetAnswer>;
  /** By path-and-query: each strong entity tag given, with the body it came with and its content coding (`contentCodingOf`). */
  strongTags: Map<string, Map<string, { seq: number; bytes: Uint8Array; coding: string }>>;
  /** By path (no query): each method answered 2xx with a key, and where first. */
  served: Map<string, Map<string, number>>;
  keys: Map<KeyName, KeyStanding>;
  /** Writes (POST, PUT, PATCH, DELETE) served so far. */
  writes: number;
  /** By path-and-query: a keyed answer that let shared caches store it (RFC 9111, 3.5). */
  sharedCacheable: Map<string, { seq: number; directive: string; bytes: Uint8Array }>;
  /** By path-and-query: the first 304 to an If-None-Match, which shows the deployment evaluates that condition there. */
  notModified: Map<string, number>;
}

export function emptyHttpMemory(): HttpMemory {
  return { lastGet: new Map(), strongTags: new Map(), served: new Map(), keys: new Map(), writes: 0, sharedCacheable: new Map(), notModified: new Map() };
}

export function standing(memory: HttpMemory, key: KeyName): KeyStanding {
  let found = memory.keys.get(key);
  if (!found) memory.keys.set(key, (found = { refusedBefore: [] }));
  return found;
}

