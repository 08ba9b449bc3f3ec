// The soak tier: runs in a row against one mock, as a CI gate makes them day after day. Nothing a
// run leaves behind (the pets it created, a window it spent) may make a later run fail, and the
// run's own budgets (bodies kept, time, requests) never become findings about the deployment.
// In-process on the mock's manual clock: every wait moves the clock, nothing sleeps.
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../spec/compileSchema.ts';
import { componentSchema } from '../spec/loadSpec.ts';
import { defaultPetsFile, loadPetsFile } from '../fixtures/loadFixtures.ts';
import { testSpec } from '../mock/testing.ts';
import { inProcessDeployment } from './testing/deployment.ts';
import { runSuite } from './testing/runSuite.ts';
import { DayBudget, keptInPart, soakDepths as depths, soakKeys as keys, whyNot } from './testing/soakPlan.ts';

const rounds = 20;

describe('runs in a row against one mock', () => {
  it(`exit 0, ${rounds} rounds of every depth with a Free, a Pro and an Enterprise key, each run starting where the last ended`, { timeout: 1_800_000 }, async () => {
    const spec = await testSpec();
    // The mock as `npm start` serves it: the default fixtures and keys.
    const pets = await loadPetsFile(defaultPetsFile, compileSchema(componentSchema(spec, 'Pets')));
    const deployment = await inProcessDeployment(undefined, { pets });
    const budget = new DayBudget(deployment.clock);
    const verdicts: string[] = [];
    const kept: string[] = [];
    try {
      for (let round = 1; round <= rounds; round++) {
        for (const { key } of keys) {
          for (const depth of depths) {
            budget.before(key);
            const result = await runSuite(deployment, { apiKey: key, depth });
            budget.after(key, result);
            const label = `round ${round} ${key} --depth ${depth}`;
            verdicts.push(`${label}: exit ${result.exitCode}${result.exitCode === 0 ? '' : `\n${whyNot(result)}`}`);
            kept.push(...keptInPart(result, label));
          }
        }
      }
      const storeSize = await deployment.mock.mock.store.count();
      const longest = Math.max(...(await deployment.mock.mock.store.all()).map((p) => p.name.length));
      expect(verdicts.filter((v) => !/: exit 0$/.test(v))).toEqual([]);
      expect(verdicts).toHaveLength(rounds * keys.length * depths.length);
      // What the runs left behind stays small: no name over the 5,001 characters of the suite's
      // longest edge value, so no later list outgrew what a run keeps of its answers.
      expect(longest).toBeLessThanOrEqual(5_001);
      expect(kept).toEqual([]);
      expect(storeSize).toBeGreaterThan(250 + rounds * keys.length * depths.length * 20);
    } finally {
      await deployment.close();
    }
  });
});
