// What a raw connection's record becomes for the rest of the suite: the connection as every
// exchange on it shares it (its bytes, the secrets masked), each framed answer as the transport
// would have given it, and why a request got none. Pure: the client adds seq numbers and pacing.
import type { ApiRequest, WireConnection, WireRequest } from './exchange.ts';
import { latin1, showBytes } from './messageHead.ts';
import type { RawConnectionRecord, RawRequest } from './rawHttp.ts';
import { frameConnection, type FramedAnswer, type FramedConnection, type StreamEnd } from './responseFraming.ts';
import { bodyText, type TransportResponse } from './transport.ts';

/** A request for the framing probe: an API request, and how it goes on the wire. */
export interface WireApiRequest extends ApiRequest {
  version: '1.0' | '1.1';
  bodyAs?: 'whole' | 'split' | 'chunked';
  /** Sends `Connection: close`. */
  close?: boolean;
}

/** Requests for one connection (pipelined: written at once), or for one after another (sequential: a new connection when the server closes). */
export interface WirePlan {
  pipelined: boolean;
  requests: WireApiRequest[];
}

/** How a record's reading ended, as the framing reads it: `done` (the client stopped) leaves an open answer open. */
export const streamEnd = (ended: WireConnection['ended']): StreamEnd | undefined => (ended === 'done' ? undefined : ended);

/** The connection's answers framed from its record. */
export const frameWire = (connection: Pick<WireConnection, 'received' | 'requests' | 'ended'>): FramedConnection => frameConnection(connection.received, connection.requests, streamEnd(connection.ended));

/** A copy of `bytes` with each secret's UTF-8 bytes replaced by as many `*`: lengths, and so the framing, stay as they came. */
export function maskSecrets(bytes: Uint8Array, secrets: readonly string[]): Uint8Array {
  const out = Buffer.from(bytes);
  for (const secret of secrets) {
    if (secret === '') continue;
    const needle = Buffer.from(secret, 'utf8');
    for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + needle.length)) out.fill(0x2a, at, at + needle.length);
  }
  return new Uint8Array(out);
}

/** The connection as the exchanges on it share it; `sent[i]` is how request `i` of the plan went out (its target redacted). */
export function wireConnectionOf(record: RawConnectionRecord, id: number, sent: readonly { request: WireApiRequest; raw: RawRequest; target: string }[], secrets: readonly string[], timeoutMs: number): WireConnection {
  return {
    id,
    pipelined: record.pipelined,
    requests: record.requests.map((r, k) => {
      const { request, raw, target } = sent[record.indexes[k]!]!;
      return { ...r, target, close: raw.close, ...(request.bodyAs !== undefined && request.body !== undefined ? { bodyAs: request.bodyAs } : {}) };
    }),
    received: maskSecrets(record.received, secrets),
    ended: record.ended,
    timeoutMs,
    ...(record.error !== undefined ? { error: record.error } : {}),
    timings: record.timings,
  };
}

/**
 * A framed answer as the transport would give it: status, every field line (names in lower case),
 * the body as framed. `incomplete` says why it never finished (an answer the probe's byte cap cut is
 * not given here: it is not the probe's to judge).
 */
export function responseOfAnswer(answer: FramedAnswer, connection: Pick<WireConnection, 'timeoutMs'>): { response: TransportResponse; incomplete?: string } {
  const rawHeaders = answer.head.fields.map(([name, value]): [string, string] => [name.toLowerCase(), value]);
  const headers: Record<string, string> = {};
  for (const [name, value] of rawHeaders) headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  const response: TransportResponse = { status: answer.head.status, headers, rawHeaders, body: bodyText(answer.body), bytes: answer.body };
  if (answer.end !== undefined) return { response };
  const why =
    answer.unfinished === 'closed'
      ? `the connection closed after ${answer.body.length} bytes of the body (${describeFraming(answer)})`
      : `the body did not end within ${connection.timeoutMs} ms (${answer.body.length} bytes read; ${describeFraming(answer)})`;
  return { response, incomplete: why };
}

function describeFraming(answer: FramedAnswer): string {
  if (answer.framing === 'content-length') return `Content-Length ${answer.length}`;
  if (answer.framing === 'chunked') return 'chunked, no last chunk yet';
  if (answer.framing === 'close') return 'no length: it ends when the connection closes';
  return 'its head never ended';
}

/** The answer's head as it came, as text (one character per byte). */
export const headText = (received: Uint8Array, answer: FramedAnswer): string => latin1(received, answer.head.start, answer.head.end > answer.head.start ? answer.head.end : Math.min(received.length, answer.head.start + 4096));

/** Why the request at `k` on the connection got no answer the framing could read. */
export function whyUnanswered(connection: WireConnection, framed: FramedConnection, k: number): string {
  const written = connection.requests[k]?.writtenAt !== undefined;
  if (!written) return 'not sent: the connection ended before it';
  if (framed.unframable) return `no answer could be read: ${framed.unframable.detail} at byte ${framed.unframable.at} of the connection (${showBytes(connection.received, framed.unframable.at, connection.received.length)})`;
  if (connection.ended === 'closed') return 'the server closed the connection without answering it';
  if (connection.ended === 'timeout') return `no answer within ${connection.timeoutMs} ms, the connection open`;
  if (connection.ended === 'cap') return `its answer, or those before it, passed the ${connection.received.length} bytes the framing probe reads on a connection: not judged here`;
  return 'no answer';
}
