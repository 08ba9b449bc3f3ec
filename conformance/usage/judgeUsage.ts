// Whether a deployment keeps the contract for one client's usage: the run's failures each placed
// in the contract (findingPlace.ts), those the client's usage reaches named, and the operations it
// uses that the run did not judge, for which it cannot be called safe.
import type { ClientUsage, UsageFile } from '../../common/usage/clientUsage.ts';
import type { RunReport } from '../runReport.ts';
import { describePlace, findingPlace, usedBy } from './findingPlace.ts';
import type { ClientUsageVerdict, UsageReport, UsedFailure } from './usageVerdict.ts';

/** Judges each client of `usage` by the run's failures. Pure. */
export function judgeUsage(report: RunReport, usage: UsageFile): UsageReport {
  return { source: usage.source, clients: usage.clients.map((client) => judgeClient(report, client)) };
}

/**
 * The exit code of `--fail-on usage`: 1 when a failure reaches a client's usage, else 2 when the
 * run could not judge the deployment or an operation a client uses, else 0 (the contract may still
 * be broken where no client of the file reaches: the reports say so).
 */
export function usageExitCode(report: RunReport): 0 | 1 | 2 {
  const clients = report.usage?.clients ?? [];
  if (clients.some((c) => c.verdict === 'broken')) return 1;
  return report.verdict === 'cannot-run' || clients.some((c) => c.verdict === 'not-judged') ? 2 : 0;
}

function judgeClient(report: RunReport, client: ClientUsage): ClientUsageVerdict {
  const broken: UsedFailure[] = [];
  const unused: UsedFailure[] = [];
  for (const check of report.checks) {
    for (const op of check.operations) {
      for (const finding of op.findings) {
        if (finding.level !== 'failure') continue;
        const place = findingPlace(op.operationId, finding);
        const failure = { rule: finding.rule?.id ?? check.id, check: check.id, operationId: op.operationId, place: describePlace(place), message: finding.message };
        (usedBy(place, client) ? broken : unused).push(failure);
      }
    }
  }
  const judged = new Set(report.checks.flatMap((c) => c.operations.filter((o) => o.status !== 'skipped').map((o) => o.operationId)));
  const unjudged = client.operations.map((o) => o.operationId).filter((id) => !judged.has(id));
  const verdict = broken.length > 0 ? 'broken' : report.verdict === 'cannot-run' || unjudged.length > 0 ? 'not-judged' : 'safe';
  return { client: client.client, label: client.label, verdict, broken, unused, unjudged, headline: headline(report, client, verdict, broken, unused, unjudged) };
}

function headline(report: RunReport, client: ClientUsage, verdict: ClientUsageVerdict['verdict'], broken: UsedFailure[], unused: UsedFailure[], unjudged: string[]): string {
  const who = `For client ${client.label}`;
  const contract = report.verdict === 'failed' ? 'the deployment breaks the contract' : report.verdict === 'passed' ? 'the deployment keeps the contract' : 'the run could not judge the deployment';
  if (verdict === 'broken') {
    const rules = [...new Set(broken.map((b) => b.rule))];
    return `${who}: NOT SAFE: ${contract}, and ${broken.length} ${broken.length === 1 ? 'failure reaches' : 'failures reach'} what this client uses (${rules.join(', ')}; first: ${broken[0]!.place}).`;
  }
  if (verdict === 'not-judged') {
    return report.verdict === 'cannot-run'
      ? `${who}: not judged: ${contract} (${report.reason ?? 'see the report'}).`
      : `${who}: not judged: the run judged nothing of ${unjudged.join(', ')}, which this client uses; no failure reaches the rest of its usage.`;
  }
  return `${who}: safe for this client: ${contract}${unused.length > 0 ? `, but none of its ${unused.length} ${unused.length === 1 ? 'failure reaches' : 'failures reach'} what this client uses` : ''}.`;
}
