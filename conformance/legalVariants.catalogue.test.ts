// No false alarms: every legal variant of the independent catalogue (each makes choices the
// contract leaves open differently from the mock) passes, with one key or two, on Pro and Free.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { legalVariants as batch1 } from './testing/regressions.ts';
import { legalVariants2 } from './testing/regressions2.ts';

const legalVariants = [...batch1, ...legalVariants2];
import { deployGate, runOnFreshDeployment } from './testing/runSuite.ts';
import { legalChoices } from './testing/legalChoices.ts';
import type { ConformanceResult } from './index.ts';

const failures = (result: ConformanceResult) => result.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => `${c.id}: ${f.message}`)));

describe('a deployment that makes other legal choices', () => {
  it.each(legalVariants)('passes when it $name', async ({ make, mockOptions }) => {
    for (const options of [{ probeRateLimit: true }, deployGate, { apiKey: 'demo-free', apiKeyPlan: 'free' } as const]) {
      const result = await runOnFreshDeployment(make(), options, mockOptions);
      expect(failures(result), JSON.stringify(options)).toEqual([]);
      expect(result.exitCode, `${JSON.stringify(options)}: ${result.report.reason ?? ''}`).toBe(0);
      // A Free key's run meets no 429 it did not ask for.
      if (!options.probeRateLimit) expect(result.report.exchanges.filter((e) => e.status === 429)).toEqual([]);
    }
  });

  // A false alarm may hide behind one seed: every variant again with two more, and the project's
  // own legal deployments with the full depth's forty sequences.
  it.each(legalVariants)('passes with seeds 2 and 3 too when it $name', async ({ make, mockOptions }) => {
    for (const seed of [2, 3]) {
      const result = await runOnFreshDeployment(make(), { ...deployGate, seed }, mockOptions);
      expect(failures(result), `seed ${seed}`).toEqual([]);
    }
  });

  it.each([1, 2, 3, 4])('passes the project\'s legal-choices deployment at --depth full, seed %i', async (seed) => {
    const result = await runOnFreshDeployment(legalChoices.transform, { depth: 'full', seed, probeRateLimit: true, apiKeyPlan: 'pro' }, legalChoices.mockOptions);
    expect(failures(result)).toEqual([]);
  });

  it('is counted in docs/suite-power.md', async () => {
    const doc = await readFile(new URL('../docs/suite-power.md', import.meta.url), 'utf8');
    expect(doc).toContain(`| Legal variants failed (false alarms) | 0 of ${legalVariants.length} (0%) |`);
  });
});
