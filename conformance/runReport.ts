import type { OperationResult, Severity } from './check.ts';
import type { Exchange, UnansweredRequest } from './http/exchange.ts';

export interface CheckReport {
  id: string;
  title: string;
  severity: Severity;
  description: string;
  status: 'passed' | 'failed' | 'skipped';
  operations: OperationResult[];
  durationMs: number;
}

export interface ExchangeSummary {
  seq: number;
  check: string;
  operationId: string;
  intent: string;
  method: string;
  url: string;
  status: number;
  /** The three rate-limit headers and Retry-After as received, when present. */
  rateLimit: Record<string, string>;
  ms: number;
  /** When the request left, ISO 8601. */
  sentAt: string;
  /** Headers as sent, the key shown as `$PETS_API_KEY`. */
  requestHeaders: Record<string, string>;
  requestBody?: CapturedBody;
  /** Header names in lower case, any echo of the key redacted. */
  responseHeaders: Record<string, string>;
  responseBody: CapturedBody;
}

/** A request that got no answer (refused, reset, timed out): in the HAR with status 0. */
export interface UnansweredSummary {
  check: string;
  operationId: string;
  method: string;
  url: string;
  sentAt: string;
  ms: number;
  requestHeaders: Record<string, string>;
  requestBody?: CapturedBody;
  error: string;
}

/** A body as the reports keep it: whole up to `capturedBodyLimit` characters, cut after. */
export interface CapturedBody {
  text: string;
  /** The whole body's size in bytes (UTF-8). */
  size: number;
  truncated: boolean;
}

/** Bodies longer than this (in characters) are cut in the JSON report and the HAR; a full page of 100 pets fits. */
export const capturedBodyLimit = 64 * 1024;

/** How the run ended: `cannot-run` when it could not judge the deployment (exit 2), with the reason. */
export type Verdict = 'passed' | 'failed' | 'cannot-run';

export interface RunReport {
  /** passed (exit 0), failed (exit 1) or cannot-run (exit 2, `cannotRun` says why). */
  verdict: Verdict;
  cannotRun?: { reason: string };
  tool: { name: string; version: string };
  runId: string;
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  options: { readOnly: boolean; probeRateLimit: boolean; seed: number; checks: string[] };
  requests: { total: number; withKey: number; withoutKey: number };
  /** Things the run met that are not findings: waits for a quota window, unexpected 429s. */
  notes: string[];
  checks: CheckReport[];
  /** Every request the run sent, in order, so a pass can be audited as well as a failure. */
  exchanges: ExchangeSummary[];
  /** Requests that got no answer; absent when every request was answered. */
  unanswered?: UnansweredSummary[];
  summary: { passed: number; failed: number; skipped: number; warnings: number };
}

/** A check fails when any operation fails, passes when any passes, and is skipped otherwise. */
export function checkStatus(operations: OperationResult[]): CheckReport['status'] {
  if (operations.some((o) => o.status === 'failed')) return 'failed';
  if (operations.some((o) => o.status === 'passed')) return 'passed';
  return 'skipped';
}

function capture(text: string): CapturedBody {
  const truncated = text.length > capturedBodyLimit;
  return { text: truncated ? text.slice(0, capturedBodyLimit) : text, size: Buffer.byteLength(text), truncated };
}

/** What the reports keep of one exchange: everything the HAR needs, bodies capped at `capturedBodyLimit`. */
export function summarizeExchange(e: Exchange): ExchangeSummary {
  return {
    seq: e.seq,
    check: e.checkId,
    operationId: e.operationId,
    intent: e.intent,
    method: e.request.method,
    url: e.request.url,
    status: e.response.status,
    rateLimit: Object.fromEntries(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'].filter((h) => e.response.headers[h] !== undefined).map((h) => [h, e.response.headers[h]!])),
    ms: e.response.durationMs,
    sentAt: new Date(e.sentAt).toISOString(),
    requestHeaders: e.request.headers,
    ...(e.request.body !== undefined ? { requestBody: capture(e.request.body) } : {}),
    responseHeaders: e.response.headers,
    responseBody: capture(e.response.body),
  };
}

export function summarizeUnanswered(u: UnansweredRequest): UnansweredSummary {
  return {
    check: u.checkId,
    operationId: u.operationId,
    method: u.request.method,
    url: u.request.url,
    sentAt: new Date(u.sentAt).toISOString(),
    ms: u.durationMs,
    requestHeaders: u.request.headers,
    ...(u.request.body !== undefined ? { requestBody: capture(u.request.body) } : {}),
    error: u.error,
  };
}

export interface CannotRunInput {
  reason: string;
  baseUrl?: string;
  tool: { name: string; version: string };
  runId?: string;
  startedAt?: Date;
  options?: Partial<RunReport['options']>;
  /** What the run sent before it stopped, when it got that far. */
  exchanges?: ExchangeSummary[];
  unanswered?: UnansweredSummary[];
}

/** The report of a run that could not judge the deployment: no check verdicts, the reason, and any traffic. */
export function cannotRunReport(input: CannotRunInput): RunReport {
  const started = input.startedAt ?? new Date();
  const exchanges = input.exchanges ?? [];
  return {
    verdict: 'cannot-run',
    cannotRun: { reason: input.reason },
    tool: input.tool,
    runId: input.runId ?? 'none',
    baseUrl: input.baseUrl ?? '(no base URL)',
    startedAt: started.toISOString(),
    durationMs: Math.max(0, Date.now() - started.getTime()),
    options: { readOnly: false, probeRateLimit: false, seed: 1, checks: [], ...input.options },
    requests: {
      total: exchanges.length,
      withKey: exchanges.filter((e) => e.requestHeaders.authorization === 'Bearer $PETS_API_KEY').length,
      withoutKey: exchanges.filter((e) => e.requestHeaders.authorization !== 'Bearer $PETS_API_KEY').length,
    },
    notes: [],
    checks: [],
    exchanges,
    ...(input.unanswered?.length ? { unanswered: input.unanswered } : {}),
    summary: { passed: 0, failed: 0, skipped: 0, warnings: 0 },
  };
}
