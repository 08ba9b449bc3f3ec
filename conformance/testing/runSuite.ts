import { runConformance, type ConformanceOptions, type ConformanceResult } from '../index.ts';
import type { MockOptions } from '../../mock/index.ts';
import { testSpec } from '../../mock/testing.ts';
import { inProcessDeployment, type Deployment } from './deployment.ts';
import type { Transform } from './injectTransport.ts';

/**
 * Runs the suite in-process against a deployment, on the deployment's clock: every wait the
 * suite makes (a quota window, a Retry-After, a retry's backoff) moves the clock instead of
 * sleeping, so a run takes as long as its requests and never depends on the machine's speed.
 */
export async function runSuite(deployment: Deployment, options: Partial<ConformanceOptions> = {}): Promise<ConformanceResult> {
  return runConformance({
    spec: await testSpec(),
    baseUrl: deployment.baseUrl,
    apiKey: 'demo-pro',
    transport: deployment.transport,
    now: () => deployment.clock.now(),
    sleep: async (ms) => deployment.clock.advance(ms),
    ...options,
  });
}

/**
 * The options the deploy gate runs with in CI, as docs/ci.md recommends: a Pro key and a Free key as
 * the second, each with its plan named, and the rate-limit probe on.
 */
export const deployGate = { probeRateLimit: true, apiKey2: 'demo-free', apiKeyPlan: 'pro', apiKey2Plan: 'free' } as const satisfies Partial<ConformanceOptions>;

/** Runs the suite against a fresh in-process deployment (the mock, bent by `transform`), closed after. */
export async function runOnFreshDeployment(transform?: Transform, options: Partial<ConformanceOptions> = {}, mockOptions: MockOptions = {}): Promise<ConformanceResult> {
  const deployment = await inProcessDeployment(transform, mockOptions);
  try {
    return await runSuite(deployment, options);
  } finally {
    await deployment.close();
  }
}

/** The ids of the checks a run failed. */
export const failedChecks = (result: ConformanceResult) => result.report.checks.filter((c) => c.status === 'failed').map((c) => c.id);

/** The case names of a run's failures in one check. */
export const failedCases = (result: ConformanceResult, checkId: string) =>
  result.report.checks.find((c) => c.id === checkId)?.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => f.case ?? '')) ?? [];
