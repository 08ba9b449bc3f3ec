import type { Evidence, Finding, Severity } from '../check.ts';
import type { CheckReport, RunReport } from '../runReport.ts';

/**
 * One verdict the reports list as a test: a check on one operation. JUnit, CTRF and the GitHub
 * annotations all read these, so they name the same things the same way. (When checks report
 * generated cases, each case becomes one of these, named `check operation case`.)
 */
export interface ReportTestCase {
  check: CheckReport;
  operationId: string;
  /** `auth listPets`: what CI test views show. */
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  severity: Severity;
  /** Why it was skipped. */
  reason?: string;
  failures: Finding[];
  warnings: Finding[];
  durationMs: number;
}

export function testCases(report: RunReport): ReportTestCase[] {
  return report.checks.flatMap((check) =>
    check.operations.map((op) => ({
      check,
      operationId: op.operationId,
      name: `${check.id} ${op.operationId}`,
      status: op.status,
      severity: check.severity,
      ...(op.status === 'skipped' ? { reason: op.reason ?? 'not exercised in this run' } : {}),
      failures: op.findings.filter((f) => f.level === 'failure'),
      warnings: op.findings.filter((f) => f.level === 'warning'),
      durationMs: Math.round(check.durationMs / Math.max(1, check.operations.length)),
    })),
  );
}

/** A finding's one-line message, with how often it was seen. */
export function findingLine(f: Finding): string {
  return `${f.message}${f.occurrences > 1 ? ` (${f.occurrences} times)` : ''}`;
}

const indent = (text: string) => text.split('\n').map((line) => (line === '' ? '' : `    ${line}`)).join('\n');
const headerLines = (headers: Record<string, string>) => Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\n');

/** The evidence as plain text: request, response and the curl line that reproduces it. */
export function evidenceText(e: Evidence): string {
  return [
    `Request: ${e.request.method} ${e.request.url}`,
    indent(headerLines(e.request.headers)),
    ...(e.request.body !== undefined ? [indent(`\n${e.request.body}`)] : []),
    `Response: ${e.response.status}`,
    indent(headerLines(e.response.headers)),
    ...(e.response.bodyExcerpt !== '' ? [indent(`\n${e.response.bodyExcerpt}`)] : []),
    `Reproduce: ${e.curl}`,
  ].join('\n');
}

/** Every finding of a test case with its evidence, as plain text (JUnit failure text, CTRF trace). */
export function findingsText(findings: Finding[]): string {
  return findings.map((f) => `[${f.level}] ${findingLine(f)}${f.evidence ? `\n${evidenceText(f.evidence)}` : ''}`).join('\n\n');
}

/** The one line a cannot-run report leads with. */
export function cannotRunLine(report: RunReport): string {
  return `The suite could not judge ${report.baseUrl}: ${report.reason ?? 'unknown reason'}`;
}
