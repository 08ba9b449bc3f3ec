import { describe, expect, it } from 'vitest';
import type { RunReport } from '../runReport.ts';
import type { Req, Transform } from '../testing/deployment.ts';
import { passThrough } from '../testing/injectTransport.ts';
import { runOnFreshDeployment } from '../testing/runSuite.ts';
import { renderReports } from '../reports/writeReports.ts';

/** A run in process against a fresh mock, every request as the deployment received it kept in `seen`. */
async function runInProcess(run: { transform?: Transform; checks?: string[]; headers: Record<string, string>; secrets: Record<string, string>; seen?: Req[] }): Promise<RunReport> {
  const transform = run.transform ?? passThrough;
  const { report } = await runOnFreshDeployment((req, forward, env) => {
    run.seen?.push(req);
    return transform(req, forward, env);
  }, { headers: run.headers, secrets: run.secrets, ...(run.checks ? { checks: run.checks } : {}) });
  return report;
}

describe('extra headers (--header, headers in the config)', () => {
  it('reach every request of the run, and a secret one shows in the reports only as its variable', async () => {
    const seen: Req[] = [];
    const report = await runInProcess({
      headers: { 'x-tenant': 'acme', 'x-gateway-token': 'gw-secret-77' },
      secrets: { 'gw-secret-77': '$GATEWAY_TOKEN' },
      seen,
    });
    expect(report.verdict).toBe('passed');
    expect(seen.length).toBe(report.requests.total);
    for (const req of seen) expect(req.headers).toMatchObject({ 'x-tenant': 'acme', 'x-gateway-token': 'gw-secret-77' });

    for (const text of Object.values(renderReports(report))) expect(text).not.toContain('gw-secret-77');
    const har = JSON.parse(renderReports(report).har) as { log: { entries: { request: { headers: { name: string; value: string }[] } }[] } };
    for (const entry of har.log.entries) {
      expect(entry.request.headers).toContainEqual({ name: 'x-tenant', value: 'acme' });
      expect(entry.request.headers).toContainEqual({ name: 'x-gateway-token', value: '$GATEWAY_TOKEN' });
    }
  });

  it('appear in the curl lines, a secret as a variable the shell expands', async () => {
    const report = await runInProcess({
      checks: ['response-schema'],
      headers: { 'x-gateway-token': 'gw-secret-77' },
      secrets: { 'gw-secret-77': '$GATEWAY_TOKEN' },
      transform: async (req, forward) => {
        const res = await forward(req);
        return res.status === 200 && req.url === '/v1/pets' ? { ...res, body: '[{"id":"x"}]' } : res;
      },
    });
    const curl = report.checks[0]!.operations.flatMap((o) => o.findings)[0]!.evidence!.curl;
    expect(curl).toContain('-H "x-gateway-token: $GATEWAY_TOKEN"');
    expect(curl).toContain('-H "authorization: Bearer $PETS_API_KEY"');
  });
});
