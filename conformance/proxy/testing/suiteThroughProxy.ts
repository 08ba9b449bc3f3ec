import { testSpec } from '../../../mock/testing.ts';
import type { MockOptions } from '../../../mock/index.ts';
import { runConformance, type ConformanceResult } from '../../index.ts';
import { startDeployment, type Transform } from '../../testing/deployment.ts';
import { startProxy, type RunningProxy } from '../startProxy.ts';

/**
 * The suite's default run over HTTP through the proxy, against a deployment bent by `transform`:
 * what the proxy judges is the suite's own traffic. The deployment and the proxy go on `open`,
 * for the test's afterEach to close.
 */
export async function suiteThroughProxy(transform: Transform, mockOptions: MockOptions | undefined, open: { close(): Promise<void> }[]): Promise<{ result: ConformanceResult; proxy: RunningProxy }> {
  const deployment = await startDeployment(transform, mockOptions ?? {});
  open.push(deployment);
  const spec = await testSpec();
  const proxy = await startProxy({ target: deployment.baseUrl, spec });
  open.push(proxy);
  const result = await runConformance({ baseUrl: `${proxy.url}/v1`, apiKey: 'demo-pro', spec });
  return { result, proxy };
}
