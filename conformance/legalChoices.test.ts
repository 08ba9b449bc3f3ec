import { describe, expect, it } from 'vitest';
import { integerText, parseLossless } from '../common/json/losslessJson.ts';
import { checkIds } from './checks/index.ts';
import { categoriesPast2To53, legalChoices, legalLimits, slidingWindow } from './testing/legalChoices.ts';
import { inProcessDeployment } from './testing/deployment.ts';
import { runOnFreshDeployment, runSuite } from './testing/runSuite.ts';

describe('a deployment that makes other legal choices', () => {
  it('passes every check, with its open choices reported as warnings', async () => {
    const result = await runOnFreshDeployment(legalChoices.transform, { probeRateLimit: true, depth: 'full' }, legalChoices.mockOptions);
    const failures = result.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => `${c.id}: ${f.message}`)));
    expect(failures).toEqual([]);
    expect(result.exitCode).toBe(0);
    const warnings = result.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'warning').map((f) => f.case ?? f.message)));
    // Each open choice is seen and named: an empty limit read as none.
    expect(warnings).toEqual(expect.arrayContaining(['list-pets/query/limit/empty']));
    expect(result.report.checks.map((c) => c.id)).toEqual([...checkIds]);
  });

  it.each([
    ['demo-pro', true],
    ['demo-free', false],
  ])('passes a sliding-window rate limit with %s (probe %s), meeting no 429 it did not ask for', async (apiKey, probeRateLimit) => {
    const result = await runOnFreshDeployment(slidingWindow(), { apiKey, probeRateLimit });
    const failures = result.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => `${c.id}: ${f.message}`)));
    expect(failures).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(result.report.exchanges.filter((e) => e.status === 429 && e.check !== 'rate-limit-probe')).toEqual([]);
    if (probeRateLimit) expect(result.report.checks.find((c) => c.id === 'rate-limit-probe')!.status).toBe('passed');
  });

  it('passes a deployment whose categoryIds are past 2^53 and which refuses any other, sending them back exactly', async () => {
    const result = await runOnFreshDeployment(categoriesPast2To53(), { probeRateLimit: true, apiKey2: 'demo-free' });
    const failures = result.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => `${c.id}: ${f.message}`)));
    expect(failures).toEqual([]);
    expect(result.exitCode).toBe(0);
    const created = result.report.exchanges.filter((e) => e.method === 'POST' && e.status === 201);
    expect(created.length).toBeGreaterThan(20);
    // Read as JSON: a relation sends the same value in other texts (spaces, escapes, member order).
    const categoryOf = (text: string) => integerText((parseLossless(text) as { categoryId?: unknown }).categoryId) ?? '';
    expect(created.filter((e) => !e.requestBody?.truncated && !/^11529215046068469\d\d$/.test(categoryOf(e.requestBody?.text ?? '{}'))).map((e) => `${e.case} ${e.requestBody?.text.slice(0, 100)}`)).toEqual([]);
  });

  it('passes a deployment that bans after 5 refusals for 120 s, counts keyless requests at 30 a minute and refuses bodies over 64 KiB, each with its own code', async () => {
    const result = await runOnFreshDeployment(legalLimits.transform, { probeRateLimit: true, apiKey2: 'demo-free' }, legalLimits.mockOptions);
    const failures = result.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => `${c.id}: ${f.message}`)));
    expect(failures).toEqual([]);
    expect(result.exitCode).toBe(0);
  });

  it('passes the mock given a profile\'s etag: a weak ETag on each 200 to a GET, 304 to a matching If-None-Match', async () => {
    const result = await runOnFreshDeployment(undefined, { probeRateLimit: true }, { profile: { etag: 'conditional' } });
    const failures = result.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => `${c.id}: ${f.message}`)));
    expect(failures).toEqual([]);
    expect(result.exitCode).toBe(0);
    // The suite met the choice: its conditional reads were answered 304.
    expect(result.report.exchanges.filter((e) => e.status === 304).length).toBeGreaterThan(0);
  });

  it('passes the mock with its clock moved past getPet\'s removal, far from the suite\'s: its times read against its own Date', async () => {
    const deployment = await inProcessDeployment();
    try {
      // The mock's clock five years on, the suite's where it was: every wait of the run moves both.
      const ahead = (Date.UTC(2030, 11, 5, 13) - deployment.clock.now()) / 1000;
      expect((await deployment.mock.inject({ method: 'POST', url: '/__mock/clock', payload: { advanceSeconds: ahead } })).statusCode).toBe(200);
      const result = await runSuite(deployment, { probeRateLimit: true });
      const failures = result.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => `${c.id}: ${f.message}`)));
      expect(failures).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(result.report.checks.find((c) => c.id === 'rate-limit-probe')!.status).toBe('passed');
      // getPet was gone (410 to every request the key and the rate limit let through), and judged gone by the answers' Date.
      const getPets = result.report.exchanges.filter((e) => e.method === 'GET' && /\/pets\/\d+$/.test(e.url)).map((e) => e.status);
      expect(getPets).toContain(410);
      expect(getPets.filter((status) => status !== 401 && status !== 429 && status !== 410)).toEqual([]);
    } finally {
      await deployment.close();
    }
  });
});
