// What a run set out to check and did not. A pass says the deployment keeps the contract as far as
// the run looked; a check the run's own budgets kept from looking, or a planned part that ran
// nothing, would make that pass say more than was seen. Such a run exits 2 and names what it left
// unchecked, unless the user accepted a partial run in so many words (`--allow-partial`).
import type { CheckReport, RunReport } from './runReport.ts';

/**
 * What the selected checks did not check: each check skipped whole after meeting one of the run's
 * budgets (`budgetMet`: check id → the first reason it met: the time budget spent, a quota window
 * past --max-wait or --max-duration), and each planned part that ran none of its count.
 */
export function uncheckedOf(reports: readonly CheckReport[], budgetMet: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const report of reports) {
    const met = budgetMet.get(report.id);
    if (report.status === 'skipped' && met !== undefined) out.push(`${report.id} (${report.severity}) was skipped: ${met}`);
    for (const part of report.parts ?? []) {
      if (part.ran === 0 && part.planned > 0) out.push(`${report.id} ran none of its ${part.planned} ${part.part}${part.reason !== undefined ? `: ${part.reason}` : ''}`);
    }
  }
  return out;
}

/** The reason of a run that is no pass because of what it left unchecked. */
export function uncheckedReason(unchecked: readonly string[]): string {
  return `Not everything the run set out to check was checked, so it is no pass: ${unchecked.join('; ')}. Give the run what it lacked (a longer --max-duration or --max-wait, a key with a larger quota, or a run once the key's window has reset), or accept a partial run with --allow-partial.`;
}

/**
 * The line every report shows of a run that left something unchecked and still has a verdict (a
 * pass --allow-partial accepted, or a failure), or undefined. A run stopped for it says so in its reason.
 */
export function partialRunLine(report: Pick<RunReport, 'unchecked' | 'options' | 'verdict'>): string | undefined {
  const unchecked = report.unchecked ?? [];
  if (unchecked.length === 0 || report.verdict === 'cannot-run') return undefined;
  const lead = report.options.allowPartial ? 'Partial run, accepted by --allow-partial' : 'Partial run';
  return `${lead}: not checked: ${unchecked.join('; ')}.`;
}
