import { parseLossless, toPlain, type LosslessValue } from '../../common/json/losslessJson.ts';
import type { ConnectionChoice } from './transport.ts';
import type { Framing, FramedRequest, StreamEnd } from './responseFraming.ts';

/** One request the suite sent and what came back: the evidence every finding points to. */

export type Intent =
  /** A request the contract says must succeed. */
  | 'valid'
  /** A request built to be refused (bad parameter, bad body): any 4xx Error is its right answer. */
  | 'invalid'
  /** A request without a usable key: 401 is its right answer. */
  | 'unauthenticated'
  /** The rate-limit probe's: a 429 is what it is after. */
  | 'over-limit'
  /** A value a deployment may take or refuse (a 5,000-character name): a 2xx or a 4xx Error, never a 5xx. */
  | 'edge';

/**
 * How a request authenticates: with the run's key, with nothing, or with a given header. A given
 * header that still carries the real key (`bearer KEY`) says `spends: 'key'`, so pacing counts it
 * against the key's quota.
 */
export type Auth =
  | 'key'
  /** The second key (`--api-key-2`). */
  | 'key2'
  | 'none'
  /**
   * `shownAs` is what the record shows instead: a near miss of a key (its last character changed)
   * gives all but one character of it away, which nothing the run writes may do.
   */
  | { authorization: string; spends?: 'key' | 'key2'; shownAs?: string }
  /** One of the run's keys, spelled another way: the header name's case, the scheme's case. */
  | { key: 'key' | 'key2'; headerName: string; scheme: string };

/** Which quota a request spends: one of the run's keys, or the client's anonymous one. */
export type Bucket = 'key' | 'key2' | 'anonymous';

/** The bucket a request's credential spends. */
export function bucketOf(auth: Auth): Bucket {
  if (auth === 'key' || auth === 'key2') return auth;
  if (auth === 'none') return 'anonymous';
  if ('key' in auth) return auth.key;
  return auth.spends ?? 'anonymous';
}

/**
 * What the plan that built a request demands of its answer, as only the plan knows it (an id chosen
 * so that no pet has it, a body made invalid on purpose): the judges of its check read it from the
 * exchange, so they judge the record alone.
 */
export interface Expectation {
  /** The rule it rests on (a rule id of model/rules.ts). */
  rule: string;
  /**
   * `refuse`: with `status` (or any 4xx) and an Error body. `open`: the contract does not say, so
   * served is a warning and a refusal is a 4xx Error. `refuse-or-none`: refused, or a list holding
   * no pet whose `parameter` is `value`. `may-refuse`: served, or refused by a rule of the
   * deployment's own with a 4xx Error. `accept`: served; the check's judge says how.
   */
  answer: 'refuse' | 'open' | 'refuse-or-none' | 'may-refuse' | 'accept';
  status?: number | '4xx';
  /** What was sent, for findings: `id 1.5`, `limit=0`. */
  what: string;
  /** Why the answer must be so: `petId is an int64`. */
  because?: string;
  /** For `refuse-or-none`: the query parameter and the value no pet may have in the list. */
  parameter?: string;
  value?: string;
  /** For a create: the NewPet sent, as read losslessly, whose fields the created Pet must hold. */
  sent?: Record<string, unknown>;
  /** A 400 for malformed JSON ahead of the 401 is a warning: many servers parse every body before any route. */
  parsedFirst?: boolean;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  /** Relative to the base URL, with its query: `/pets?limit=1`. */
  path: string;
  auth: Auth;
  headers?: Record<string, string>;
  /** Default headers not to send (lower case), e.g. `accept`: a client that sends no Accept. */
  omitHeaders?: readonly string[];
  /** The raw body; sent as is, so malformed JSON stays malformed. */
  body?: string;
  operationId: string;
  intent: Intent;
  /** The generated case this request belongs to, e.g. `create-pet/body/categoryId/float`: stable across runs. */
  case?: string;
  /** Requests sent at once, in parallel, share a burst number: the model judges them together. */
  burst?: number;
  /** Spellings of one request share a group: each must get the same status. */
  equivalence?: string;
  /** A connection of its own, or from another local address (see `ConnectionChoice`). */
  connection?: ConnectionChoice;
  /** What this form of a request varies from the first of its group (`client-headers`, `json-text`): for the coverage table. */
  varies?: readonly string[];
  /** What its answer must be, when the plan knows more than the request says. */
  expect?: Expectation;
  /** Sent again while fast-check shrinks a failing sequence: the model judges it, its check's own rules do not judge it twice. */
  replay?: boolean;
}

export interface ApiResponse {
  status: number;
  /** Header names in lower case; a header received more than once has its values joined with ", ". */
  headers: Record<string, string>;
  /** Every header line as received, in order: names in lower case, a repeated header once per line. */
  rawHeaders: [string, string][];
  /** `bytes` read as UTF-8 (a BOM kept as U+FEFF, a malformed sequence as U+FFFD). */
  body: string;
  /**
   * The body as received, after content-decoding: what the checks judge encodings by (a BOM,
   * Latin-1). Never redacted, so never written to a report.
   */
  bytes: Uint8Array;
  /**
   * The body was longer than the transport reads (`--max-body`): `bytes` and `body` are its start,
   * and the answer is unreadable (the deployment's failure). See retention.ts for the three marks.
   */
  truncated?: boolean;
  /**
   * Why only the start of the body was kept, when the run's own budget for kept bodies cut it (see
   * retention.ts): the deployment sent it whole, so no rule that needs the whole body judges it.
   */
  keptInPart?: string;
  /** Why the body never finished (the connection dropped, the time ran out, the framing broke), when it did not: unreadable, `bytes` its start. */
  incomplete?: string;
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
  burst?: number;
  equivalence?: string;
  varies?: readonly string[];
  expect?: Expectation;
  replay?: boolean;
  /** The request's path and query relative to the base URL, `/pets?limit=1`, for findings. */
  path: string;
  /** Which quota the request spends: the run's key, or the client's anonymous one. */
  bucket: Bucket;
  sentAt: number;
  request: { method: string; url: string; headers: Record<string, string>; body?: string; connection?: ConnectionChoice };
  response: ApiResponse;
  /** Transport failures retried before this answer came (a GET only). */
  retries: number;
  /** For a request sent on a raw connection (the framing probe): the connection's bytes, and its place on it. */
  wire?: WireExchange;
}

/** A request on a raw connection, as its framing is judged: how it went, and its place among the others. */
export interface WireRequest extends FramedRequest {
  /** The request target as written, its key redacted. */
  target: string;
  /** It asked the server to close after answering (`Connection: close`, or HTTP/1.0 without keep-alive). */
  close: boolean;
  /** How its body went: in one write, in two (`split`), or `chunked`. */
  bodyAs?: 'whole' | 'split' | 'chunked';
}

/** One raw connection of the run, as every exchange on it shares it. */
export interface WireConnection {
  /** Numbered from 1 in the run. */
  id: number;
  /** The operation of its first request: what a connection whose bytes start no answer is reported under. */
  operationId?: string;
  pipelined: boolean;
  requests: WireRequest[];
  /**
   * Every byte that came, up to the probe's cap, with the run's secrets masked byte for byte (`*`,
   * same length), so the framing reads as it came and no report can show a key.
   */
  received: Uint8Array;
  /** How reading ended: the server closed, the time ran out, the byte cap was met, or the client was done. */
  ended: StreamEnd | 'done';
  timeoutMs: number;
  /** Why the connection could not be opened or written, when it could not. */
  error?: string;
  /** Milliseconds from the opening: each request written, each answer whole, the server's close. */
  timings: { writtenMs: number[]; answeredMs: (number | undefined)[]; closedMs?: number };
}

export interface WireExchange {
  connection: WireConnection;
  /** The request's place on the connection, from 0. */
  index: number;
  /** The answer's head as it came (status line and field lines), secrets masked. */
  head: string;
  framing: Framing;
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
  /** Relative to the base URL, with its query, as in an exchange. */
  path?: string;
  /** Which try of its request this was, from 1: a GET is tried up to three times. */
  attempt?: number;
  /** Nothing came within the timeout, not even a status line: the deployment was silent (not refused or reset). */
  timedOut?: boolean;
  /** Sent on a raw connection by the framing probe, which frames what came itself (see `error`). */
  wire?: boolean;
  /** The quota its credential spends: the key's, the second key's, or none (the address's). */
  bucket?: Bucket;
  /** The last try of its request: the client gave the request up after it. */
  givenUp?: boolean;
}

/** The body read as JSON both ways: `json` as JSON.parse gives it, `value` lossless. Both undefined when not JSON. */
/** A body as parseBody read it: `json` as JSON.parse would give it, `value` read losslessly (absent when the text is no JSON). */
export interface ParsedBody {
  json: unknown;
  value?: LosslessValue;
}

export function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { json: undefined };
  try {
    const value = parseLossless(text);
    return { json: toPlain(value), value };
  } catch {
    return { json: undefined };
  }
}
