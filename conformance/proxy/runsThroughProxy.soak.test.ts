// The soak tier through the validating proxy: runs in a row, over sockets, the suite's traffic
// passing the proxy on its way to one mock. Every run exits 0, and the proxy, having judged all of
// their traffic at once, finds nothing: what one run leaves behind is no fault for the next, in the
// suite's eyes or the proxy's. The mock, the suite and the proxy read one manual clock; every wait
// moves it, nothing sleeps.
import { afterEach, describe, expect, it } from 'vitest';
import { compileSchema } from '../../spec/compileSchema.ts';
import { componentSchema } from '../../spec/loadSpec.ts';
import { defaultPetsFile, loadPetsFile } from '../../fixtures/loadFixtures.ts';
import { ManualClock } from '../../mock/index.ts';
import { testSpec } from '../../mock/testing.ts';
import { runConformance } from '../index.ts';
import { passThrough } from '../testing/injectTransport.ts';
import { startDeployment } from '../testing/deployment.ts';
import { DayBudget, keptInPart, soakDepths as depths, soakKeys as keys, whyNot } from '../testing/soakPlan.ts';
import { startProxy } from './startProxy.ts';

const rounds = 20;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

describe('runs in a row through the proxy', () => {
  it(`exit 0, ${rounds} rounds of a Free, a Pro and an Enterprise key, the depth turning each round, and the proxy finds nothing in all their traffic`, { timeout: 1_800_000 }, async () => {
    const spec = await testSpec();
    const pets = await loadPetsFile(defaultPetsFile, compileSchema(componentSchema(spec, 'Pets')));
    // Half past twelve and thirty seconds: far from a minute or day boundary.
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 30));
    const deployment = await startDeployment(passThrough, { pets }, clock);
    open.push(deployment);
    const proxy = await startProxy({ target: deployment.baseUrl, spec, now: () => clock.now() });
    open.push(proxy);
    const budget = new DayBudget(clock);
    const verdicts: string[] = [];
    const kept: string[] = [];
    for (let round = 1; round <= rounds; round++) {
      const depth = depths[(round - 1) % depths.length]!;
      for (const { key } of keys) {
        budget.before(key);
        const result = await runConformance({ spec, baseUrl: `${proxy.url}/v1`, apiKey: key, depth, now: () => clock.now(), sleep: async (ms) => clock.advance(ms) });
        budget.after(key, result);
        const label = `round ${round} ${key} --depth ${depth}`;
        verdicts.push(`${label}: exit ${result.exitCode}${result.exitCode === 0 ? '' : `\n${whyNot(result)}`}`);
        kept.push(...keptInPart(result, label));
      }
    }
    expect(verdicts.filter((v) => !/: exit 0$/.test(v))).toEqual([]);
    expect(verdicts).toHaveLength(rounds * keys.length);
    expect(kept).toEqual([]);
    const { report, findings } = await proxy.judge();
    expect(findings.filter((f) => f.level === 'failure').map((f) => f.message)).toEqual([]);
    expect(report.verdict).toBe('passed');
    expect(proxy.forwarded()).toBeGreaterThan(rounds * keys.length * 150);
  });
});
