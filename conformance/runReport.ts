import type { OperationResult, Severity } from './check.ts';

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
  /** The generated case it belongs to. */
  case?: string;
  method: string;
  url: string;
  status: number;
  /** The three rate-limit headers and Retry-After as received, when present. */
  rateLimit: Record<string, string>;
  ms: number;
  /** Transport failures retried before this answer came. */
  retries?: number;
}

/** `passed`: exit 0. `failed`: a check failed, exit 1. `cannot-run`: the run could not judge the deployment, exit 2. */
export type Verdict = 'passed' | 'failed' | 'cannot-run';

export const exitCodes: Record<Verdict, number> = { passed: 0, failed: 1, 'cannot-run': 2 };

export interface RunReport {
  tool: { name: string; version: string };
  runId: string;
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  verdict: Verdict;
  /** Why the run could not judge the deployment, when it could not. */
  reason?: string;
  options: { readOnly: boolean; probeRateLimit: boolean; seed: number; depth: string; checks: string[] };
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
  checks: CheckReport[];
  /** Every request the run sent, in order, so a pass can be audited as well as a failure. */
  exchanges: ExchangeSummary[];
  summary: { passed: number; failed: number; skipped: number; warnings: number };
}

/** A check fails when any operation fails, passes when any passes, and is skipped otherwise. */
export function checkStatus(operations: OperationResult[]): CheckReport['status'] {
  if (operations.some((o) => o.status === 'failed')) return 'failed';
  if (operations.some((o) => o.status === 'passed')) return 'passed';
  return 'skipped';
}
