import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { projectPath } from '../common/projectRoot.ts';
import { inProcessDeployment } from './testing/deployment.ts';
import { runSuite } from './testing/runSuite.ts';

it('sends exactly the cases docs/conformance-cases.md lists, under the same names', async () => {
  const documented = [...(await readFile(projectPath('docs', 'conformance-cases.md'), 'utf8')).matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]);
  const deployment = await inProcessDeployment();
  try {
    const result = await runSuite(deployment, { probeRateLimit: true });
    const sent = [...new Set(result.report.exchanges.map((e) => e.case))];
    expect(sent).toEqual(documented);
  } finally {
    await deployment.close();
  }
});
