// A validating proxy: forwards every request to the deployment unchanged and every answer back
// unchanged, and judges a copy of each exchange with the suite's model (issue 19). It never
// manufactures, repairs or holds back an answer: when the deployment gives none, neither does it.
// Only requests it cannot read (a header section past its cap, one not sent in time, one that is
// not HTTP) get an answer of its own, an Error, and never reach the deployment. Whatever a client
// sends, the work per request is linear in its size and bounded, the judging yields to the
// traffic (proxyJudge.ts), and what a connection held is let go when it closes.
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { loadSpec, type LoadedSpec } from '../../spec/loadSpec.ts';
import { bodyText, decodeContent, defaultMaxBodyBytes } from '../http/transport.ts';
import { SpecValidators } from '../specValidators.ts';
import { cappedHeaders } from './keptText.ts';
import { ProxyJudge, type LiveReport, type ProxyVerdict } from './proxyJudge.ts';
import type { ProxyRecord } from './proxyRecord.ts';
import { controlTokenCheck } from './reportToken.ts';
import { ProxyUsage } from './proxyUsage.ts';
import type { UsageFile } from '../../common/usage/clientUsage.ts';

export interface ProxyOptions {
  /** The deployment's base URL, e.g. `https://staging.example/v1`. */
  target: string;
  port?: number;
  host?: string;
  spec?: LoadedSpec;
  /** The most bytes of one body kept for judging, after decoding; the whole body is forwarded regardless. */
  maxBody?: number;
  /** Others use the keys beside the proxy. */
  sharedKey?: boolean;
  /** How many exchanges the reports keep, the last ones (default 10,000); every exchange is judged, kept or not. */
  maxRecords?: number;
  /** Characters of headers and bodies the exchanges kept for the reports hold at most (default 64 Mi). */
  maxReportBytes?: number;
  /** How long the deployment may take to answer before the proxy gives the client no answer either. */
  timeoutMs?: number;
  /**
   * The most bytes of bodies held for judging, of exchanges in flight and of those ended but not
   * judged yet (default 64 MiB): an exchange that would pass it is forwarded and counted, not judged.
   */
  maxKeptBytes?: number;
  /** The longest header section read either way (default 256 KiB): a longer request is answered 431. */
  maxHeaderSize?: number;
  /** The most header lines a request may carry (default 2,000, Node's own count): a request with more is answered 431. */
  maxHeaderCount?: number;
  /** How long a client may take to send a request's head (default 20 s) and the whole request (default 120 s): then 408. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** How long a connection may stay silent both ways before it is closed (default the deployment's timeout plus 5 s). */
  idleTimeoutMs?: number;
  /**
   * When set, `GET /__proxy/report` needs `Authorization: Bearer <controlToken>` (else 401 with an
   * Error), as the mock's control API does with its `controlToken`.
   */
  controlToken?: string;
  /** How long judging may hold the thread at a time before the traffic goes first (default 4 ms; 0: after every step). */
  judgeSliceMs?: number;
  /**
   * The wall clock the exchanges are stamped with (default `Date.now`): a deployment on a clock of
   * its own (a mock whose time a test moves) is judged against that clock, as the suite's `now` does.
   */
  now?: () => number;
}

/** What the proxy holds now: each count returns to 0 once its traffic is gone. */
export interface ProxyStats {
  /** Client connections open. */
  connections: number;
  /** Exchanges whose request arrived and whose answer has not ended. */
  inFlight: number;
  /** Bytes of bodies held for judging (in flight and waiting to be judged). */
  heldBytes: number;
  /** Exchanges forwarded and not judged yet. */
  waiting: number;
  /** Exchanges kept for the reports, the characters they hold, and the judged ones no longer kept. */
  kept: number;
  keptSize: number;
  dropped: number;
  /** Requests the proxy answered itself (431, 408, 400): never forwarded. */
  refused: number;
}

export interface RunningProxy {
  /** Where clients send their requests, e.g. `http://127.0.0.1:8080`: the same paths as the target's. */
  url: string;
  /** Every exchange forwarded so far, judged or not. */
  forwarded(): number;
  /** The suite's judgement of the traffic so far. */
  judge(): Promise<ProxyVerdict>;
  /** What `GET /__proxy/report` answers. */
  live(): Promise<LiveReport>;
  /** Each client's usage of the contract so far, as `GET /__proxy/usage` answers it (docs/usage.md). */
  usage(): Promise<UsageFile>;
  stats(): ProxyStats;
  /**
   * Stops accepting, lets exchanges in flight finish for a grace (the timeout, at most 5 s), then
   * cuts those still open, and resolves when the server is closed.
   */
  close(): Promise<void>;
}

/** The path the proxy answers itself; everything else goes to the deployment. */
export const proxyReportPath = '/__proxy/report';

/** The path where the proxy answers each client's usage of the contract (a usage file for `pets-conformance --usage`). */
export const proxyUsagePath = '/__proxy/usage';

/** Bytes of bodies kept for judging in all: bounded whatever flows through. */
const keptBudget = 64 * 1024 * 1024;

/** The longest header section passed on either way: a deployment's may be longer than Node's 16 KiB default. */
export const defaultMaxHeaderSize = 256 * 1024;

/** The most header lines of a request passed on: Node's own default, far beyond any client's. */
export const defaultMaxHeaderCount = 2_000;

// RFC 9110, 7.6.1: connection-specific fields are not forwarded by a proxy; Host names the target.
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`--target ${options.target} is not an http or https URL. Give the deployment's base URL, such as https://staging.example.com/v1.`);
  const spec = options.spec ?? (await loadSpec());
  const validators = new SpecValidators(spec);
  const maxBody = options.maxBody ?? defaultMaxBodyBytes;
  const maxKept = options.maxKeptBytes ?? keptBudget;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxHeaderSize = options.maxHeaderSize ?? defaultMaxHeaderSize;
  const maxHeaderCount = options.maxHeaderCount ?? defaultMaxHeaderCount;
  const headersTimeout = options.headersTimeoutMs ?? 20_000;
  const requestTimeout = options.requestTimeoutMs ?? 120_000;
  if (headersTimeout > requestTimeout) throw new Error(`The headers timeout (${headersTimeout} ms) is longer than the request timeout (${requestTimeout} ms): a request's head is part of it. Give a headers timeout no longer than the request timeout.`);
  const reportGuard = options.controlToken !== undefined ? controlTokenCheck(options.controlToken) : undefined;
  const now = options.now ?? Date.now;
  const judge = new ProxyJudge({ spec, validators, target: options.target, sharedKey: options.sharedKey ?? false, startedAt: now(), maxRetained: options.maxRecords ?? 10_000, maxRetainedBytes: options.maxReportBytes ?? 64 * 1024 * 1024, maxWaitMs: timeoutMs, ...(options.judgeSliceMs !== undefined ? { sliceMs: options.judgeSliceMs } : {}) });
  const usage = new ProxyUsage(options.target);
  let seq = 0;
  /** Bytes of bodies held for judging: captured of exchanges in flight, and of those ended but not judged yet. */
  let held = 0;
  let closing = false;
  /** `close`'s grace has ended: exchanges still open are being cut by the proxy itself. */
  let cutting = false;

  /** Exchanges whose answer has ended and is being decoded: judged once decoded. */
  const settling = new Set<Promise<void>>();
  /** Exchanges not yet handed to the judge: `close` waits for them once their connections are closed. */
  const inFlight = new Set<Promise<void>>();
  /** Their requests to the deployment, torn down when `close`'s grace ends. */
  const upstreams = new Set<ClientRequest>();
  const connections = new Set<Socket>();
  /** The answer each connection is writing, if any: a request it cannot read then only closes it. */
  const answering = new WeakMap<Socket, ServerResponse>();
  /** The answers being decoded when asked (not those that start meanwhile: under steady traffic there always are some). */
  const settled = () => Promise.all([...settling]);

  const server = createServer({ maxHeaderSize, headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(50, Math.min(headersTimeout, requestTimeout, 30_000) / 4) }, (req, res) => {
    answering.set(req.socket, res);
    const answered = () => {
      if (answering.get(req.socket) === res) answering.delete(req.socket);
    };
    res.on('close', answered);
    // Once closing, a kept-alive connection is closed as soon as its exchange ends.
    res.on('finish', () => {
      answered();
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    if (req.rawHeaders.length / 2 > maxHeaderCount) {
      refuse(res, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE', `The request has more header lines than the proxy passes on (${maxHeaderCount.toLocaleString('en-US')}, --max-header-count), so it was not forwarded. Send fewer headers.`);
      return;
    }
    if (req.method === 'GET' && req.url === proxyReportPath) {
      report(req, res);
      return;
    }
    if (req.method === 'GET' && req.url === proxyUsagePath) {
      usageAnswer(req, res);
      return;
    }
    forward(req, res, ++seq);
  });
  // Node keeps this many header lines and drops the rest unsaid: one more than passed on, so a
  // request with too many is seen to have them, and refused, after reading no more than that.
  server.maxHeadersCount = maxHeaderCount + 1;
  // A connection silent both ways for longer than the deployment may take is closed.
  server.timeout = options.idleTimeoutMs ?? timeoutMs + 5_000;
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  // A request the proxy cannot read: answered by the proxy with an Error, as Node would with an
  // empty body, unless an answer is already under way on the connection, which is then closed.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const answer = clientErrorAnswer(error, maxHeaderSize, headersTimeout, requestTimeout);
    if (answer && socket.writable && !answering.get(socket)?.headersSent) {
      judge.refusedByProxy();
      socket.write(answer);
    }
    socket.destroy();
  });

  /** The proxy's own answer to a request it will not pass on: an Error, and the connection closed. */
  function refuse(res: ServerResponse, status: number, code: string, message: string): void {
    judge.refusedByProxy();
    res.shouldKeepAlive = false;
    sendJson(res, status, { code, message, status });
  }

  /** A JSON answer of the proxy's own endpoints, never stored by a cache. */
  function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
    const body = JSON.stringify(value);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...headers }).end(body);
  }

  /**
   * An endpoint of the proxy's own (`/__proxy/…`): the token first, when there is one; the request's
   * own body drained, not read, so the connection can carry the next one; then `answer`'s value
   * once every answer in flight is judged.
   */
  function ownEndpoint(req: IncomingMessage, res: ServerResponse, what: string, answer: () => unknown): void {
    const refusal = reportGuard?.(req.headers.authorization);
    if (refusal) return sendJson(res, refusal.status, refusal.body, refusal.headers);
    req.resume();
    void settled()
      .then(answer)
      .then(
        (value) => sendJson(res, 200, value),
        (error: Error) => sendJson(res, 500, { code: 'PROXY_REPORT_FAILED', message: `The proxy could not render its ${what}: ${error.message}`, status: 500 }),
      );
  }

  /** `GET /__proxy/report`: the findings so far, rendered from what the judge keeps. */
  function report(req: IncomingMessage, res: ServerResponse): void {
    ownEndpoint(req, res, 'report', () => judge.live());
  }

  /** `GET /__proxy/usage`: each client's usage so far. */
  function usageAnswer(req: IncomingMessage, res: ServerResponse): void {
    ownEndpoint(req, res, 'usage', () => usage.file());
  }

  function forward(req: IncomingMessage, res: ServerResponse, mySeq: number): void {
    const sentAt = now();
    const started = performance.now();
    judge.arrived(mySeq, started);
    // The header lines as they came, names as spelled and in order, each copied once.
    const lines: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      if (!hopByHop.has(name.toLowerCase())) lines.push(name, req.rawHeaders[i + 1]!);
    }
    lines.push('Host', target.host);
    // Its headers as the judges read them are built when it ends: while it is open, Node's copy is the only one.
    const record: ProxyRecord = { seq: mySeq, sentAt, method: req.method ?? 'GET', url: req.url ?? '/', requestHeaders: {} };
    const requestChunks = capture();
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send({ protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: lines, timeout: timeoutMs, maxHeaderSize });
    // Every header line of the answer, however many (Node drops those past about a thousand unless told): the header size still bounds them.
    upstream.maxHeadersCount = 0;
    upstreams.add(upstream);
    let finished = false;
    let ended!: () => void;
    const flight = new Promise<void>((resolve) => (ended = resolve));
    inFlight.add(flight);
    void flight.then(() => inFlight.delete(flight));
    let answered = false;
    let clientLeft = false;
    let cutByProxy = false;
    let timedOut: string | undefined;
    /** Ends the client's connection as the deployment's ended: without an answer, or mid-body. */
    const cutClient = () => {
      cutByProxy = true;
      res.destroy();
    };
    /** Why the exchange ended before the deployment's answer did, when the client or the proxy ended it. */
    const cutShort = () => (cutting || (clientLeft && closing) ? 'the proxy stopped before the answer' : clientLeft ? 'the client closed the connection before the answer' : undefined);
    const done = (answer?: ProxyRecord['response'], error?: string, dropped = false) => {
      if (finished) return;
      finished = true;
      // Judged whole when answered; without an answer only its key is read, and the reports keep its head cut.
      if (answer) record.requestHeaders = joined(req.rawHeaders);
      else {
        record.requestHeaders = cappedHeaders(req.rawHeaders);
        record.headersCut = true;
      }
      const body = requestChunks.take();
      if (body.bytes.length > 0) {
        record.requestBody = bodyText(body.bytes);
        if (body.truncated) record.requestTruncated = true;
      }
      if (answer) record.response = answer;
      if (error !== undefined) record.error = error;
      record.span = { from: started, to: performance.now() };
      // Handed to the judge, which holds it until it is judged; its bodies count as held till then.
      const size = (record.requestBody?.length ?? 0) + (record.response?.bytes.length ?? 0);
      const judged = !(dropped || body.dropped);
      if (judged) held += size;
      usage.add(record);
      judge.ended(record, !judged, () => (held -= size));
      upstreams.delete(upstream);
      ended();
    };
    // The client goes away: so does the request to the deployment.
    req.on('aborted', () => {
      clientLeft = true;
      upstream.destroy();
    });
    res.on('close', () => {
      if (res.writableFinished || cutByProxy) return;
      clientLeft = true;
      upstream.destroy();
    });
    req.on('data', (chunk: Buffer) => requestChunks.add(chunk));
    req.pipe(upstream);
    upstream.on('timeout', () => {
      timedOut = `the deployment ${answered ? 'sent nothing more of its answer' : 'gave no answer'} within ${timeoutMs} ms`;
      upstream.destroy(new Error(timedOut));
    });
    upstream.on('error', (error) => {
      // Once an answer came, its own stream says how it ended (a request body the deployment
      // stopped reading, after answering, is no reason to cut its answer short).
      if (answered) return;
      const why = cutShort();
      done(undefined, why !== undefined ? `${why} came` : error.message);
      // No answer came, so the client gets none either: a 502 would be the proxy's, not the deployment's.
      cutClient();
    });
    upstream.on('response', (answer) => {
      answered = true;
      const status = answer.statusCode ?? 0;
      const raw: [string, string][] = [];
      const out: string[] = [];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        const name = answer.rawHeaders[i]!;
        const value = answer.rawHeaders[i + 1]!;
        raw.push([name.toLowerCase(), value]);
        if (!hopByHop.has(name.toLowerCase())) out.push(name, value);
      }
      // The answer as it came: no Date of the proxy's own.
      res.sendDate = false;
      const unrelayable = relayHead(res, status, answer.statusMessage, out);
      const bodyChunks = capture();
      answer.on('data', (chunk: Buffer) => bodyChunks.add(chunk));
      if (unrelayable === undefined) answer.pipe(res);
      else {
        // Node cannot write this status line (a status below 100): the client gets no answer, and the report says why.
        cutClient();
        answer.resume();
      }
      let finished = false;
      const finish = (incomplete?: string) => {
        if (finished) return;
        finished = true;
        // The deployment's answer broke off: so does the one passed on (a pipe would leave it open).
        if (incomplete !== undefined) cutClient();
        const taken = bodyChunks.take();
        // The client went away (or the proxy stopped) before the answer ended: what the deployment would have sent is unknown.
        const lost = incomplete !== undefined && unrelayable === undefined && timedOut === undefined ? cutShort() : undefined;
        if (lost !== undefined) {
          done(undefined, `${lost} ended`, taken.dropped);
          return;
        }
        const why = unrelayable !== undefined ? `the proxy could not pass this answer on (${unrelayable}), so the client got none` : incomplete !== undefined ? (timedOut ?? incomplete) : undefined;
        const decoding = decodeContent(taken.bytes, answer.headers['content-encoding'], maxBody).then(
          (decoded) => done({ status, rawHeaders: raw, bytes: decoded.bytes, ...(taken.truncated || decoded.truncated ? { truncated: true } : {}), ...(why !== undefined ? { incomplete: why } : {}), durationMs: Math.round(performance.now() - started) }, undefined, taken.dropped),
          (error: Error) => done({ status, rawHeaders: raw, bytes: taken.bytes, incomplete: `its Content-Encoding could not be undone: ${error.message}`, durationMs: Math.round(performance.now() - started) }, undefined, taken.dropped),
        );
        settling.add(decoding);
        void decoding.finally(() => settling.delete(decoding));
      };
      answer.on('end', () => finish());
      answer.on('aborted', () => finish('the connection closed before the body ended'));
      answer.on('error', (error) => finish(error.message));
      answer.on('close', () => finish(answer.complete ? undefined : 'the connection closed before the body ended'));
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    forwarded: () => seq,
    judge: async () => {
      await settled();
      return judge.verdict(now());
    },
    live: async () => {
      await settled();
      return judge.live();
    },
    usage: async () => {
      await settled();
      return usage.file();
    },
    stats: () => ({ connections: connections.size, inFlight: inFlight.size, heldBytes: held, waiting: judge.waiting, kept: judge.kept, keptSize: judge.keptSize, dropped: judge.dropped, refused: judge.refused }),
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        // An exchange still open after the grace (a stalled or endless answer) is cut, with its client's connection.
        const cut = setTimeout(() => {
          cutting = true;
          server.closeAllConnections();
          for (const upstream of upstreams) upstream.destroy();
        }, Math.min(timeoutMs, 5_000));
        server.close(() => {
          // Each exchange cut settles as soon as its request to the deployment is torn down: judged after close, it is in the report.
          void Promise.all([...inFlight]).then(() => {
            clearTimeout(cut);
            resolve();
          });
        });
        server.closeIdleConnections();
      }),
  };

  /**
   * Keeps the first `maxBody` bytes of a stream and says whether there were more; held within the
   * budget of all bodies, past which it keeps nothing and says the exchange was dropped.
   */
  function capture() {
    let chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let dropped = false;
    return {
      add(chunk: Buffer) {
        if (dropped) return;
        if (size >= maxBody) {
          truncated = true;
          return;
        }
        const room = maxBody - size;
        if (chunk.length > room) truncated = true;
        const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
        if (held + kept.length > maxKept) {
          dropped = true;
          held -= size;
          chunks = [];
          size = 0;
          return;
        }
        chunks.push(kept);
        size += kept.length;
        held += kept.length;
      },
      /** The bytes kept, no longer counted as held (`keep` counts a kept record's own). */
      take() {
        held -= size;
        const bytes = new Uint8Array(Buffer.concat(chunks));
        chunks = [];
        size = 0;
        return { bytes, truncated, dropped };
      },
    };
  }
}

/**
 * Writes the deployment's status line and headers to the client. Node refuses to write a few that
 * it reads (a reason phrase with a control character): those go without the reason phrase, which
 * clients ignore (RFC 9112, 4). Returns why the head could not be written at all, if it could not.
 */
function relayHead(res: ServerResponse, status: number, statusMessage: string | undefined, headers: string[]): string | undefined {
  try {
    res.writeHead(status, statusMessage, headers);
    return undefined;
  } catch {
    try {
      // writeHead keeps the reason phrase it refused: without one, Node writes the standard one.
      res.statusMessage = '';
      res.writeHead(status, headers);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }
}

/**
 * Header names in lower case, repeated ones joined with ", " (RFC 9110, 5.3): each value copied
 * once, whatever the count, into an object with no prototype (a header may be named `__proto__`).
 */
function joined(rawHeaders: readonly string[]): Record<string, string> {
  const lists = new Map<string, string[]>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const list = lists.get(name);
    if (list) list.push(rawHeaders[i + 1]!);
    else lists.set(name, [rawHeaders[i + 1]!]);
  }
  const out = Object.create(null) as Record<string, string>;
  for (const [name, values] of lists) out[name] = values.length === 1 ? values[0]! : values.join(', ');
  return out;
}

/**
 * The proxy's own answer to a request it could not read, as bytes on the connection: 431 for a
 * header section past its cap, 408 for one not sent in time, 400 for one that is not HTTP/1.1;
 * nothing for a connection the client reset.
 */
function clientErrorAnswer(error: NodeJS.ErrnoException, maxHeaderSize: number, headersTimeout: number, requestTimeout: number): string | undefined {
  // The client reset the connection, or ended it mid-request: there is no one to answer.
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.code === 'HPE_INVALID_EOF_STATE') return undefined;
  const [status, reason, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'REQUEST_HEADER_FIELDS_TOO_LARGE', `The request's header section is longer than the proxy reads (${maxHeaderSize.toLocaleString('en-US')} bytes, --max-header-size), so it was not forwarded. Send fewer or shorter headers.`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'REQUEST_TIMEOUT', `The request did not arrive in time (its head within ${headersTimeout.toLocaleString('en-US')} ms, all of it within ${requestTimeout.toLocaleString('en-US')} ms), so the proxy closed the connection.`]
        : [400, 'Bad Request', 'BAD_REQUEST', `The proxy could not read the request as HTTP/1.1 (${error.code ?? 'parse error'}), so it was not forwarded.`];
  const body = JSON.stringify({ code, message, status });
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`;
}
