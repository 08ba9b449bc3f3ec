import http from 'node:http';
import https from 'node:https';
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import zlib from 'node:zlib';
import type { RawSocket } from './rawHttp.ts';
import { maxHeadBytes, readHead, showBytes } from './messageHead.ts';

/** What the suite needs of HTTP: send one request, get status, headers and body back. */
export interface TransportRequest {
  method: string;
  url: string;
  /** Sent with their names exactly as given (`AUTHORIZATION` stays upper case on the wire). */
  headers: Record<string, string>;
  body?: string;
  connection?: ConnectionChoice;
}

/**
 * How the request reaches the server, where a client has a choice: on a connection of its own
 * rather than a kept-alive one, and from which local address (a client behind another NAT
 * address; only a loopback target has more than one to offer).
 */
export interface ConnectionChoice {
  fresh?: boolean;
  localAddress?: string;
}

export interface TransportResponse {
  status: number;
  /** Header names in lower case; a header received more than once has its values joined with ", ". */
  headers: Record<string, string>;
  /** Every header line as received, in order: names in lower case, a repeated header once per line. */
  rawHeaders: [string, string][];
  /** `bytes` read as UTF-8, a BOM kept (U+FEFF) and a malformed sequence shown as U+FFFD. */
  body: string;
  /** The body as received, after content-decoding (gzip, deflate, br): a BOM or Latin-1 stays as sent. */
  bytes: Uint8Array;
  /** The body was longer than the transport keeps (`maxBodyBytes`): `bytes` is its start. */
  truncated?: boolean;
}

export interface Transport {
  send(request: TransportRequest, timeoutMs: number): Promise<TransportResponse>;
  /**
   * A local address other than the usual one this transport can send from to `url`, as a client
   * behind another NAT address would; undefined when it has none (a target that is not loopback).
   */
  otherLocalAddress?(url: string): Promise<string | undefined>;
  /** Lets go of what the transport holds (kept-alive connections). */
  close?(): Promise<void> | void;
  /**
   * Opens a raw connection to the URL's origin (TCP, or TLS offering only http/1.1), for the
   * framing probe, which writes and reads its own bytes. Absent where there is no socket (in-process).
   */
  openConnection?(url: string, timeoutMs: number): Promise<RawSocket>;
}

/** The target did not answer: refused, reset, unresolvable, or too slow. */
export class TransportError extends Error {
  /** Nothing at all came within the time (no status line): the only failure a silent operation is judged by. */
  readonly timedOut: boolean;
  /** The bytes that came break HTTP/1.1 (node's parser refused them): no network blip does that, so it is not sent again. */
  readonly malformed: boolean;

  /**
   * @param partial What arrived before the failure, when the status line did: an answer that
   * starts and never finishes, or that breaks HTTP/1.1's framing, is the deployment's to explain,
   * and judged as unreadable once retries show the same.
   */
  constructor(message: string, readonly url: string, readonly partial?: TransportResponse, options: { timedOut?: boolean; malformed?: boolean } = {}) {
    super(message);
    this.name = 'TransportError';
    this.timedOut = options.timedOut ?? false;
    this.malformed = options.malformed ?? false;
  }
}

export interface HttpTransportOptions {
  /** The most body bytes kept, before and after content-decoding; past it the connection is dropped and the answer is `truncated`. Default 8 MiB. */
  maxBodyBytes?: number;
}

export const defaultMaxBodyBytes = 4 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** The body as text, as the checks read it: UTF-8, non-fatal, a BOM kept. */
export const bodyText = (bytes: Uint8Array): string => utf8.decode(bytes);

/** `rawHeaders` as a record: lower-case names, repeated values joined with ", " (RFC 9110, 5.3). */
function joinHeaders(rawHeaders: readonly (readonly [string, string])[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of rawHeaders) headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  return headers;
}

type Coding = 'gzip' | 'deflate' | 'br' | 'zstd';
/** zstd's decoder, where this Node has one (22.15 and later). */
const zstdDecompress = (zlib as unknown as { createZstdDecompress?: () => NodeJS.ReadWriteStream }).createZstdDecompress;
const codings: Record<string, Coding> = { gzip: 'gzip', 'x-gzip': 'gzip', deflate: 'deflate', br: 'br', ...(zstdDecompress ? { zstd: 'zstd' as const } : {}) };

/** The content codings the transport undoes: what a client may put in Accept-Encoding. */
export const decodableCodings: readonly string[] = ['gzip', 'deflate', 'br', ...(zstdDecompress ? ['zstd'] : [])];

/** The codings to undo, first applied first; undefined when one is unknown (the body is then left as is). */
function contentCodings(contentEncoding: string | undefined): Coding[] | undefined {
  const named = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  const known = named.map((c) => codings[c]);
  return known.every((c) => c !== undefined) ? (known as Coding[]) : undefined;
}

/** Undoes one coding, keeping at most `cap` bytes of what it inflates to: a bomb stops at the cap. */
function inflateCapped(input: Uint8Array, coding: Coding, cap: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  // Lenient at the end, as browsers are: a stream cut short gives what it holds, not an error.
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const decoder =
    coding === 'zstd' ? (zstdDecompress!() as unknown as zlib.Gunzip)
    : coding === 'br' ? zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
    : coding === 'gzip' ? zlib.createGunzip(flush)
    // "deflate" is meant to be zlib-wrapped (RFC 9110, 8.4.1.2); some servers send it raw.
    : (input[0]! & 0x0f) === 0x08 ? zlib.createInflate(flush)
    : zlib.createInflateRaw(flush);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (truncated: boolean) => {
      done = true;
      resolve({ bytes: new Uint8Array(Buffer.concat(chunks, size)), truncated });
    };
    decoder.on('data', (chunk: Buffer) => {
      if (done) return;
      if (size + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - size));
        size = cap;
        decoder.destroy();
        finish(true);
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    decoder.on('end', () => !done && finish(false));
    decoder.on('error', (error) => {
      if (done) return;
      done = true;
      reject(error);
    });
    decoder.end(input);
  });
}

/**
 * The body after undoing its Content-Encoding (gzip, x-gzip, deflate, br, in the order they were
 * applied), at most `cap` bytes of it. An unknown coding leaves the body as it came. Throws what
 * zlib throws when the body is not what its coding says.
 */
export async function decodeContent(bytes: Uint8Array, contentEncoding: string | undefined, cap: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const steps = contentCodings(contentEncoding);
  if (!steps || bytes.length === 0) return { bytes, truncated: false };
  let out = { bytes, truncated: false };
  for (const coding of steps.reverse()) {
    if (out.bytes.length === 0) break;
    const next = await inflateCapped(out.bytes, coding, cap);
    out = { bytes: next.bytes, truncated: out.truncated || next.truncated };
  }
  return out;
}

/**
 * An answer as the transport gives it from what a server wrote: header values (an array: one line
 * each) and a body as text (sent as UTF-8) or bytes (as they are). No content-decoding here.
 */
export function responseOf(status: number, headers: Record<string, string | readonly string[]>, body: string | Uint8Array, truncated = false): TransportResponse {
  const rawHeaders: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    for (const one of typeof value === 'string' ? [value] : value) rawHeaders.push([name.toLowerCase(), one]);
  }
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  return { status, headers: joinHeaders(rawHeaders), rawHeaders, body: bodyText(bytes), bytes, ...(truncated ? { truncated: true } : {}) };
}

/** Why a request failed, in words a report can show: the system's code (ECONNREFUSED, ECONNRESET) with its message. */
function failureReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (!code || message.includes(code)) return message || code || String(error);
  return `${message} (${code})`;
}

/** An answer that has no body whatever its Content-Length says: to HEAD, and 1xx, 204, 304 (RFC 9110, 6.4.1). */
export const hasNoBody = (method: string, status: number) => method.toUpperCase() === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);

/** Node's HTTP parser refused the bytes (HPE_*): the deployment's answer breaks HTTP/1.1, whatever the network did. */
const isParseError = (error: NodeJS.ErrnoException) => typeof error.code === 'string' && error.code.startsWith('HPE_');

/** Where the parser stopped and what it met there: `at byte 85 of what came: "\"}]"`. */
function parseErrorPlace(error: NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: Buffer }): string {
  const packet = error.rawPacket;
  if (!packet || error.bytesParsed === undefined) return '';
  const packetBytes = new Uint8Array(packet.buffer, packet.byteOffset, packet.length);
  return `, at byte ${error.bytesParsed} of the packet it read: ${showBytes(packetBytes, error.bytesParsed, packet.length, 60)}`;
}

/** The head before node's parser produced an answer (a stall after the status line, a refused head), when a status line came. */
function answerFromHead(bytes: Uint8Array): TransportResponse | undefined {
  const read = readHead(bytes, 0);
  if (read.kind === 'not-http' || read.head.status === 0) return undefined;
  const rawHeaders = read.head.fields.map(([name, value]): [string, string] => [name.toLowerCase(), value]);
  const body = read.kind === 'head' ? bytes.slice(read.head.end) : new Uint8Array(0);
  return { status: read.head.status, headers: joinHeaders(rawHeaders), rawHeaders, body: bodyText(body), bytes: body, truncated: true };
}

/** What is kept of the bytes a request's socket gives before its answer's head is parsed: enough for any head node reads. */
const headCapture = maxHeadBytes;

/** Reset on a kept-alive connection the server had just closed: sent once more on a new one, for a safe method. */
const staleConnection = (error: NodeJS.ErrnoException) => error.code === 'ECONNRESET' || error.code === 'EPIPE';
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * HTTP/1.1 through `node:http` and `node:https`, so the suite sees the answer as it came: the body's
 * bytes (a BOM, Latin-1), every header line (a header twice stays twice), header names sent in the
 * case given. One kept-alive connection per origin is reused from request to request; `close()`
 * drops it. `timeoutMs` bounds the whole exchange, body included. A body past `maxBodyBytes` is
 * cut there (the connection dropped), and so is what a gzip, deflate or br body inflates to.
 * Accept-Encoding is sent only when the caller sets it; redirects are not followed.
 */
export function httpTransport(options: HttpTransportOptions = {}): Transport {
  const cap = options.maxBodyBytes ?? defaultMaxBodyBytes;
  // An idle connection is let go after 4 s (or the server's Keep-Alive hint, less a second).
  const agents = { 'http:': new http.Agent({ keepAlive: true, timeout: 4_000 }), 'https:': new https.Agent({ keepAlive: true, timeout: 4_000 }) };

  function attempt(request: TransportRequest, target: URL, deadline: AbortSignal, timeoutMs: number): Promise<TransportResponse> {
    const { method, headers, body } = request;
    const fail = (reason: string, partial?: TransportResponse, options: { timedOut?: boolean; malformed?: boolean } = {}) => new TransportError(`${method} ${request.url} failed: ${reason}`, request.url, partial, options);
    /** The answer as far as it came: status, headers and the bytes read, marked truncated. */
    let soFar: (() => TransportResponse) | undefined;
    return new Promise<TransportResponse>((resolve, reject) => {
      let settled = false;
      /** Body bytes read so far; -1 until the status line and headers are in. */
      let received = -1;
      let req: http.ClientRequest;
      let response: http.IncomingMessage | undefined;
      /** Node's parser refused what came after the answer's head: the answer is judged with that said. */
      let framingError: (() => string) | undefined;
      // What the socket gives until node has parsed a head: a head it refuses or that stalls is still the deployment's evidence.
      let socket: Socket | undefined;
      const head: Buffer[] = [];
      let headBytes = 0;
      const onSocketData = (chunk: Buffer) => {
        if (headBytes >= headCapture) return;
        const kept = Buffer.from(chunk.subarray(0, headCapture - headBytes));
        head.push(kept);
        headBytes += kept.length;
      };
      const stopCapture = () => socket?.off('data', onSocketData);
      const headSoFar = () => answerFromHead(new Uint8Array(Buffer.concat(head, headBytes)));
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        stopCapture();
        deadline.removeEventListener('abort', onDeadline);
        outcome();
      };
      const onDeadline = () => settle(() => {
        req.destroy();
        if (received >= 0) {
          reject(fail(`the body did not end within ${timeoutMs} ms (${received} bytes read)`, soFar?.()));
          return;
        }
        // The status line came and the rest of the head did not: a stall the deployment has to explain.
        const started = headSoFar();
        reject(started ? fail(`the status line came (${started.status}) but the head did not end within ${timeoutMs} ms (${headBytes} bytes read)`, started) : fail(`no answer within ${timeoutMs} ms`, undefined, { timedOut: true }));
      });
      const lib = target.protocol === 'https:' ? https : http;
      try {
        // A fresh connection is one no other request shares: a one-off agent, closed after it.
        const agent = request.connection?.fresh ? false : agents[target.protocol as 'http:' | 'https:'];
        req = lib.request(target, { method, headers, agent, ...(request.connection?.localAddress !== undefined ? { localAddress: request.connection.localAddress } : {}) });
      } catch (error) {
        // An invalid header name or value.
        reject(fail(failureReason(error)));
        return;
      }
      req.on('socket', (s: Socket) => {
        socket = s;
        // Before node's own listener, so a chunk its parser refuses is already kept when the error comes.
        s.prependListener('data', onSocketData);
      });
      // Once the body is all in or cut, what the dropped connection says is of no interest.
      let ended = false;
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (ended || settled) return;
        if (isParseError(error)) {
          const why = `its answer breaks HTTP/1.1 framing: ${failureReason(error)}${parseErrorPlace(error)}`;
          if (response) {
            // After the head: the body as framed is read to its end (or the close) and judged with this said.
            const complete = response.complete;
            framingError = () => (complete ? `${why}; it came after the ${received} body bytes the answer's framing counts, so that framing does not count the whole body` : why);
            return;
          }
          const started = headSoFar();
          settle(() => {
            req.destroy();
            reject(fail(why, started, { malformed: true }));
          });
          return;
        }
        settle(() => {
          req.destroy();
          if (received < 0 && req.reusedSocket && staleConnection(error) && safeMethods.has(method.toUpperCase())) {
            resolve(attempt(request, target, deadline, timeoutMs));
            return;
          }
          reject(fail(failureReason(error)));
        });
      });
      if (deadline.aborted) return onDeadline();
      deadline.addEventListener('abort', onDeadline);
      req.on('response', (res) => {
        response = res;
        received = 0;
        stopCapture();
        const rawHeaders: [string, string][] = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) rawHeaders.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        const status = res.statusCode ?? 0;
        const joined = joinHeaders(rawHeaders);
        const chunks: Buffer[] = [];
        soFar = () => {
          const bytes = new Uint8Array(Buffer.concat(chunks, Math.max(received, 0)));
          return { status, headers: joined, rawHeaders, body: bodyText(bytes), bytes, truncated: true };
        };
        const done = (cut: boolean) => {
          if (ended || settled) return;
          ended = true;
          if (cut) {
            res.destroy();
            req.destroy();
          }
          if (framingError !== undefined) {
            const why = framingError();
            settle(() => reject(fail(why, soFar?.(), { malformed: true })));
            return;
          }
          decodeContent(new Uint8Array(Buffer.concat(chunks, received)), joined['content-encoding'], cap).then(
            (decoded) => settle(() => {
              const truncated = cut || decoded.truncated;
              resolve({ status, headers: joined, rawHeaders, body: bodyText(decoded.bytes), bytes: decoded.bytes, ...(truncated ? { truncated: true } : {}) });
            }),
            // An answer whose body cannot be decoded as it says is the deployment's to explain: the
            // raw bytes go with the error, to be judged unreadable once retries show the same.
            (error: Error) => settle(() => reject(fail(`its body is not valid ${joined['content-encoding']}: ${failureReason(error)}`, soFar?.()))),
          );
        };
        res.on('error', (error: NodeJS.ErrnoException) => !ended && settle(() => {
          req.destroy();
          reject(fail(`${framingError?.() ?? failureReason(error)} after ${received} bytes of the body`, soFar?.(), { malformed: framingError !== undefined }));
        }));
        res.on('close', () => {
          if (!ended && !res.complete) settle(() => reject(fail(framingError !== undefined ? `${framingError()} (after ${received} bytes of the body)` : `the connection closed after ${received} bytes of the body`, soFar?.(), { malformed: framingError !== undefined })));
        });
        // A length past the cap announced: nothing of it is read.
        const length = joined['content-length'];
        if (!hasNoBody(method, status) && length !== undefined && /^\d+$/.test(length) && Number(length) > cap) return done(true);
        res.on('data', (chunk: Buffer) => {
          if (ended || settled) return;
          if (received + chunk.length > cap) {
            chunks.push(chunk.subarray(0, cap - received));
            received = cap;
            return done(true);
          }
          chunks.push(chunk);
          received += chunk.length;
        });
        res.on('end', () => done(false));
      });
      if (body !== undefined) req.end(body);
      else req.end();
    });
  }

  const bindable = new Map<string, Promise<boolean>>();
  return {
    // Only a loopback target has other addresses to come from: 127.0.0.0/8 is the host's own
    // (RFC 1122, 3.2.1.3), though some systems bind only 127.0.0.1 to it, so try before offering one.
    otherLocalAddress(url) {
      let host: string;
      try {
        host = new URL(url).hostname;
      } catch {
        return Promise.resolve(undefined);
      }
      if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return Promise.resolve(undefined);
      const other = host === '127.0.0.2' ? '127.0.0.3' : '127.0.0.2';
      if (!bindable.has(other)) bindable.set(other, canBind(other));
      return bindable.get(other)!.then((ok) => (ok ? other : undefined));
    },
    async send(request, timeoutMs) {
      let target: URL;
      try {
        target = new URL(request.url);
      } catch {
        throw new TransportError(`${request.method} ${request.url} failed: not a URL`, request.url);
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new TransportError(`${request.method} ${request.url} failed: ${target.protocol} is neither http: nor https:`, request.url);
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), timeoutMs);
      try {
        return await attempt(request, target, deadline.signal, timeoutMs);
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
    openConnection: openRawConnection,
  };
}

/** Whether this host can bind a socket to `address` (a loopback address other than 127.0.0.1 may not exist). */
function canBind(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(0, address, () => server.close(() => resolve(true)));
  });
}

/** A TCP connection to the URL's origin, or TLS with the server's name checked and only http/1.1 offered. */
export function openRawConnection(url: string, timeoutMs: number): Promise<RawSocket> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const port = Number(target.port || (secure ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket: Socket = secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] }, () => done())
      : net.connect({ host, port }, () => done());
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no connection to ${target.host} within ${timeoutMs} ms`));
    }, timeoutMs);
    const onError = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    socket.once('error', onError);
    function done() {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    }
  });
}
