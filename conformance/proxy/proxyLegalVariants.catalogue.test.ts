// No false alarms from the proxy: the suite itself, run over real HTTP through the proxy against
// each legal variant of the catalogues (each makes a choice the contract leaves open differently
// from the mock), passes; and so must the proxy's own verdict on that same traffic.
import { afterEach, describe, expect, it } from 'vitest';
import { categoriesPast2To53, legalChoices, slidingWindow } from '../testing/legalChoices.ts';
import { legalVariants } from '../testing/regressions.ts';
import { legalVariants2 } from '../testing/regressions2.ts';
import type { LegalVariant } from '../testing/regressions.ts';
import { suiteThroughProxy } from './testing/suiteThroughProxy.ts';

const variants: LegalVariant[] = [
  ...legalVariants,
  ...legalVariants2,
  { name: 'makes the project\'s legal choices', choice: 'conformance/testing/legalChoices.ts', make: () => legalChoices.transform, mockOptions: legalChoices.mockOptions },
  { name: 'limits over a sliding minute', choice: 'conformance/testing/legalChoices.ts', make: slidingWindow },
  { name: 'numbers its categories past 2^53 and refuses any other', choice: 'conformance/testing/legalChoices.ts', make: categoriesPast2To53 },
];

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

describe('the proxy, with the suite\'s own traffic through it', () => {
  it.each(variants)('passes a deployment that $name', async ({ make, mockOptions }) => {
    const { result, proxy } = await suiteThroughProxy(make(), mockOptions, open);
    // The deployment is legal: the suite passes it, so any failure of the proxy's is a false alarm.
    expect(result.verdict, result.report.reason).toBe('passed');
    const { report, findings } = await proxy.judge();
    expect(findings.filter((f) => f.level === 'failure').map((f) => `${f.check} ${f.exchange?.method} ${f.exchange?.path} ${f.exchange?.status}: ${f.message}`)).toEqual([]);
    expect(report.verdict).toBe('passed');
    expect(report.exchanges.length).toBe(result.report.exchanges.length);
  });
});
