// One blind catalogue against the suite as the deploy gate runs it (deployGate): each regression
// killed today must keep failing the run; each survivor is recorded with why a gate run lets it
// through, and must still pass, so a change that starts killing one fails until it is moved out of
// `survivors` (and docs/suite-power.md, "<Batch> batch, after", is updated). Every legal variant
// must pass, but those listed in `falseAlarms`. The doc's figures are held here too.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { LegalVariant, Regression } from './regressions.ts';
import { deployGate, failedChecks, runOnFreshDeployment } from './runSuite.ts';

/**
 * Why a survivor gets through: the run never sends the request that shows it (`not sent`), sends
 * it and reads the faulty answer without judging that part (`not judged`), reports it as a warning
 * only (`warned`), or takes the faulty answer as transient and is answered rightly when it resends.
 */
export type Why = 'not sent' | 'not judged' | 'warned' | 'retried';

export interface Catalogue<R extends Regression & { area: string }, V extends LegalVariant> {
  /** How docs/suite-power.md names it: `Third` for "### Third batch, after". */
  batch: string;
  regressions: readonly R[];
  legalVariants: readonly V[];
  survivors: Readonly<Record<string, { why: Why; detail: string }>>;
  /** Legal variants the gate fails, each with the failing check. */
  falseAlarms: Readonly<Record<string, string>>;
}

export function describeCatalogue<R extends Regression & { area: string }, V extends LegalVariant>({ batch, regressions, legalVariants, survivors, falseAlarms }: Catalogue<R, V>): void {
  const killed = regressions.filter((r) => survivors[r.name] === undefined);
  const surviving = regressions.filter((r) => survivors[r.name] !== undefined);

  describe(`the ${batch.toLowerCase()} catalogue against the deploy gate`, () => {
    it('records only its own entries', () => {
      const names = new Set(regressions.map((r) => r.name));
      expect(Object.keys(survivors).filter((name) => !names.has(name))).toEqual([]);
      expect(Object.keys(falseAlarms).filter((name) => !legalVariants.some((v) => v.name === name))).toEqual([]);
    });

    it.each(killed)('fails the run when $area: $name', async ({ make, mockOptions }) => {
      const result = await runOnFreshDeployment(make(), deployGate, mockOptions);
      expect(result.exitCode, result.report.reason ?? `failed checks: ${failedChecks(result).join(', ')}`).toBe(1);
    });

    it.each(surviving)('passes the run, recorded as a survivor, when $area: $name', async ({ name, make, mockOptions }) => {
      const result = await runOnFreshDeployment(make(), deployGate, mockOptions);
      expect(result.exitCode, `now killed (${survivors[name]!.why} no more, failed checks: ${failedChecks(result).join(', ')}): move it out of \`survivors\` and update docs/suite-power.md`).toBe(0);
    });

    it.each(legalVariants)('passes the run when it $name', async ({ name, make, mockOptions }) => {
      const result = await runOnFreshDeployment(make(), deployGate, mockOptions);
      expect(result.exitCode, result.report.reason ?? `failed checks: ${failedChecks(result).join(', ')}`).toBe(falseAlarms[name] === undefined ? 0 : 1);
    });

    it('is counted in docs/suite-power.md', async () => {
      const whole = await readFile(new URL('../../docs/suite-power.md', import.meta.url), 'utf8');
      // The figures of today's suite; the first run's stay above them, as recorded.
      const doc = whole.slice(whole.indexOf(`### ${batch} batch, after`));
      const percent = (n: number, of: number) => `${n} of ${of} (${Math.floor((100 * n) / of)}%)`;
      expect(doc).toContain(`| ${batch} batch after: regressions killed | ${percent(killed.length, regressions.length)} |`);
      expect(doc).toContain(`| ${batch} batch after: legal variants failed (false alarms) | ${percent(Object.keys(falseAlarms).length, legalVariants.length)} |`);
      // The survivors by why, and the kills by area, as the doc's tables give them.
      for (const why of ['not sent', 'not judged', 'warned', 'retried'] as const) {
        const count = Object.values(survivors).filter((s) => s.why === why).length;
        if (count > 0) expect(doc).toContain(`| ${why} | ${count} |`);
      }
      for (const area of new Set(regressions.map((r) => r.area))) {
        const all = regressions.filter((r) => r.area === area);
        expect(doc).toContain(`| ${area} | ${all.length} | ${all.filter((r) => survivors[r.name] === undefined).length} |`);
      }
    });
  });
}
