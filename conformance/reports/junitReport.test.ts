import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../runReport.ts';
import { failingRun, notRunAtAll, refusedKeyRun } from './testing/handBuiltRuns.ts';
import { testCases } from './testCases.ts';
import { renderReports } from './writeReports.ts';

const xml = (report: RunReport) => new JSDOM(renderReports(report).junit, { contentType: 'text/xml' }).window.document;

describe('the JUnit report', () => {
  const failing = failingRun();

  it('names test cases by check id, operation and generated case, a suite per check', () => {
    const doc = xml(failing);
    expect([...doc.querySelectorAll('testsuite')].map((s) => s.getAttribute('name'))).toEqual(failing.checks.map((c) => c.id));
    const cases = [...doc.querySelectorAll('testcase')].map((t) => [t.getAttribute('classname'), t.getAttribute('name')]);
    expect(cases).toEqual(testCases(failing).map((t) => [t.check.id, t.name]));
    expect(cases).toContainEqual(['get-pet', 'get-pet getPet get-pet/path/petId/known']);
    expect(cases).toContainEqual(['response-schema', 'response-schema listPets']);
  });

  it('gives every failure a message and, as its text, the evidence and the curl line', () => {
    const failures = [...xml(failing).querySelectorAll('failure')];
    expect(failures.length).toBe(testCases(failing).filter((t) => t.status === 'failed').length);
    for (const failure of failures) {
      expect(failure.getAttribute('message')).toBeTruthy();
      expect(failure.getAttribute('type')).toMatch(/^(critical|high|medium|low)$/);
      expect(failure.textContent).toContain(`[failure] ${failure.getAttribute('message')!.replace(/ \(\+\d+ more\)$/, '')}`);
    }
    const schema = xml(failing).querySelector('testcase[name="response-schema listPets"] failure')!;
    expect(schema.textContent).toMatch(/Request: GET http:\/\/deployment.test\/v1\/pets(\?\S*)?\n( {4}.*\n)* {4}authorization: Bearer \$PETS_API_KEY\n/);
    expect(schema.textContent).toMatch(/Response: 200\n( {4}.*\n)* {4}content-type: application\/json/);
    expect(schema.textContent).toMatch(/\n {4}\[\{"id":\d+,/);
    expect(schema.textContent).toMatch(/Reproduce: curl -i 'http:\/\/deployment.test\/v1\/pets(\?[^']*)?'/);
  });

  it('gives every skip its reason', () => {
    const skipped = [...xml(failing).querySelectorAll('skipped')];
    expect(skipped.length).toBeGreaterThan(0);
    for (const skip of skipped) expect(skip.getAttribute('message')).toBeTruthy();
    expect(xml(failing).querySelector('testcase[name="rate-limit-probe listPets"] skipped')?.getAttribute('message')).toMatch(/--probe-rate-limit/);
  });

  it('reports a run that could not judge as an <error> with the reason', () => {
    for (const report of [refusedKeyRun(), notRunAtAll()]) {
      const doc = xml(report);
      const error = doc.querySelector('testcase error')!;
      expect(error.getAttribute('message')).toContain(report.reason!);
      expect(doc.querySelector('testsuites')?.getAttribute('errors')).toBe('1');
      expect(doc.querySelectorAll('failure')).toHaveLength(0);
    }
    expect(xml(refusedKeyRun()).querySelector('error')?.textContent).toMatch(/GET http:\/\/deployment.test\/v1\/pets -> 401/);
  });

  it('gives every check\'s testsuite its time and timestamp', () => {
    const xml = renderReports(failing).junit;
    const suites = [...xml.matchAll(/<testsuite [^>]*>/g)].map((m) => m[0]);
    expect(suites.length).toBeGreaterThan(5);
    for (const suite of suites) expect(suite).toMatch(/ time="\d+(\.\d+)?"/);
    for (const suite of suites) expect(suite).toMatch(/ timestamp="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
  });
});
