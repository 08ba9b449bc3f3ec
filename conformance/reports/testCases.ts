import type { Evidence, Finding, Severity } from '../check.ts';
import type { CheckReport, RunReport } from '../runReport.ts';

/**
 * One verdict the reports list as a test: a generated case a check sent (`create-pet createPet
 * create-pet/body/categoryId/float`), or a check on one operation where no single case says it
 * (a passive check, a case-less check, a finding about several answers). JUnit, CTRF and the GitHub
 * annotations all read these, so they name the same things the same way.
 */
export interface ReportTestCase {
  check: CheckReport;
  operationId: string;
  /** The generated case, when the test is one. */
  case?: string;
  /** `auth listPets` or `auth listPets auth/list-pets/no-header`: what CI test views show. */
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  severity: Severity;
  /** Why it was skipped: the check did not apply, or the case could not be judged. */
  reason?: string;
  failures: Finding[];
  warnings: Finding[];
  durationMs: number;
}

const failuresIn = (findings: Finding[]) => findings.filter((f) => f.level === 'failure');
const warningsIn = (findings: Finding[]) => findings.filter((f) => f.level === 'warning');

/**
 * The tests of a run, from its record as it stands: each case a check sent with the verdict the run
 * gave it, and a test per check and operation for what no case of its own says.
 */
export function testCases(report: RunReport): ReportTestCase[] {
  return report.checks.flatMap((check) => check.operations.flatMap((op): ReportTestCase[] => {
    const base = { check, operationId: op.operationId, severity: check.severity };
    const inconclusive = op.inconclusive ?? [];
    const own = new Set((op.cases ?? []).map((c) => c.case));
    const cases = (op.cases ?? []).map((c): ReportTestCase => {
      const findings = op.findings.filter((f) => f.case === c.case);
      return { ...base, case: c.case, name: `${check.id} ${op.operationId} ${c.case}`, status: c.status, ...(c.reason !== undefined ? { reason: c.reason } : {}), failures: failuresIn(findings), warnings: warningsIn(findings), durationMs: c.durationMs };
    });

    // What no case of the check's own says: findings about other checks' answers or about several, case-less inconclusives.
    const rest = op.findings.filter((f) => f.case === undefined || !own.has(f.case));
    const restUnjudged = inconclusive.filter((i) => i.case === undefined);
    if (cases.length > 0 && rest.length === 0 && restUnjudged.length === 0) return cases;
    const failures = failuresIn(rest);
    const status = cases.length === 0 ? op.status : failures.length > 0 ? 'failed' : restUnjudged.length > 0 ? 'skipped' : 'passed';
    const reason = cases.length === 0 ? op.reason ?? 'not exercised in this run' : `could not judge: ${restUnjudged.map((i) => i.reason).join('; ')}`;
    const operationTest: ReportTestCase = {
      ...base,
      name: `${check.id} ${op.operationId}`,
      status,
      ...(status === 'skipped' ? { reason } : {}),
      failures,
      warnings: warningsIn(rest),
      durationMs: Math.round(check.durationMs / Math.max(1, check.operations.length)),
    };
    return [operationTest, ...cases];
  }));
}

/** A finding's one-line message, led by its case name, with how often it was seen. */
export function findingLine(f: Finding): string {
  return `${f.case !== undefined ? `${f.case}: ` : ''}${f.message}${f.occurrences > 1 ? ` (${f.occurrences} times)` : ''}`;
}

const indent = (text: string) => text.split('\n').map((line) => (line === '' ? '' : `    ${line}`)).join('\n');
/** Headers as an HTTP message shows them, a `name: value` line each. */
export const headerLines = (headers: Record<string, string>) => Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\n');

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
