// One side of a drift run: where its requests go, with which key, and what it answered.
import { performance } from 'node:perf_hooks';
import type { ConnectionChoice, Transport, TransportResponse } from '../http/transport.ts';
import { TransportError } from '../http/transport.ts';
import type { ProxyRecord } from '../proxy/proxyRecord.ts';

export interface DriftTarget {
  /** What the report calls it: `A`, `B` or `mock`. */
  label: string;
  /** The base URL, ending in /v1 (a made-up one for an in-process mock). */
  baseUrl: string;
  apiKey: string;
  transport: Transport;
  /** The side's clock (ms since the epoch): its exchanges are judged on it. */
  now: () => number;
}

export interface ProbeRequest {
  method: string;
  /** Under the base URL: `/pets?limit=1`. */
  path: string;
  /** Send the side's key (default true). */
  withKey?: boolean;
  headers?: Record<string, string>;
  /** Default headers not to send (lower case): `accept`, for a client that sends none. */
  omitHeaders?: readonly string[];
  body?: string;
  /** A connection of its own, or from another local address. */
  connection?: ConnectionChoice;
}

/** One exchange of a probe, as sent and answered (undefined answer: none came, `error` says why). */
export interface ProbeExchange {
  /** The record's seq: what the judges' failures name. */
  seq: number;
  probe: string;
  request: ProbeRequest;
  response?: TransportResponse;
  error?: string;
}

/** Sends requests to one side, keeping every exchange for the judges and the report. */
export class DriftSide {
  readonly exchanges: ProbeExchange[] = [];
  readonly records: ProxyRecord[] = [];
  readonly startedAt: number;

  constructor(readonly target: DriftTarget, private readonly timeoutMs: number) {
    this.startedAt = target.now();
  }

  async send(probe: string, request: ProbeRequest): Promise<TransportResponse | undefined> {
    return (await this.exchange(probe, request)).response;
  }

  /** Sends a request and gives back its exchange, with its own seq: requests sent at once each get theirs, whatever order they are answered in. */
  async exchange(probe: string, request: ProbeRequest): Promise<ProbeExchange> {
    const url = `${this.target.baseUrl.replace(/\/+$/, '')}${request.path}`;
    const headers: Record<string, string> = { accept: 'application/json', ...(request.withKey === false ? {} : { authorization: `Bearer ${this.target.apiKey}` }), ...request.headers };
    for (const name of request.omitHeaders ?? []) delete headers[name];
    const sentAt = this.target.now();
    const from = performance.now();
    let response: TransportResponse | undefined;
    let error: string | undefined;
    try {
      response = await this.target.transport.send({ method: request.method, url, headers, ...(request.body !== undefined ? { body: request.body } : {}), ...(request.connection ? { connection: request.connection } : {}) }, this.timeoutMs);
    } catch (caught) {
      if (!(caught instanceof TransportError)) throw caught;
      error = caught.message;
    }
    const to = performance.now();
    const target = new URL(url);
    const lowerHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const seq = this.records.length + 1;
    this.records.push({
      seq,
      sentAt,
      method: request.method,
      url: `${target.pathname}${target.search}`,
      requestHeaders: lowerHeaders,
      ...(request.body !== undefined ? { requestBody: request.body } : {}),
      ...(response ? { response: { status: response.status, rawHeaders: response.rawHeaders, bytes: response.bytes, ...(response.truncated ? { truncated: true } : {}), durationMs: Math.round(to - from) } } : { error: error ?? 'no answer' }),
      span: { from, to },
    });
    const exchange: ProbeExchange = { seq, probe, request, ...(response ? { response } : {}), ...(error ? { error } : {}) };
    this.exchanges.push(exchange);
    return exchange;
  }
}
