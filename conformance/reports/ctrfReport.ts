import { coverageHeadline, coverageLines } from './coverageTable.ts';
import { randomUUID } from 'node:crypto';
import type { CTRFReport, Test } from 'ctrf';
import type { RunReport } from '../runReport.ts';
import { cannotRunLine, findingLine, findingsText, testCases } from './testCases.ts';

/** The CTRF version this writer follows (ctrf's `CURRENT_SPEC_VERSION`, checked by a test). */
export const ctrfSpecVersion = '0.0.0';

/**
 * A CTRF report (Common Test Report Format, https://ctrf.io): a test per check and operation, named
 * like the JUnit test cases, with the check's severity as tag and label, the findings as message and
 * trace, and the first curl line in `extra`. A run that could not judge has one more test, failed, with the reason.
 */
export function ctrfReport(report: RunReport): CTRFReport {
  const start = Date.parse(report.startedAt);
  const cannotRun: Test[] = report.verdict === 'cannot-run'
    ? [{ name: `${report.tool.name} could not run`, status: 'failed', duration: report.durationMs, message: cannotRunLine(report), suite: [report.tool.name], tags: ['cannot-run'], extra: { verdict: 'cannot-run' } }]
    : [];
  const tests: Test[] = [...cannotRun, ...testCases(report).map((test): Test => {
      const findings = [...test.failures, ...test.warnings];
      const curl = findings.find((f) => f.evidence)?.evidence?.curl;
      const message = test.status === 'failed'
        ? test.failures.map(findingLine).join('\n')
        : test.status === 'skipped' ? test.reason : test.warnings.length > 0 ? test.warnings.map((f) => `warning: ${findingLine(f)}`).join('\n') : undefined;
      return {
        testId: `${test.check.id}/${test.operationId}${test.case !== undefined ? `/${test.case}` : ''}`,
        name: test.name,
        status: test.status,
        duration: test.durationMs,
        suite: [report.tool.name, test.check.id],
        ...(message !== undefined ? { message } : {}),
        ...(findings.length > 0 ? { trace: findingsText(findings) } : {}),
        tags: [test.severity],
        labels: { check: test.check.id, operation: test.operationId, ...(test.case !== undefined ? { case: test.case } : {}), severity: test.severity },
        extra: { title: test.check.title, ...(curl ? { curl } : {}), ...(test.warnings.length > 0 ? { warnings: test.warnings.length } : {}) },
      };
    })];
  const count = (status: Test['status']) => tests.filter((t) => t.status === status).length;
  return {
    reportFormat: 'CTRF',
    specVersion: ctrfSpecVersion,
    reportId: randomUUID(),
    ...(report.runId !== 'none' ? { runId: report.runId } : {}),
    timestamp: new Date(start + report.durationMs).toISOString(),
    generatedBy: `${report.tool.name} ${report.tool.version}`,
    results: {
      tool: { name: report.tool.name, version: report.tool.version },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: 0,
        other: 0,
        suites: report.checks.length,
        start,
        stop: start + report.durationMs,
        duration: report.durationMs,
      },
      tests,
      environment: { testEnvironment: report.baseUrl },
      extra: {
        verdict: report.verdict,
        ...(report.reason !== undefined ? { reason: report.reason } : {}),
        // What the run left unchecked, and whether --allow-partial accepted that.
        allowPartial: report.options.allowPartial ?? false,
        ...(report.unchecked !== undefined ? { unchecked: report.unchecked } : {}),
        baseUrl: report.baseUrl,
        requests: report.requests.total,
        // What the run verified, rule by rule: judged on how many answers, or not reached and why.
        ...((report.coverage ?? []).length > 0 ? { verified: coverageHeadline(report), coverage: coverageLines(report) } : {}),
      },
    },
  };
}
