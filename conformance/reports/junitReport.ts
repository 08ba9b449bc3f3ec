import junitModule, { type Builder } from 'junit-report-builder';
import type { RunReport } from '../runReport.ts';

// The package is CommonJS whose module.exports is the builder itself; its types describe an ES default export.
const junit = junitModule as unknown as Builder;

/** JUnit XML for CI: a suite per check, a test case per operation, failures with their findings. */
export function junitReport(report: RunReport): string {
  const builder = junit.newBuilder().name(`${report.tool.name} ${report.baseUrl}`);
  for (const check of report.checks) {
    const suite = builder.testSuite().name(check.id).property('title', check.title).property('severity', check.severity);
    for (const op of check.operations) {
      const testCase = suite.testCase().className(check.id).name(`${check.id} ${op.operationId}`).time(check.durationMs / 1000 / Math.max(1, check.operations.length));
      const failures = op.findings.filter((f) => f.level === 'failure');
      const lines = op.findings.map((f) => `[${f.level}] ${f.message}${f.occurrences > 1 ? ` (${f.occurrences} times)` : ''}${f.evidence ? `\n  reproduce: ${f.evidence.curl}` : ''}`);
      if (op.status === 'failed') testCase.failure(failures.map((f) => f.message).join('\n'), check.severity);
      if (op.status === 'skipped') testCase.skipped().standardOutput(`skipped: ${op.reason}`);
      else if (lines.length > 0) testCase.standardOutput(lines.join('\n'));
    }
  }
  return builder.build();
}
