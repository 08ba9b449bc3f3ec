import { cannotRunReport, type RunReport } from '../runReport.ts';
import { CannotRunError, runConformance, type RunConfig } from '../runner.ts';
import { toolName, toolVersion } from '../version.ts';

/** Runs the suite and always returns a report: a run that could not judge gets a cannot-run report with its reason and traffic. */
export async function runToReport(config: RunConfig): Promise<RunReport> {
  const startedAt = new Date();
  try {
    return await runConformance(config);
  } catch (error) {
    if (!(error instanceof CannotRunError)) throw error;
    return cannotRunReport({
      reason: error.message,
      baseUrl: config.baseUrl,
      tool: { name: toolName, version: toolVersion },
      startedAt,
      runId: error.partial?.runId,
      exchanges: error.partial?.exchanges,
      unanswered: error.partial?.unanswered,
      options: { readOnly: config.readOnly, probeRateLimit: config.probeRateLimit, seed: config.seed, checks: config.checks.map((c) => c.id) },
    });
  }
}
