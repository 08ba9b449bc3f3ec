// Drift runs between two in-process deployments (the mock, with a transform or options), for the
// drift tests: each side its own deployment on its own clock.
import { testSpec } from '../../mock/testing.ts';
import type { MockOptions } from '../../mock/index.ts';
import { inProcessDeployment, type Deployment } from './deployment.ts';
import { passThrough, type Transform } from './injectTransport.ts';
import { faults } from './faults.ts';
import type { DriftTarget } from '../drift/driftSide.ts';
import { runDrift, type DriftOptions } from '../drift/runDrift.ts';

/** A deployment as one side of a drift run, with the demo-pro key. */
export const targetOf = (label: string, d: Deployment): DriftTarget => ({ label, baseUrl: d.baseUrl, apiKey: 'demo-pro', transport: d.transport, now: () => d.clock.now() });

export async function drift(a: { transform?: Transform; mockOptions?: MockOptions }, b: { transform?: Transform; mockOptions?: MockOptions }, options: Partial<DriftOptions> = {}) {
  const [da, db] = await Promise.all([inProcessDeployment(a.transform, a.mockOptions), inProcessDeployment(b.transform, b.mockOptions)]);
  try {
    return await runDrift({ base: targetOf('A', da), against: targetOf('B', db), spec: await testSpec(), ...options });
  } finally {
    await Promise.all([da.close(), db.close()]);
  }
}

export const fault = (name: string) => faults.find((f) => f.name === name)!;


/** What a drift run between two deployments gives. */
export type Drifted = Awaited<ReturnType<typeof drift>>;
