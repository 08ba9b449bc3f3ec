import type { OperationResult, PlannedPart, Reproduction, Severity } from './check.ts';
import type { CoverageRow } from './model/coverage.ts';
import type { KeyPlans } from './model/contractPlans.ts';
import type { Exchange, UnansweredRequest } from './http/exchange.ts';
import { toolName, toolVersion } from './version.ts';
import type { UsageReport } from './usage/usageVerdict.ts';

export interface CheckReport {
  id: string;
  title: string;
  severity: Severity;
  description: string;
  status: 'passed' | 'failed' | 'skipped';
  operations: OperationResult[];
  /** Parts planned as a count (the generated `sequences`): how many ran, and why not all. */
  parts?: PlannedPart[];
  durationMs: number;
}

export interface ExchangeSummary {
  seq: number;
  check: string;
  operationId: string;
  intent: string;
  /** The generated case it belongs to. */
  case?: string;
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
  /** Why the body the run held was only the start of what came: `truncated`, `incomplete` or `kept in part` (see http/retention.ts). */
  bodyCut?: string;
  /** For a request of the framing probe: the raw connection it went on, and the answer's head as it came. */
  wire?: WireSummary;
  /** Transport failures retried before this answer came (their attempts are in `unanswered`). */
  retries?: number;
}

/** A request that got no answer (refused, reset, timed out): in the HAR with status 0. */
export interface UnansweredSummary {
  check: string;
  operationId: string;
  case?: string;
  /** How many requests had been answered when this one was sent: its place among the exchanges. */
  afterSeq: number;
  method: string;
  url: string;
  sentAt: string;
  ms: number;
  requestHeaders: Record<string, string>;
  requestBody?: CapturedBody;
  error: string;
}

/** How a request of the framing probe went on its raw connection, and how its answer was framed. */
export interface WireSummary {
  /** The raw connection, numbered from 1 in the run, and the request's place on it, from 1. */
  connection: number;
  position: number;
  version: '1.0' | '1.1';
  pipelined: boolean;
  /** How its body went: in one write, in two (`split`), or `chunked`. */
  bodyAs?: 'whole' | 'split' | 'chunked';
  /** How the answer's end was found: Content-Length, chunked, the connection's close, or no body. */
  framing: string;
  /** The answer's status line and field lines as they came, the key masked. */
  head: string;
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
/** Characters of bodies the reports keep in all at `capturedBodyLimit` each; past it, each body keeps `capturedBodyTail`. */
export const capturedBodiesBudget = 8 * 1024 * 1024;
export const capturedBodyTail = 4 * 1024;

/** `passed`: exit 0. `failed`: a check failed, exit 1. `cannot-run`: the run could not judge the deployment, exit 2, `reason` says why. */
export type Verdict = 'passed' | 'failed' | 'cannot-run';

export const exitCodes: Record<Verdict, 0 | 1 | 2> = { passed: 0, failed: 1, 'cannot-run': 2 };

export interface RunReport {
  /**
   * With `--usage FILE`: for each client of the file, whether the deployment keeps the contract
   * for what that client uses. First in the report, as it is what the reader asked first; the
   * verdict (and the exit code) stays the contract's.
   */
  usage?: UsageReport;
  tool: { name: string; version: string };
  runId: string;
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  verdict: Verdict;
  /** Why the run could not judge the deployment, when it could not. */
  reason?: string;
  options: { readOnly: boolean; probeRateLimit: boolean; seed: number; depth: string; checks: string[]; sharedKey?: boolean; secondKey?: boolean; plans?: KeyPlans; maxDurationMs?: number; allowPartial?: boolean };
  requests: {
    total: number;
    withKey: number;
    withoutKey: number;
    /** Answers that came only after a transport failure was retried. */
    retried: number;
    /** Requests that got no answer, retries included. */
    failedAtTransport: number;
  };
  /** Things the run met that are not findings: waits for a quota window, unexpected 429s. */
  notes: string[];
  /**
   * What the run set out to check and did not, each with why (the time budget, a quota window, a
   * key too small): a run with any is no pass (exit 2) unless `--allow-partial` accepted it.
   */
  unchecked?: string[];
  checks: CheckReport[];
  /**
   * What the run verified: each of the contract's rules by operation, judged (on how many
   * exchanges, with how many failures) or not reached and why. A green run that verified little
   * looks different from one that verified everything.
   */
  coverage?: CoverageRow[];
  /** The generator's failing sequences, shrunk, each as a curl script. */
  reproductions?: Reproduction[];
  /** Every request the run sent, in order, so a pass can be audited as well as a failure. */
  exchanges: ExchangeSummary[];
  /** Requests that got no answer; absent when every request was answered. */
  unanswered?: UnansweredSummary[];
  summary: { passed: number; failed: number; skipped: number; warnings: number };
}

/** What a run's record is made of; `summary` and `tool` are derived from it, the same for every run (the suite's, the proxy's). */
export type RunRecordParts = Omit<RunReport, 'tool' | 'summary' | 'startedAt'> & { startedAt: number };

/** The run's record, from its parts: the summary counted from the checks' verdicts as recorded. */
export function assembleRunReport(parts: RunRecordParts): RunReport {
  const { checks } = parts;
  const ops = checks.flatMap((c) => c.operations);
  return {
    tool: { name: toolName, version: toolVersion },
    runId: parts.runId,
    baseUrl: parts.baseUrl,
    startedAt: new Date(parts.startedAt).toISOString(),
    durationMs: parts.durationMs,
    verdict: parts.verdict,
    ...(parts.reason !== undefined ? { reason: parts.reason } : {}),
    options: parts.options,
    requests: parts.requests,
    notes: parts.notes,
    ...(parts.unchecked !== undefined && parts.unchecked.length > 0 ? { unchecked: parts.unchecked } : {}),
    checks,
    ...(parts.coverage !== undefined ? { coverage: parts.coverage } : {}),
    ...(parts.reproductions !== undefined ? { reproductions: parts.reproductions } : {}),
    exchanges: parts.exchanges,
    ...(parts.unanswered !== undefined && parts.unanswered.length > 0 ? { unanswered: parts.unanswered } : {}),
    summary: {
      passed: checks.filter((c) => c.status === 'passed').length,
      failed: checks.filter((c) => c.status === 'failed').length,
      skipped: checks.filter((c) => c.status === 'skipped').length,
      warnings: ops.reduce((n, o) => n + o.findings.filter((f) => f.level === 'warning').length, 0),
    },
  };
}

/** A check fails when any operation fails, passes when any passes, and is skipped otherwise. */
export function checkStatus(operations: OperationResult[]): CheckReport['status'] {
  if (operations.some((o) => o.status === 'failed')) return 'failed';
  if (operations.some((o) => o.status === 'passed')) return 'passed';
  return 'skipped';
}

function capture(text: string, limit = capturedBodyLimit): CapturedBody {
  const truncated = text.length > limit;
  return { text: truncated ? text.slice(0, limit) : text, size: Buffer.byteLength(text), truncated };
}

function wireSummary(e: Exchange): WireSummary {
  const { connection, index, head, framing } = e.wire!;
  const request = connection.requests[index]!;
  return { connection: connection.id, position: index + 1, version: request.version, pipelined: connection.pipelined, ...(request.bodyAs ? { bodyAs: request.bodyAs } : {}), framing, head: head.length > 2048 ? `${head.slice(0, 2048)}…` : head };
}

/** Why the body an exchange holds is only the start of what came, when it is (see http/retention.ts). */
function bodyCut(e: Exchange): string | undefined {
  const { response } = e;
  if (response.incomplete !== undefined) return `incomplete: ${response.incomplete}`;
  if (response.truncated) return 'truncated: longer than the suite reads (--max-body)';
  if (response.keptInPart !== undefined) return `kept in part: ${response.keptInPart}`;
  return undefined;
}

/**
 * What the reports keep of every exchange, in order: bodies at `capturedBodyLimit` characters each
 * until `capturedBodiesBudget` is spent, then at `capturedBodyTail`, so the reports stay bounded
 * however many large answers a run met.
 */
export function summarizeExchanges(exchanges: readonly Exchange[]): ExchangeSummary[] {
  let spent = 0;
  return exchanges.map((e) => {
    const summary = summarizeExchange(e, spent < capturedBodiesBudget ? capturedBodyLimit : capturedBodyTail);
    spent += summary.responseBody.text.length + (summary.requestBody?.text.length ?? 0);
    return summary;
  });
}

/** What the reports keep of one exchange: everything the HAR needs, bodies capped at `limit` characters. */
export function summarizeExchange(e: Exchange, limit = capturedBodyLimit): ExchangeSummary {
  const cut = bodyCut(e);
  return {
    seq: e.seq,
    check: e.checkId,
    operationId: e.operationId,
    intent: e.intent,
    ...(e.case !== undefined ? { case: e.case } : {}),
    method: e.request.method,
    url: e.request.url,
    status: e.response.status,
    rateLimit: Object.fromEntries(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'].filter((h) => e.response.headers[h] !== undefined).map((h) => [h, e.response.headers[h]!])),
    ms: e.response.durationMs,
    sentAt: new Date(e.sentAt).toISOString(),
    requestHeaders: e.request.headers,
    ...(e.request.body !== undefined ? { requestBody: capture(e.request.body, limit) } : {}),
    responseHeaders: e.response.headers,
    responseBody: capture(e.response.body, limit),
    ...(cut !== undefined ? { bodyCut: cut } : {}),
    ...(e.wire ? { wire: wireSummary(e) } : {}),
    ...(e.retries > 0 ? { retries: e.retries } : {}),
  };
}

export function summarizeUnanswered(u: UnansweredRequest): UnansweredSummary {
  return {
    check: u.checkId,
    operationId: u.operationId,
    ...(u.case !== undefined ? { case: u.case } : {}),
    afterSeq: u.afterSeq,
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
  options?: Partial<RunReport['options']>;
}

/**
 * The report of a run stopped before it sent anything (no key, bad options): no check verdicts,
 * only the reason. A run stopped by the deployment (the preflight) gets its report from `runChecks`.
 */
export function cannotRunReport(input: CannotRunInput): RunReport {
  return {
    tool: { name: toolName, version: toolVersion },
    runId: 'none',
    baseUrl: input.baseUrl ?? '(no base URL)',
    startedAt: new Date().toISOString(),
    durationMs: 0,
    verdict: 'cannot-run',
    reason: input.reason,
    options: { readOnly: false, probeRateLimit: false, seed: 1, depth: 'quick', checks: [], ...input.options },
    requests: { total: 0, withKey: 0, withoutKey: 0, retried: 0, failedAtTransport: 0 },
    notes: [],
    checks: [],
    exchanges: [],
    summary: { passed: 0, failed: 0, skipped: 0, warnings: 0 },
  };
}
