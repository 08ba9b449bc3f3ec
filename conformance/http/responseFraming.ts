// Where each answer on one HTTP/1.x connection starts and ends, read from the bytes as they came
// (RFC 9112, 6.3: a response's length is its method's and status's, then Transfer-Encoding, then
// Content-Length, else the connection's close). Every way an answer leaves bytes behind, swallows
// the next, or cannot be framed is named where it happens: the judges say which rule it breaks.
import { fieldMembers, readHead, showBytes, startsStatusLine, type HeadProblem, type MessageHead } from './messageHead.ts';

/** A request as the framing needs it: HEAD's answer has no body, and HTTP/1.0 gets no chunked. */
export interface FramedRequest {
  method: string;
  version: '1.0' | '1.1';
  /** Bytes received on the connection when it was written: an answer cannot start before. Absent: not written. */
  writtenAt?: number;
}

export type FramingProblemKind =
  | HeadProblem['kind']
  /** Content-Length and Transfer-Encoding together (RFC 9112, 6.2). */
  | 'length-and-chunked'
  /** Content-Length lines or members that differ, or are no number (RFC 9110, 8.6; RFC 9112, 6.3). */
  | 'length-invalid'
  /** Transfer-Encoding on an answer to HTTP/1.0 (RFC 9112, 6.1). */
  | 'coding-to-1.0'
  /** Bytes after an answer framed by Content-Length that start no answer: the length is short. */
  | 'length-short'
  /** An answer framed by Content-Length whose body holds the next answer's status line: the length is long. */
  | 'length-long'
  /** The connection closed, or the time ran out, before Content-Length's bytes came. */
  | 'length-unmet'
  /** A chunk size line, a chunk's end or the trailer section that breaks RFC 9112, 7.1. */
  | 'chunk-syntax'
  /** Bytes after the last chunk that start no answer. */
  | 'after-chunked'
  /** The connection closed before the last chunk. */
  | 'chunk-unfinished'
  /** Bytes after the head of an answer to HEAD that start no answer: a body HEAD must not have. */
  | 'head-body'
  /** Bytes after a 204 or 304, which have no body, that start no answer. */
  | 'no-body-body'
  /** A head that came before its request was written: an answer to nothing. */
  | 'unsolicited'
  /** Empty lines between answers: most clients skip them. */
  | 'stray-crlf';

export interface FramingProblem {
  kind: FramingProblemKind;
  at: number;
  detail: string;
}

export type Framing = 'none' | 'content-length' | 'chunked' | 'close';

export interface FramedAnswer {
  /** Which request it answers (its index). */
  request: number;
  head: MessageHead;
  /** 1xx heads before it (101 aside, which ends HTTP/1.1 on the connection). */
  interim: MessageHead[];
  framing: Framing;
  /** Content-Length, when it frames the answer. */
  length?: number;
  /** Past the last byte of the answer; absent while it has not ended. */
  end?: number;
  /** The body's bytes, chunks joined. */
  body: Uint8Array;
  /** Why it did not end, once no more bytes will come. */
  unfinished?: 'closed' | 'timeout' | 'cap';
  /** The server says it closes the connection after this answer (RFC 9112, 9.3, 9.6). */
  closes: boolean;
  problems: FramingProblem[];
}

export interface FramedConnection {
  answers: FramedAnswer[];
  /** Where framing stopped for good: bytes that start no answer and no answer after them. */
  unframable?: { at: number; detail: string };
}

/** How reading the connection stopped, once it has: the peer closed it, the time ran out, or the byte cap was met. */
export type StreamEnd = 'closed' | 'timeout' | 'cap';

const te = (head: MessageHead) => fieldMembers(head, 'transfer-encoding').map((c) => c.toLowerCase().split(';')[0]!.trim());

/** Whether the connection closes after this answer: `close` in Connection, or HTTP/1.0 without keep-alive (RFC 9112, 9.3). */
function closesAfter(head: MessageHead, request: FramedRequest): boolean {
  const options = fieldMembers(head, 'connection').map((o) => o.toLowerCase());
  if (options.includes('close')) return true;
  if (request.version === '1.0' && !options.includes('keep-alive')) return true;
  return head.version === '1.0' && !options.includes('keep-alive');
}

/**
 * Frames the answers to `requests` in `bytes`, in order. `ended` says no more bytes will come (and
 * why); without it, an answer that has not ended is left open for the bytes still to come.
 */
export function frameConnection(bytes: Uint8Array, requests: readonly FramedRequest[], ended?: StreamEnd): FramedConnection {
  const answers: FramedAnswer[] = [];
  let p = 0;
  for (let i = 0; i < requests.length; i++) {
    const request = requests[i]!;
    if (request.writtenAt === undefined) break;
    const before = answers[answers.length - 1];
    // Between answers: nothing, the next status line, or bytes the answer before left behind.
    if (before) {
      let q = p;
      while (q < bytes.length && (bytes[q] === 0x0d || bytes[q] === 0x0a)) q++;
      if (q > p && q < bytes.length) before.problems.push({ kind: 'stray-crlf', at: p, detail: `${q - p} bytes of empty lines (${showBytes(bytes, p, q)}) follow it before the next status line` });
      if (q < bytes.length && startsStatusLine(bytes, q) === false) {
        const next = findStatusLine(bytes, q);
        const to = next ?? bytes.length;
        before.problems.push(strayAfter(before, requests[before.request]!, bytes, q, to));
        if (next === undefined) return { answers, unframable: { at: q, detail: `${to - q} bytes that start no answer` } };
        q = next;
      }
      p = q;
    } else if (p < bytes.length && startsStatusLine(bytes, p) === false) {
      return { answers, unframable: { at: p, detail: `${bytes.length - p} bytes that start no answer (${showBytes(bytes, p, bytes.length)})` } };
    }
    const answer = frameOne(bytes, p, request, i, ended);
    if (answer === undefined) break;
    if (answer.head.start < (request.writtenAt ?? 0) && before) before.problems.push({ kind: 'unsolicited', at: answer.head.start, detail: `an answer (${JSON.stringify(answer.head.statusLine)}) came before request ${i + 1} was sent: it answers nothing` });
    answers.push(answer);
    if (answer.end === undefined) {
      if (answer.problems.some((x) => x.kind === 'chunk-syntax')) return { answers, unframable: { at: answer.head.end, detail: 'a chunked body that cannot be read' } };
      break;
    }
    p = answer.end;
    if (answer.head.status === 101) break;
  }
  // After the last answer: nothing more is due, so anything that came is left behind by it.
  const last = answers[answers.length - 1];
  if (last?.end !== undefined && answers.length === requests.filter((r) => r.writtenAt !== undefined).length && p < bytes.length) {
    let q = p;
    while (q < bytes.length && (bytes[q] === 0x0d || bytes[q] === 0x0a)) q++;
    if (q > p) last.problems.push({ kind: 'stray-crlf', at: p, detail: `${q - p} bytes of empty lines follow it` });
    if (q < bytes.length && startsStatusLine(bytes, q) === true) last.problems.push({ kind: 'unsolicited', at: q, detail: `another answer (${showBytes(bytes, q, bytes.length, 40)}) follows it, though no request was left to answer: it answers nothing` });
    else if (q < bytes.length) last.problems.push(strayAfter(last, requests[last.request]!, bytes, q, bytes.length));
  }
  return { answers };
}

function findStatusLine(bytes: Uint8Array, from: number): number | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const at = text.indexOf('HTTP/1.', from, 'latin1');
  return at < 0 ? undefined : at;
}

/** The problem of bytes left after `answer` (from `from` to `to`), named by how the answer was framed. */
function strayAfter(answer: FramedAnswer, request: FramedRequest, bytes: Uint8Array, from: number, to: number): FramingProblem {
  const what = `${to - from === 1 ? '1 byte that starts' : `${to - from} bytes that start`} no answer (${showBytes(bytes, from, to)})`;
  if (request.method.toUpperCase() === 'HEAD') return { kind: 'head-body', at: from, detail: `its head is followed by ${what}: a body, which an answer to HEAD does not have` };
  if (answer.framing === 'none') return { kind: 'no-body-body', at: from, detail: `it is a ${answer.head.status}, which has no body, yet ${what} follow it` };
  if (answer.framing === 'chunked') return { kind: 'after-chunked', at: from, detail: `its last chunk is followed by ${what}` };
  // A length that counts too much takes the next answer's start into this body: what follows is its middle.
  const swallowed = nextStatusLineIn(answer.body);
  if (swallowed !== undefined) {
    return { kind: 'length-long', at: from, detail: `its Content-Length (${answer.length}) runs past its body into the next answer, whose status line starts at byte ${swallowed} of this body (${showBytes(answer.body, swallowed, answer.body.length, 40)}), so ${what} are left` };
  }
  return { kind: 'length-short', at: from, detail: `its Content-Length (${answer.length}) ends the body before ${what}: the length does not count the whole body` };
}

function frameOne(bytes: Uint8Array, at: number, request: FramedRequest, index: number, ended: StreamEnd | undefined): FramedAnswer | undefined {
  const interim: MessageHead[] = [];
  let p = at;
  while (true) {
    const read = readHead(bytes, p);
    if (read.kind === 'not-http') return undefined;
    if (read.kind === 'more') {
      // A head that never ends is kept, so its status line can be reported.
      if (ended === undefined && !read.head.problems.some((x) => x.kind === 'head-too-long')) return undefined;
      if (read.head.statusLine === '') return undefined;
      return { request: index, head: read.head, interim, framing: 'none', body: new Uint8Array(0), unfinished: ended ?? 'cap', closes: true, problems: [...read.head.problems] };
    }
    const head = read.head;
    if (head.status >= 100 && head.status < 200 && head.status !== 101) {
      interim.push(head);
      p = head.end;
      continue;
    }
    return frameBody(bytes, head, interim, request, index, ended);
  }
}

function frameBody(bytes: Uint8Array, head: MessageHead, interim: MessageHead[], request: FramedRequest, index: number, ended: StreamEnd | undefined): FramedAnswer {
  const problems: FramingProblem[] = [...interim.flatMap((h) => h.problems), ...head.problems];
  const answer = (framing: Framing, extra: Partial<FramedAnswer>): FramedAnswer => ({ request: index, head, interim, framing, body: new Uint8Array(0), closes: closesAfter(head, request), problems, ...extra });
  const codings = te(head);
  const lengths = fieldMembers(head, 'content-length');
  if (codings.length > 0 && request.version === '1.0') problems.push({ kind: 'coding-to-1.0', at: head.start, detail: `it answers an HTTP/1.0 request with Transfer-Encoding: ${codings.join(', ')}, which a 1.0 client cannot read` });
  // An answer to HEAD, a 1xx, 204 or 304 ends with its head, whatever its fields say (RFC 9112, 6.3).
  if (request.method.toUpperCase() === 'HEAD' || head.status === 204 || head.status === 304 || head.status === 101) return answer('none', { end: head.end });
  if (codings.length > 0) {
    if (lengths.length > 0) problems.push({ kind: 'length-and-chunked', at: head.start, detail: `it has both Transfer-Encoding (${codings.join(', ')}) and Content-Length (${lengths.join(', ')})` });
    if (codings[codings.length - 1] !== 'chunked') return closeDelimited(bytes, head, answer, ended);
    const chunked = readChunked(bytes, head.end, ended);
    problems.push(...chunked.problems);
    return answer('chunked', { body: chunked.body, ...(chunked.end !== undefined ? { end: chunked.end } : {}), ...(chunked.end === undefined && ended !== undefined ? { unfinished: ended } : {}) });
  }
  if (lengths.length > 0) {
    const distinct = [...new Set(lengths)];
    if (distinct.length > 1 || !/^\d+$/.test(distinct[0]!) || lengths.length > 1) {
      problems.push({ kind: 'length-invalid', at: head.start, detail: `its Content-Length is ${fieldMembers(head, 'content-length').length > 1 ? `sent more than once (${lengths.join(', ')})` : JSON.stringify(lengths[0])}, not one decimal number` });
    }
    if (!/^\d+$/.test(distinct[0]!) || distinct.length > 1) return closeDelimited(bytes, head, answer, ended);
    const length = Number(distinct[0]);
    const end = head.end + length;
    if (end > bytes.length) {
      const came = bytes.length - head.end;
      if (ended !== undefined && ended !== 'cap') {
        problems.push({ kind: 'length-unmet', at: bytes.length, detail: `its Content-Length is ${length}, yet ${ended === 'closed' ? 'the connection closed' : 'nothing more came before the time ran out'} after ${came} bytes of the body` });
      }
      return answer('content-length', { length, body: bytes.slice(head.end), ...(ended !== undefined ? { unfinished: ended } : {}) });
    }
    return answer('content-length', { length, body: bytes.slice(head.end, end), end });
  }
  return closeDelimited(bytes, head, answer, ended);
}

function closeDelimited(bytes: Uint8Array, head: MessageHead, answer: (framing: Framing, extra: Partial<FramedAnswer>) => FramedAnswer, ended: StreamEnd | undefined): FramedAnswer {
  const body = bytes.slice(head.end);
  const framed = answer('close', { body, closes: true });
  if (ended === 'closed') return { ...framed, end: bytes.length };
  return ended !== undefined ? { ...framed, unfinished: ended } : framed;
}

/** Where a status line ("HTTP/1.x NNN ") starts inside a body, if one does. */
function nextStatusLineIn(body: Uint8Array): number | undefined {
  const match = /HTTP\/1\.[01] \d{3}[ \r]/.exec(Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1'));
  return match?.index;
}

interface ChunkedRead {
  body: Uint8Array;
  /** Past the trailer section's empty line; absent while it has not come, or when the chunks cannot be read. */
  end?: number;
  problems: FramingProblem[];
}

/**
 * Reads a chunked body (RFC 9112, 7.1): chunk-size [ chunk-ext ] CRLF chunk-data CRLF, ..., a last
 * chunk of size 0, the trailer section and CRLF. A size line or chunk end that breaks the grammar
 * stops the reading: nothing after it can be framed.
 */
export function readChunked(bytes: Uint8Array, at: number, ended?: StreamEnd): ChunkedRead {
  const parts: Uint8Array[] = [];
  const problems: FramingProblem[] = [];
  const body = () => new Uint8Array(Buffer.concat(parts));
  let p = at;
  const unfinished = (): ChunkedRead => {
    if (ended === 'closed') problems.push({ kind: 'chunk-unfinished', at: bytes.length, detail: `the connection closed before the last chunk (after ${bytes.length - at} bytes of the chunked body)` });
    return { body: body(), problems };
  };
  const broken = (where: number, detail: string): ChunkedRead => {
    problems.push({ kind: 'chunk-syntax', at: where, detail });
    return { body: body(), problems };
  };
  while (true) {
    const line = readLine(bytes, p, 4096);
    if (line === 'more') return unfinished();
    if (line === 'too-long') return broken(p, `a chunk size line runs past 4096 bytes (${showBytes(bytes, p, p + 40)})`);
    if (line.bare) problems.push({ kind: 'bare-lf', at: line.end - 1, detail: 'a chunk size line ends in a bare LF' });
    const size = /^([0-9a-fA-F]+)[ \t]*(;.*)?$/.exec(line.text);
    if (!size) return broken(p, `${showBytes(bytes, p, line.end)} is not a chunk size (hex digits, then optional ;extensions, then CRLF)`);
    if (size[1]!.replace(/^0+/, '').length > 12) return broken(p, `the chunk size ${size[1]} is past any body`);
    const n = parseInt(size[1]!, 16);
    p = line.end;
    if (n === 0) {
      // The trailer section: field lines until an empty line.
      while (true) {
        const trailer = readLine(bytes, p, 8192);
        if (trailer === 'more') return unfinished();
        if (trailer === 'too-long') return broken(p, 'a trailer line runs past 8192 bytes');
        p = trailer.end;
        if (trailer.text === '') return { body: body(), end: p, problems };
        if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+:/.test(trailer.text)) return broken(trailer.end, `${JSON.stringify(trailer.text.slice(0, 60))} after the last chunk is neither a trailer field nor the empty line that ends the body`);
      }
    }
    if (p + n + 2 > bytes.length) {
      if (p + n <= bytes.length && p + n < bytes.length && !(bytes[p + n] === 0x0d || bytes[p + n] === 0x0a)) return broken(p + n, `a chunk of ${n} bytes is followed by ${showBytes(bytes, p + n, p + n + 20)} rather than CRLF: its size does not match its data`);
      parts.push(bytes.slice(p, Math.min(p + n, bytes.length)));
      return unfinished();
    }
    parts.push(bytes.slice(p, p + n));
    const crlf = bytes[p + n] === 0x0d && bytes[p + n + 1] === 0x0a;
    const lf = bytes[p + n] === 0x0a;
    if (!crlf && !lf) return broken(p + n, `a chunk of ${n} bytes is followed by ${showBytes(bytes, p + n, p + n + 20)} rather than CRLF: its size does not match its data`);
    if (lf) problems.push({ kind: 'bare-lf', at: p + n, detail: 'a chunk ends in a bare LF' });
    p += n + (crlf ? 2 : 1);
  }
}

function readLine(bytes: Uint8Array, at: number, limit: number): { text: string; end: number; bare: boolean } | 'more' | 'too-long' {
  const stop = Math.min(bytes.length, at + limit);
  for (let i = at; i < stop; i++) {
    if (bytes[i] !== 0x0a) continue;
    const bare = i === at || bytes[i - 1] !== 0x0d;
    return { text: Buffer.from(bytes.buffer, bytes.byteOffset + at, (bare ? i : i - 1) - at).toString('latin1'), end: i + 1, bare };
  }
  return stop - at >= limit ? 'too-long' : 'more';
}
