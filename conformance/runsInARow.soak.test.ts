// The soak tier: runs in a row against one mock, as a CI gate makes them day after day. Nothing a
// run leaves behind (the pets it created, a window it spent) may make a later run fail, and the
// run's own budgets (bodies kept, time, requests) never become findings about the deployment.
// In-process on the mock's manual clock: every wait moves the clock, nothing sleeps.
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../spec/compileSchema.ts';
import { componentSchema } from '../spec/loadSpec.ts';
import { defaultPetsFile, loadPetsFile } from '../fixtures/loadFixtures.ts';
import { testSpec } from '../mock/testing.ts';
import type { Depth } from './check.ts';
import type { ConformanceResult } from './index.ts';
import { inProcessDeployment } from './testing/deployment.ts';
import { runSuite } from './testing/runSuite.ts';

const rounds = 20;
const depths: Depth[] = ['quick', 'full', 3];
/** The demo keys of fixtures/keys.json and what each may spend in a UTC day. */
const keys = [
  { key: 'demo-free', perDay: 1_000 },
  { key: 'demo-pro', perDay: 10_000 },
  { key: 'demo-enterprise', perDay: 100_000_000 },
];
/** Requests without a key are counted per client address at the Free plan's day. */
const anonymousPerDay = 1_000;
/** More than any run sends with its key (a Pro run at --depth full: under 500). */
const aRunAtMost = 600;
const dayMs = 86_400_000;

/** Why a run did not exit 0: its reason, or its failing checks and their first findings. */
function whyNot(result: ConformanceResult): string {
  if (result.report.reason !== undefined) return result.report.reason;
  return result.report.checks
    .filter((c) => c.status === 'failed')
    .map((c) => `${c.id}: ${c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure')).map((f) => f.message).slice(0, 2).join(' | ')}`)
    .join('\n');
}

describe('runs in a row against one mock', () => {
  it(`exit 0, ${rounds} rounds of every depth with a Free, a Pro and an Enterprise key, each run starting where the last ended`, { timeout: 1_800_000 }, async () => {
    const spec = await testSpec();
    // The mock as `npm start` serves it: the default fixtures and keys.
    const pets = await loadPetsFile(defaultPetsFile, compileSchema(componentSchema(spec, 'Pets')));
    const deployment = await inProcessDeployment(undefined, { pets });
    // What each key, and the client address without a key, spent in the mock's current UTC day.
    const spent = new Map<string, number>();
    let day = Math.floor(deployment.clock.now() / dayMs);
    const verdicts: string[] = [];
    const keptInPart: string[] = [];
    try {
      for (let round = 1; round <= rounds; round++) {
        for (const { key, perDay } of keys) {
          for (const depth of depths) {
            // A key's day that would not hold another run: the gate runs again the next day, as
            // the contract's day quota makes any client do (a run that meets it exits 2, honestly).
            if ((spent.get(key) ?? 0) + aRunAtMost > perDay || (spent.get('') ?? 0) + 40 > anonymousPerDay) {
              deployment.clock.advance((day + 1) * dayMs + 30_000 - deployment.clock.now());
            }
            const today = Math.floor(deployment.clock.now() / dayMs);
            if (today !== day) {
              day = today;
              spent.clear();
            }
            const result = await runSuite(deployment, { apiKey: key, depth });
            // Spent across a midnight or not, counted against the day it started in: an overestimate.
            spent.set(key, (spent.get(key) ?? 0) + result.report.requests.withKey);
            spent.set('', (spent.get('') ?? 0) + result.report.requests.withoutKey);
            verdicts.push(`round ${round} ${key} --depth ${depth}: exit ${result.exitCode}${result.exitCode === 0 ? '' : `\n${whyNot(result)}`}`);
            for (const c of result.report.checks) {
              for (const o of c.operations) for (const i of o.inconclusive ?? []) if (/its own budget/.test(i.reason)) keptInPart.push(`round ${round} ${key} ${depth} ${c.id}: ${i.reason}`);
            }
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
      expect(keptInPart).toEqual([]);
      expect(storeSize).toBeGreaterThan(250 + rounds * keys.length * depths.length * 20);
    } finally {
      await deployment.close();
    }
  });
});
