// A response's head read from the bytes as they came (RFC 9112, 2-5): the status line and the field
// lines, each break of the grammar named with where it is, so a judge can say what a client trips on.

/** What in a head breaks RFC 9112's grammar. `bare-lf` alone is tolerated by most clients (RFC 9112, 2.2: a recipient MAY accept it). */
export type HeadProblemKind = 'status-line' | 'bare-lf' | 'obs-fold' | 'space-before-colon' | 'field-syntax' | 'field-value' | 'head-too-long';

export interface HeadProblem {
  kind: HeadProblemKind;
  /** Offset in the bytes read. */
  at: number;
  detail: string;
}

export interface MessageHead {
  /** Offset of the status line, and just past the empty line that ends the head. */
  start: number;
  end: number;
  statusLine: string;
  /** `1.1` or `1.0` as the status line says; empty when the line is not one. */
  version: string;
  /** 0 when the status line has no status code. */
  status: number;
  /** Field lines in order: the name as sent, the value without surrounding whitespace. */
  fields: [string, string][];
  problems: HeadProblem[];
}

export type HeadRead =
  | { kind: 'head'; head: MessageHead }
  /** The head has not ended in the bytes so far; what came of it, for a report of an answer that stalled. */
  | { kind: 'more'; head: MessageHead }
  /** The bytes at the offset do not start a status line. */
  | { kind: 'not-http' };

/** The longest head read before it is judged one that never ends. Node's own parser refuses past 16 KiB. */
export const maxHeadBytes = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const prefix = [0x48, 0x54, 0x54, 0x50, 0x2f]; // "HTTP/"
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// field-vchar, SP, HTAB and obs-text: no other control character (RFC 9110, 5.5).
const badValueChar = /[\x00-\x08\x0a-\x1f\x7f]/;

/** Bytes as text, one character per byte (obs-text kept), as node's parser hands header values over. */
export const latin1 = (bytes: Uint8Array, from = 0, to = bytes.length): string => Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, to - from)).toString('latin1');

/** Whether the bytes at `at` start a status line ("HTTP/"), or could once more come: true, false or 'maybe'. */
export function startsStatusLine(bytes: Uint8Array, at: number): boolean | 'maybe' {
  for (let i = 0; i < prefix.length; i++) {
    if (at + i >= bytes.length) return 'maybe';
    if (bytes[at + i] !== prefix[i]) return false;
  }
  return true;
}

/** `"HTTP/1.1 200 OK\r\n"`: bytes shown as a JSON string, cut past `max` characters. */
export function showBytes(bytes: Uint8Array, from: number, to: number, max = 80): string {
  const shown = latin1(bytes, from, Math.min(to, from + max));
  return `${JSON.stringify(shown)}${to - from > max ? '…' : ''}`;
}

/**
 * Reads the head that starts at `at`: the status line (HTTP-version SP status-code SP reason) and the
 * field lines up to the empty line. Lines end in CRLF; a bare LF is read as one and noted. Reads at
 * most `maxHeadBytes`: past that the head is one that never ends.
 */
export function readHead(bytes: Uint8Array, at: number, limit = maxHeadBytes): HeadRead {
  const starts = startsStatusLine(bytes, at);
  if (starts === false) return { kind: 'not-http' };
  const head: MessageHead = { start: at, end: at, statusLine: '', version: '', status: 0, fields: [], problems: [] };
  if (starts === 'maybe') return { kind: 'more', head };
  let p = at;
  let first = true;
  const stop = Math.min(bytes.length, at + limit);
  while (true) {
    let lf = -1;
    for (let i = p; i < stop; i++) {
      if (bytes[i] === LF) {
        lf = i;
        break;
      }
    }
    if (lf < 0) {
      if (stop - at >= limit) head.problems.push({ kind: 'head-too-long', at, detail: `the head had not ended after ${limit} bytes` });
      return { kind: 'more', head };
    }
    const bare = lf === p || bytes[lf - 1] !== CR;
    const lineEnd = bare ? lf : lf - 1;
    if (bare) head.problems.push({ kind: 'bare-lf', at: lf, detail: `a line ends in a bare LF at byte ${lf - at} of the head` });
    const line = latin1(bytes, p, lineEnd);
    const lineAt = p;
    p = lf + 1;
    if (first) {
      first = false;
      head.statusLine = line;
      readStatusLine(line, lineAt, head);
      continue;
    }
    if (line === '') {
      head.end = p;
      return { kind: 'head', head };
    }
    readFieldLine(line, lineAt, head);
  }
}

function readStatusLine(line: string, at: number, head: MessageHead): void {
  // status-line = HTTP-version SP status-code SP [ reason-phrase ] (RFC 9112, 4); a line without
  // the space after the code is read too, as clients do.
  const strict = /^HTTP\/(\d)\.(\d) (\d{3})(?: ([\t\x20-\x7e\x80-\xff]*))?$/.exec(line);
  if (strict) {
    head.version = `${strict[1]}.${strict[2]}`;
    head.status = Number(strict[3]);
    return;
  }
  const loose = /^HTTP\/(\d)\.(\d)\s+(\d{3})/.exec(line);
  if (loose) {
    head.version = `${loose[1]}.${loose[2]}`;
    head.status = Number(loose[3]);
  }
  head.problems.push({ kind: 'status-line', at, detail: `the status line ${JSON.stringify(line.slice(0, 80))} is not HTTP-version SP 3-digit status SP reason` });
}

function readFieldLine(line: string, at: number, head: MessageHead): void {
  if (line.includes('\r')) head.problems.push({ kind: 'field-value', at, detail: `the field line ${JSON.stringify(line.slice(0, 80))} holds a CR that ends no line` });
  if (line[0] === ' ' || line[0] === '\t') {
    head.problems.push({ kind: 'obs-fold', at, detail: `the field line ${JSON.stringify(line.slice(0, 80))} continues the one before (obsolete line folding)` });
    const last = head.fields[head.fields.length - 1];
    if (last) last[1] = `${last[1]} ${line.trim()}`;
    return;
  }
  const colon = line.indexOf(':');
  if (colon < 0) {
    head.problems.push({ kind: 'field-syntax', at, detail: `the field line ${JSON.stringify(line.slice(0, 80))} has no colon` });
    return;
  }
  const name = line.slice(0, colon);
  const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
  if (/[ \t]$/.test(name)) head.problems.push({ kind: 'space-before-colon', at, detail: `the field name ${JSON.stringify(name)} has whitespace before its colon` });
  else if (!token.test(name)) head.problems.push({ kind: 'field-syntax', at, detail: `the field name ${JSON.stringify(name.slice(0, 40))} is not a token` });
  if (badValueChar.test(value)) head.problems.push({ kind: 'field-value', at, detail: `the value of ${name.trim()} holds a control character` });
  head.fields.push([name.trim(), value]);
}

/** The values of a field (names compared without case), each line's comma-separated members. */
export function fieldMembers(head: Pick<MessageHead, 'fields'>, name: string): string[] {
  return head.fields.filter(([n]) => n.toLowerCase() === name).flatMap(([, v]) => v.split(',').map((m) => m.trim()).filter((m) => m !== ''));
}
