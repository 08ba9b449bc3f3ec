// A validating proxy: forwards every request to the deployment unchanged and every answer back
// unchanged, and judges a copy of each exchange with the suite's model (issue 19). It never
// manufactures, repairs or holds back an answer: when the deployment gives none, neither does it.
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadSpec, type LoadedSpec } from '../../spec/loadSpec.ts';
import { bodyText, decodeContent, defaultMaxBodyBytes } from '../http/transport.ts';
import { SpecValidators } from '../specValidators.ts';
import { judgeProxyTraffic, type ProxyVerdict } from './judgeProxyTraffic.ts';
import type { ProxyRecord } from './proxyRecord.ts';

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
  /** How many exchanges are kept for judging; later ones are forwarded and counted, not judged. */
  maxRecords?: number;
  /** How long the deployment may take to answer before the proxy gives the client no answer either. */
  timeoutMs?: number;
  /**
   * The most bytes of bodies held for judging in all, kept and still in flight (default 64 MiB):
   * an exchange that would pass it is forwarded and counted, not judged.
   */
  maxKeptBytes?: number;
}

export interface RunningProxy {
  /** Where clients send their requests, e.g. `http://127.0.0.1:8080`: the same paths as the target's. */
  url: string;
  /** Every exchange forwarded so far, judged or not. */
  forwarded(): number;
  /** The suite's judgement of the traffic so far. */
  judge(): Promise<ProxyVerdict>;
  /**
   * Stops accepting, lets exchanges in flight finish for a grace (the timeout, at most 5 s), then
   * cuts those still open, and resolves when the server is closed.
   */
  close(): Promise<void>;
}

/** The path the proxy answers itself; everything else goes to the deployment. */
export const proxyReportPath = '/__proxy/report';

/** Bytes of bodies kept for judging in all: bounded whatever flows through. */
const keptBudget = 64 * 1024 * 1024;

/** The longest header section passed on either way: a deployment's may be longer than Node's 16 KiB default. */
const maxHeaderSize = 256 * 1024;

// RFC 9110, 7.6.1: connection-specific fields are not forwarded by a proxy; Host names the target.
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`--target ${options.target} is not an http or https URL. Give the deployment's base URL, such as https://staging.example.com/v1.`);
  const spec = options.spec ?? (await loadSpec());
  const validators = new SpecValidators(spec);
  const maxBody = options.maxBody ?? defaultMaxBodyBytes;
  const maxRecords = options.maxRecords ?? 10_000;
  const maxKept = options.maxKeptBytes ?? keptBudget;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const records: ProxyRecord[] = [];
  const startedAt = Date.now();
  let seq = 0;
  /** Bytes of bodies held for judging: those of the records kept, and those captured of exchanges in flight. */
  let held = 0;
  let unkept = 0;
  let closing = false;
  /** `close`'s grace has ended: exchanges still open are being cut by the proxy itself. */
  let cutting = false;

  /** Exchanges whose answer has ended and is being decoded: judged once they are kept. */
  const settling = new Set<Promise<void>>();
  /** Exchanges not yet kept (or dropped): `close` waits for them once their connections are closed. */
  const inFlight = new Set<Promise<void>>();
  /** Their requests to the deployment, torn down when `close`'s grace ends. */
  const upstreams = new Set<ClientRequest>();
  const judge = async () => {
    await Promise.all([...settling]);
    return judgeProxyTraffic(records, { spec, validators, target: options.target, sharedKey: options.sharedKey ?? false, startedAt, now: Date.now(), unkept });
  };

  const server = createServer({ maxHeaderSize }, (req, res) => {
    // Once closing, a kept-alive connection is closed as soon as its exchange ends.
    res.on('finish', () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    if (req.method === 'GET' && req.url === proxyReportPath) {
      judge().then(({ report, findings }) => {
        const body = JSON.stringify({ verdict: report.verdict, ...(report.reason ? { reason: report.reason } : {}), exchanges: seq, judged: report.exchanges.length, findings, notes: report.notes });
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
      }, (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`The proxy could not judge its traffic: ${error.message}`));
      return;
    }
    forward(req, res, ++seq);
  });

  function forward(req: IncomingMessage, res: ServerResponse, mySeq: number): void {
    const sentAt = Date.now();
    const started = performance.now();
    const headers: Record<string, string | string[]> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      if (hopByHop.has(name.toLowerCase())) continue;
      const had = headers[name];
      headers[name] = had === undefined ? req.rawHeaders[i + 1]! : [...(Array.isArray(had) ? had : [had]), req.rawHeaders[i + 1]!];
    }
    const record: ProxyRecord = { seq: mySeq, sentAt, method: req.method ?? 'GET', url: req.url ?? '/', requestHeaders: joined(req.rawHeaders) };
    const requestChunks = capture();
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send({ protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...headers, host: target.host }, timeout: timeoutMs, maxHeaderSize });
    // Every header line of the answer, however many (Node drops those past about a thousand unless told): the header size still bounds them.
    upstream.maxHeadersCount = 0;
    upstreams.add(upstream);
    let settled = false;
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
      if (settled) return;
      settled = true;
      const body = requestChunks.take();
      if (body.bytes.length > 0) {
        record.requestBody = bodyText(body.bytes);
        if (body.truncated) record.requestTruncated = true;
      }
      if (answer) record.response = answer;
      if (error !== undefined) record.error = error;
      record.span = { from: started, to: performance.now() };
      keep(record, dropped || body.dropped);
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

  function keep(record: ProxyRecord, dropped: boolean): void {
    // Header sections count too: each may be as long as `maxHeaderSize`.
    let size = (record.requestBody?.length ?? 0) + (record.response?.bytes.length ?? 0) + record.url.length;
    for (const [name, value] of Object.entries(record.requestHeaders)) size += name.length + value.length;
    for (const [name, value] of record.response?.rawHeaders ?? []) size += name.length + value.length;
    if (dropped || records.length >= maxRecords || held + size > maxKept) {
      unkept++;
      return;
    }
    held += size;
    // In the order requests arrived, whatever order their answers came in.
    let at = records.length;
    while (at > 0 && records[at - 1]!.seq > record.seq) at--;
    records.splice(at, 0, record);
  }

  // Every header line of a request, however many: `maxHeaderSize` bounds them.
  server.maxHeadersCount = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    forwarded: () => seq,
    judge,
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

/** Header names in lower case, repeated ones joined with ", " (RFC 9110, 5.3). */
function joined(rawHeaders: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    out[name] = out[name] === undefined ? rawHeaders[i + 1]! : `${out[name]}, ${rawHeaders[i + 1]}`;
  }
  return out;
}
