import { test } from 'vitest';
import { loadSpec } from '../../spec/loadSpec.ts';
import { httpTransport } from '../http/transport.ts';
import { corpusCases, startCorpusCase } from '../testing/corpusCases.ts';
import type { DeploymentProfile } from '../../mock/profile/profile.ts';
import { openMockTarget } from './mockTarget.ts';
import { runDrift } from './runDrift.ts';
const want = (process.env.CASES ?? 'clean').split(',');
for (const c of corpusCases()) {
  const name = `${c.file}:${c.kind}:${c.kind === 'CLEAN' ? 'clean' : c.name}`;
  if (!want.some((w) => name.includes(w))) continue;
  test(name, async () => {
    const spec = await loadSpec();
    const run = async (profile?: DeploymentProfile) => {
      const server = await startCorpusCase(c);
      const transport = httpTransport();
      const mock = await openMockTarget({ spec, ...(profile ? { profile } : {}) });
      try { return await runDrift({ base: { label: 'A', baseUrl: server.baseUrl, apiKey: 'demo-pro', transport, now: Date.now }, against: mock.target, againstIsMock: true, spec, probeRateLimit: true }); }
      finally { await transport.close?.(); await mock.close(); await server.close(); }
    };
    const observed = await run();
    const calibrated = await run(observed.profile);
    console.log(name, JSON.stringify({ profile: observed.profile, left: calibrated.choices, breaks: calibrated.breaks.concat(observed.breaks) }, null, 1));
  }, 300_000);
}
