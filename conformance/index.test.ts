import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConformanceOptionsError } from './index.ts';
import { reportFiles } from './reports/writeReports.ts';
import type { TransportRequest } from './http/transport.ts';
import { inProcessDeployment, passThroughRecorder } from './testing/deployment.ts';
import { runSuite } from './testing/runSuite.ts';

describe('runConformance, the suite as a function', () => {
  it('writes the six reports the command writes into reportDir, a run that could not judge included', async () => {
    const deployment = await inProcessDeployment();
    try {
      const reportDir = await mkdtemp(join(tmpdir(), 'run-conformance-'));
      const result = await runSuite(deployment, { apiKey: 'expired-key', reportDir });
      expect(result).toMatchObject({ exitCode: 2, verdict: 'cannot-run' });
      expect(Object.keys(result.reportPaths!).sort()).toEqual(Object.keys(reportFiles).sort());
      expect((await readdir(reportDir)).sort()).toEqual(Object.values(reportFiles).sort());
      expect(await readFile(result.reportPaths!.markdown!, 'utf8')).toContain(result.report.reason!);
      expect(JSON.parse(await readFile(result.reportPaths!.json!, 'utf8'))).toMatchObject({ verdict: 'cannot-run', reason: result.report.reason });
    } finally {
      await deployment.close();
    }
  });

  it('refuses an Authorization header among headers as an options error, before sending anything', async () => {
    const deployment = await inProcessDeployment();
    try {
      const sent: TransportRequest[] = [];
      const recorded = { ...deployment, transport: passThroughRecorder(deployment.transport, sent) };
      const refused = runSuite(recorded, { headers: { Authorization: 'Bearer x' } });
      await expect(refused).rejects.toThrow(ConformanceOptionsError);
      await expect(refused).rejects.toThrow(/headers: The Authorization header cannot be set/);
      expect(sent).toEqual([]);
    } finally {
      await deployment.close();
    }
  });
});
