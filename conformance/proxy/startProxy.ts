// A validating proxy: forwards every request to the deployment unchanged and every answer back
// unchanged, and judges a copy of each exchange with the suite's model (issue 19). It never
// manufactures, repairs or holds back an answer: when the deployment gives none, neither does it.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
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
}

export interface RunningProxy {
  /** Where clients send their requests, e.g. `http://127.0.0.1:8080`: the same paths as the target's. */
  url: string;
  /** Every exchange forwarded so far, judged or not. */
  forwarded(): number;
  /** The suite's judgement of the traffic so far. */
  judge(): Promise<ProxyVerdict>;
  /** Stops accepting, lets exchanges in flight finish, and resolves when the server is closed. */
  close(): Promise<void>;
}

/** The path the proxy answers itself; everything else goes to the deployment. */
export const proxyReportPath = '/__proxy/report';

/** Bytes of bodies kept for judging in all: bounded whatever flows through. */
const keptBudget = 64 * 1024 * 1024;

// RFC 9110, 7.6.1: connection-specific fields are not forwarded by a proxy; Host names the target.
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`--target ${options.target} is not an http or https URL. Give the deployment's base URL, such as https://staging.example.com/v1.`);
  const spec = options.spec ?? (await loadSpec());
  const validators = new SpecValidators(spec);
  const maxBody = options.maxBody ?? defaultMaxBodyBytes;
  const maxRecords = options.maxRecords ?? 10_000;
  const records: ProxyRecord[] = [];
  const startedAt = Date.now();
  let seq = 0;
  let keptBytes = 0;
  let unkept = 0;

  const judge = () => judgeProxyTraffic(records, { spec, validators, target: options.target, sharedKey: options.sharedKey ?? false, startedAt, now: Date.now(), unkept });

  const server = createServer((req, res) => {
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
    const requestChunks = capture(maxBody);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstream = send({ protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...headers, host: target.host }, timeout: options.timeoutMs ?? 30_000 });
    let settled = false;
    const done = (answer?: ProxyRecord['response'], error?: string) => {
      if (settled) return;
      settled = true;
      const body = requestChunks.take();
      if (body.bytes.length > 0) {
        record.requestBody = bodyText(body.bytes);
        if (body.truncated) record.requestTruncated = true;
      }
      if (answer) record.response = answer;
      if (error !== undefined) record.error = error;
      keep(record);
    };
    // The client goes away: so does the request to the deployment.
    req.on('aborted', () => upstream.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.on('data', (chunk: Buffer) => requestChunks.add(chunk));
    req.pipe(upstream);
    upstream.on('timeout', () => upstream.destroy(new Error(`the deployment gave no answer within ${options.timeoutMs ?? 30_000} ms`)));
    upstream.on('error', (error) => {
      done(undefined, error.message);
      // No answer came, so the client gets none either: a 502 would be the proxy's, not the deployment's.
      res.destroy();
    });
    upstream.on('response', (answer) => {
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
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
      const bodyChunks = capture(maxBody);
      answer.on('data', (chunk: Buffer) => bodyChunks.add(chunk));
      answer.pipe(res);
      const finish = (incomplete?: string) => {
        const taken = bodyChunks.take();
        decodeContent(taken.bytes, answer.headers['content-encoding'], maxBody).then(
          (decoded) => done({ status: answer.statusCode ?? 0, rawHeaders: raw, bytes: decoded.bytes, ...(taken.truncated || decoded.truncated ? { truncated: true } : {}), ...(incomplete ? { incomplete } : {}), durationMs: Math.round(performance.now() - started) }),
          (error: Error) => done({ status: answer.statusCode ?? 0, rawHeaders: raw, bytes: taken.bytes, incomplete: `its Content-Encoding could not be undone: ${error.message}`, durationMs: Math.round(performance.now() - started) }),
        );
      };
      answer.on('end', () => finish());
      answer.on('aborted', () => finish('the connection closed before the body ended'));
      answer.on('error', (error) => finish(error.message));
    });
  }

  function keep(record: ProxyRecord): void {
    const size = (record.requestBody?.length ?? 0) + (record.response?.bytes.length ?? 0);
    if (records.length >= maxRecords || keptBytes + size > keptBudget) {
      unkept++;
      return;
    }
    keptBytes += size;
    // In the order requests arrived, whatever order their answers came in.
    let at = records.length;
    while (at > 0 && records[at - 1]!.seq > record.seq) at--;
    records.splice(at, 0, record);
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
    judge,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/** Keeps the first `cap` bytes of a stream and says whether there were more. */
function capture(cap: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  return {
    add(chunk: Buffer) {
      if (size >= cap) {
        truncated = true;
        return;
      }
      const room = cap - size;
      if (chunk.length > room) truncated = true;
      const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.length;
    },
    take: () => ({ bytes: new Uint8Array(Buffer.concat(chunks)), truncated }),
  };
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
