// The fourth catalogue (testing/regressions4.ts) against the suite as the deploy gate runs it: each
// regression killed today must keep failing the run; each survivor is recorded with why a default
// run lets it through, and must still pass, so a change that starts killing one fails here until it
// is moved out of `survivors` (and docs/suite-power.md, "Fourth batch", is updated). Every legal
// variant must pass; a variant failed would be listed in `falseAlarms` (none is). The first run's
// figures (25 of 42 killed, 0 of 12 false alarms) are recorded in docs/suite-power.md.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { legalVariants4, regressions4 } from './testing/regressions4.ts';
import { deployGate, failedChecks, runOnFreshDeployment } from './testing/runSuite.ts';


/**
 * Why a survivor gets through: the run never sends the request that shows it (`not sent`), sends
 * it and reads the faulty answer without judging that part (`not judged`), reports it as a warning
 * only (`warned`), or takes the faulty answer as transient and is answered rightly when it resends.
 */
type Why = 'not sent' | 'not judged' | 'warned' | 'retried';
const survivors: Record<string, { why: Why; detail: string }> = {
  'X-RateLimit-Limit overwritten by the daily limiter': { why: 'not judged', detail: 'the Pro key reads X-RateLimit-Limit 10000 beside Remaining 299 on its first request and is refused after 300; the Limit is not compared with the plan nor with the Remaining it is refused at' },
  'Enterprise keys answered X-RateLimit-Limit: -1': { why: 'not sent', detail: 'the gate sends only demo-pro and demo-free, never an Enterprise key' },
  'Business keys fall back to the Free plan (plan name case mismatch)': { why: 'not sent', detail: 'the gate sends only demo-pro and demo-free, never a Business key' },
  'sliding-window limiter behind fixed-window headers': { why: 'not judged', detail: 'the probe retries once the last 429\'s Retry-After (30 s) has passed and is refused again, but with Retry-After 60, longer than the one it waited out: the temporary ban the contract allows after the repeated requests that followed the 429 would look the same' },
  'window end inclusive: a request at the exact reset second counts in the old window': { why: 'not sent', detail: 'the fault refuses only a request at the very millisecond X-RateLimit-Reset names; the probe retries half a second after the last 429\'s Retry-After, as a client whose clock ticks in whole seconds may' },
  'categoryId spelled 1.0 or 1e3 refused by Go\'s int64 decoder': { why: 'not sent', detail: 'the run\'s categoryIds are plain integer literals (and 1.5, past int64); none is a whole number spelled with a fraction or an exponent' },
  '201 built from the entity before the database default is applied': { why: 'not judged', detail: 'the run creates pets without status (a 201 without status) and reads them back with status available; status is optional, and the 201 is not held to the pet as later read' },
  'HEAD /pets/{petId} answered without Deprecation, Sunset and Link': { why: 'warned', detail: 'http-semantics warning: HEAD /pets/75 lacks deprecation, sunset, link, which GET of the same URL sent (RFC 9110, 9.3.2 SHOULD)' },
  'Deprecation: true from a pinned old middleware release': { why: 'warned', detail: 'deprecation warning: "Deprecation: true, a form of the drafts before RFC 9745"' },
};

/** Legal variants the gate fails, each with the failing check: none on the first run. */
const falseAlarms: Record<string, string> = {};

const killed = regressions4.filter((r) => survivors[r.name] === undefined);
const surviving = regressions4.filter((r) => survivors[r.name] !== undefined);

describe('the fourth catalogue against the deploy gate', () => {
  it('records only its own entries', () => {
    const names = new Set(regressions4.map((r) => r.name));
    expect(Object.keys(survivors).filter((name) => !names.has(name))).toEqual([]);
    expect(Object.keys(falseAlarms).filter((name) => !legalVariants4.some((v) => v.name === name))).toEqual([]);
  });

  it.each(killed)('fails the run when $area: $name', async ({ make, mockOptions }) => {
    const result = await runOnFreshDeployment(make(), deployGate, mockOptions);
    expect(result.exitCode, result.report.reason ?? `failed checks: ${failedChecks(result).join(', ')}`).toBe(1);
  });

  it.each(surviving)('passes the run, recorded as a survivor, when $area: $name', async ({ name, make, mockOptions }) => {
    const result = await runOnFreshDeployment(make(), deployGate, mockOptions);
    expect(result.exitCode, `now killed (${survivors[name]!.why} no more, failed checks: ${failedChecks(result).join(', ')}): move it out of \`survivors\``).toBe(0);
  });

  it.each(legalVariants4)('passes the run when it $name', async ({ name, make, mockOptions }) => {
    const result = await runOnFreshDeployment(make(), deployGate, mockOptions);
    expect(result.exitCode, result.report.reason ?? `failed checks: ${failedChecks(result).join(', ')}`).toBe(falseAlarms[name] === undefined ? 0 : 1);
  });

  it('is counted in docs/suite-power.md', async () => {
    const whole = await readFile(new URL('../docs/suite-power.md', import.meta.url), 'utf8');
    const doc = whole.slice(whole.indexOf('### Fourth batch, after'));
    const percent = (n: number, of: number) => `${n} of ${of} (${Math.floor((100 * n) / of)}%)`;
    expect(doc).toContain(`| Fourth batch after: regressions killed | ${percent(killed.length, regressions4.length)} |`);
    expect(doc).toContain(`| Fourth batch after: legal variants failed (false alarms) | ${percent(Object.keys(falseAlarms).length, legalVariants4.length)} |`);
    for (const why of ['not sent', 'not judged', 'warned', 'retried'] as const) {
      const count = Object.values(survivors).filter((s) => s.why === why).length;
      if (count > 0) expect(doc).toContain(`| ${why} | ${count} |`);
    }
    for (const area of new Set(regressions4.map((r) => r.area))) {
      const all = regressions4.filter((r) => r.area === area);
      expect(doc).toContain(`| ${area} | ${all.length} | ${all.filter((r) => survivors[r.name] === undefined).length} |`);
    }
  });
});
