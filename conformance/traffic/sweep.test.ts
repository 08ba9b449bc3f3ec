// The sweep against the mock and against a deployment that stores a 404 for its id: what every run
// asks for, whatever the seed, and the failure it shows.
import { describe, expect, it } from 'vitest';
import type { Transform } from '../testing/deployment.ts';
import { failedCases, failedChecks, runOnFreshDeployment } from '../testing/runSuite.ts';

const checks = ['generated-traffic', 'data-integrity'];
const idOf = (url: string) => /\/pets\/(\d+)$/.exec(new URL(url).pathname)?.[1];

describe('the sweep', () => {
  it('asks for the id after the newest pet it created before it creates the next, which gets that id where ids count up', async () => {
    const result = await runOnFreshDeployment(undefined, { checks });
    expect(result.exitCode).toBe(0);
    const byCase = (name: string) => result.report.exchanges.find((e) => e.case === name);
    const next = byCase('generated/sweep/near-miss-id/next');
    const created = byCase('generated/sweep/once');
    expect(next?.status).toBe(404);
    expect(next!.seq).toBeLessThan(created!.seq);
    expect(created?.status).toBe(201);
    expect(byCase('generated/sweep/once/read-back')?.url).toMatch(new RegExp(`/pets/${idOf(next!.url)}$`));
  });

  it('fails a deployment whose cache keeps answering 404 for an id once a pet is created under it', async () => {
    const missing = new Set<string>();
    const storing404s: Transform = async (req, forward) => {
      if (req.method !== 'GET' || !/^\/v1\/pets\/\d+$/.test(req.url)) return forward(req);
      if (missing.has(req.url)) return { status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'NOT_FOUND', message: 'No pet with that id.', status: 404 }) };
      const res = await forward(req);
      if (res.status === 404) missing.add(req.url);
      return res;
    };
    const result = await runOnFreshDeployment(storing404s, { checks });
    expect(failedChecks(result)).toContain('data-integrity');
    expect(failedCases(result, 'data-integrity')).toContain('generated/sweep/once/read-back');
  });
});
