// A run of the suite in-process against the project's mock, optionally bent by a Transform: the
// fixtures of the report tests.
import type { RunReport } from '../../runReport.ts';
import type { Req, Transform } from '../../testing/deployment.ts';
import { passThrough } from '../../testing/injectTransport.ts';
import { runOnFreshDeployment } from '../../testing/runSuite.ts';

export interface InProcessRun {
  transform?: Transform;
  checks?: string[];
  apiKey?: string;
  headers?: Record<string, string>;
  secrets?: Record<string, string>;
  /** Every request as the deployment received it. */
  seen?: Req[];
}

/** Runs the suite against a fresh mock (60 pets) on its clock and returns its report, cannot-run included. */
export async function runInProcess(run: InProcessRun = {}): Promise<RunReport> {
  const transform = run.transform ?? passThrough;
  const { report } = await runOnFreshDeployment((req, forward, env) => {
    run.seen?.push(req);
    return transform(req, forward, env);
  }, {
    ...(run.apiKey ? { apiKey: run.apiKey } : {}),
    ...(run.checks ? { checks: run.checks } : {}),
    ...(run.headers ? { headers: run.headers } : {}),
    ...(run.secrets ? { secrets: run.secrets } : {}),
  });
  return report;
}
