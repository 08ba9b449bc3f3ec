// The fifth catalogue (testing/regressions5.ts) against the suite as the deploy gate runs it: each
// regression killed today must keep failing the run; each survivor is recorded with why a gate run
// lets it through, and must still pass, so a change that starts killing one fails here until it is
// moved out of `survivors` (and docs/suite-power.md, "Fifth batch", is updated). Every legal variant
// must pass. The first run's figures (25 of 41 killed, 0 of 14 false alarms) are recorded in
// docs/suite-power.md, "Fifth batch, first run".
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { legalVariants5, regressions5 } from './testing/regressions5.ts';
import { deployGate, failedChecks, runOnFreshDeployment } from './testing/runSuite.ts';

/**
 * Why a survivor gets through: the run never sends the request that shows it (`not sent`), sends
 * it and reads the faulty answer without judging that part (`not judged`), or reports it as a
 * warning only (`warned`), since the contract leaves it to HTTP's SHOULDs or names nothing of it.
 */
type Why = 'not sent' | 'not judged' | 'warned';
const survivors: Record<string, { why: Why; detail: string }> = {
  'Expires: 0 added by the no-cache middleware': { why: 'warned', detail: 'http.expires-age: an invalid Expires is a warning, as RFC 9111, 5.3 has recipients read "0" as a time in the past' },
  'daily quota never enforced (the day counter expires after a minute)': { why: 'not sent', detail: 'a run sends a few hundred requests, far under a day\'s quota' },
  'OPTIONS answered by the CORS middleware before the rate limiter adds its headers': { why: 'not judged', detail: 'a CORS preflight is the browser\'s, not a request to an operation: the rate-limit headers are not required on it' },
  'Access-Control-Allow-Origin sent by both the gateway and the app': { why: 'warned', detail: 'http.cors-origin: CORS fields are warnings, since the contract shows no CORS' },
  'nginx turns 429s into 444 (connection closed without an answer)': { why: 'not judged', detail: 'the probe\'s request over the limit is lost on every try while requests without a key are answered, as when a gateway answers 401s itself while the service behind it is down: the probe stops without a 429 and calls its case not judged' },
  'Date header left off by the serverless adapter': { why: 'warned', detail: 'http.date: a missing Date is a warning, a MUST of HTTP the contract does not restate (as 401 without WWW-Authenticate)' },
};

/** Legal variants the gate fails, each with the failing check: none. */
const falseAlarms: Record<string, string> = {};

const killed = regressions5.filter((r) => survivors[r.name] === undefined);
const surviving = regressions5.filter((r) => survivors[r.name] !== undefined);

describe('the fifth catalogue against the deploy gate', () => {
  it('records only its own entries', () => {
    const names = new Set(regressions5.map((r) => r.name));
    expect(Object.keys(survivors).filter((name) => !names.has(name))).toEqual([]);
    expect(Object.keys(falseAlarms).filter((name) => !legalVariants5.some((v) => v.name === name))).toEqual([]);
  });

  it.each(killed)('fails the run when $area: $name', async ({ make, mockOptions }) => {
    const result = await runOnFreshDeployment(make(), deployGate, mockOptions);
    expect(result.exitCode, result.report.reason ?? `failed checks: ${failedChecks(result).join(', ')}`).toBe(1);
  });

  it.each(surviving)('passes the run, recorded as a survivor, when $area: $name', async ({ name, make, mockOptions }) => {
    const result = await runOnFreshDeployment(make(), deployGate, mockOptions);
    expect(result.exitCode, `now killed (${survivors[name]!.why} no more, failed checks: ${failedChecks(result).join(', ')}): move it out of \`survivors\``).toBe(0);
  });

  it.each(legalVariants5)('passes the run when it $name', async ({ name, make, mockOptions }) => {
    const result = await runOnFreshDeployment(make(), deployGate, mockOptions);
    expect(result.exitCode, result.report.reason ?? `failed checks: ${failedChecks(result).join(', ')}`).toBe(falseAlarms[name] === undefined ? 0 : 1);
  });

  it('is counted in docs/suite-power.md', async () => {
    const whole = await readFile(new URL('../docs/suite-power.md', import.meta.url), 'utf8');
    const doc = whole.slice(whole.indexOf('### Fifth batch, after'));
    const percent = (n: number, of: number) => `${n} of ${of} (${Math.floor((100 * n) / of)}%)`;
    expect(doc).toContain(`| Fifth batch after: regressions killed | ${percent(killed.length, regressions5.length)} |`);
    expect(doc).toContain(`| Fifth batch after: legal variants failed (false alarms) | ${percent(Object.keys(falseAlarms).length, legalVariants5.length)} |`);
    for (const why of ['not sent', 'not judged', 'warned'] as const) {
      const count = Object.values(survivors).filter((s) => s.why === why).length;
      if (count > 0) expect(doc).toContain(`| ${why} | ${count} |`);
    }
    for (const area of new Set(regressions5.map((r) => r.area))) {
      const all = regressions5.filter((r) => r.area === area);
      expect(doc).toContain(`| ${area} | ${all.length} | ${all.filter((r) => survivors[r.name] === undefined).length} |`);
    }
  });
});
