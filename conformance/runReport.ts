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
  method: string;
  url: string;
  status: number;
  /** The three rate-limit headers and Retry-After as received, when present. */
  rateLimit: Record<string, string>;
  ms: number;
}

export interface RunReport {
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
  summary: { passed: number; failed: number; skipped: number; warnings: number };
}

/** A check fails when any operation fails, passes when any passes, and is skipped otherwise. */
export function checkStatus(operations: OperationResult[]): CheckReport['status'] {
  if (operations.some((o) => o.status === 'failed')) return 'failed';
  if (operations.some((o) => o.status === 'passed')) return 'passed';
  return 'skipped';
}
