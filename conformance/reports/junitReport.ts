import { coverageLines } from './coverageTable.ts';
import junitModule, { type Builder } from 'junit-report-builder';
import type { RunReport } from '../runReport.ts';
import { cannotRunLine, findingLine, findingsText, testCases } from './testCases.ts';
import { partialRunLine } from '../unchecked.ts';

// The package is CommonJS whose module.exports is the builder itself; its types describe an ES default export.
const junit = junitModule as unknown as Builder;

type TestCase = ReturnType<ReturnType<Builder['testSuite']>['testCase']>;
interface XmlElement {
  name?: string;
  children: XmlElement[];
  attribute(name: string, value: string): XmlElement;
}

/**
 * junit-report-builder writes a bare `<skipped/>`; CI viewers show a skip's `message`, so it is
 * added to the element the library builds.
 */
function skippedWithMessage(testCase: TestCase, message: string): void {
  testCase.skipped();
  const build = testCase.build.bind(testCase);
  testCase.build = (parent) => {
    const element = build(parent) as unknown as XmlElement;
    element.children.find((child) => child.name === 'skipped')?.attribute('message', message);
    return element as unknown as ReturnType<typeof build>;
  };
}

/**
 * JUnit XML for CI test views: a suite per check, a test case per generated case the check sent
 * and per check and operation where no case says it (classname the check id, name `check operation
 * case` or `check operation`; see testCases.ts). A failure's `message` is its first finding and its
 * text every finding with evidence and curl line; a skip carries its reason; warnings go to system-out.
 * A run that could not judge has one more test case, an `<error>` saying why, before any check it reports.
 */
export function junitReport(report: RunReport): string {
  const builder = junit.newBuilder().name(`${report.tool.name} ${report.baseUrl}`);
  if (report.verdict === 'cannot-run') {
    builder.testSuite().name(report.tool.name).testCase().className(report.tool.name).name(`${report.tool.name} could not run`)
      .error(cannotRunLine(report), 'cannot-run', [cannotRunLine(report), ...report.exchanges.map((e) => `${e.method} ${e.url} -> ${e.status}`)].join('\n'));
  }
  // A partial run (--allow-partial) shows as one skipped test naming what it left unchecked.
  const partial = partialRunLine(report);
  if (partial !== undefined) skippedWithMessage(builder.testSuite().name(report.tool.name).testCase().className(report.tool.name).name(`${report.tool.name} partial run`), partial);
  const suites = new Map<string, ReturnType<Builder['testSuite']>>();
  for (const test of testCases(report)) {
    const { check } = test;
    let suite = suites.get(check.id);
    if (!suite) {
      // time and timestamp, as CI test views (and the JUnit schema) expect of every suite.
      suite = builder.testSuite().name(check.id).time(check.durationMs / 1000).timestamp(new Date(report.startedAt)).property('title', check.title).property('severity', check.severity);
      // The model's rules this check judged, each with where (and on how many answers), or why not.
      for (const line of coverageLines(report).filter((l) => l.check === check.id && l.rule !== check.id)) {
        suite.property(`rule ${line.rule}`, line.status === 'not reached' ? `not reached: ${line.reason ?? ''}` : `${line.status} on ${line.judged}`);
      }
      suites.set(check.id, suite);
    }
    const testCase = suite.testCase().className(check.id).name(test.name).time(test.durationMs / 1000);
    if (test.status === 'failed') {
      const first = test.failures[0]!;
      const more = test.failures.length > 1 ? ` (+${test.failures.length - 1} more)` : '';
      testCase.failure(`${findingLine(first)}${more}`, check.severity).stacktrace(findingsText(test.failures));
    }
    if (test.status === 'skipped') skippedWithMessage(testCase, test.reason!);
    if (test.warnings.length > 0) testCase.standardOutput(findingsText(test.warnings));
  }
  return builder.build();
}
