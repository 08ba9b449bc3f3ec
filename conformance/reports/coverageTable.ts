// What a run verified, as the reports show it: one row per rule, the operations it judged (with how
// many answers each), or why it was not reached. Rendered from the report's coverage records only.
import type { CoverageRow } from '../model/coverage.ts';
import type { RunReport } from '../runReport.ts';

export interface CoverageLine {
  rule: string;
  check: string;
  title: string;
  status: 'judged' | 'failed' | 'not reached';
  /** `listPets 40, getPet 12`: where it was judged, on how many answers. */
  judged: string;
  /** Why it was not reached, where it was not. */
  reason?: string;
}

/** The report's coverage rows merged per rule: judged where any operation was, failed where any failed. */
export function coverageLines(report: RunReport): CoverageLine[] {
  const byRule = new Map<string, CoverageRow[]>();
  for (const row of report.coverage ?? []) byRule.set(`${row.check}\0${row.rule}`, [...(byRule.get(`${row.check}\0${row.rule}`) ?? []), row]);
  return [...byRule.values()].map((rows) => {
    const first = rows[0]!;
    const reached = rows.filter((r) => r.status !== 'not reached');
    const status = rows.some((r) => r.status === 'failed') ? 'failed' : reached.length > 0 ? 'judged' : 'not reached';
    const unreached = rows.filter((r) => r.status === 'not reached');
    return {
      rule: first.rule,
      check: first.check,
      title: first.title,
      status,
      judged: reached.map((r) => `${r.operation} ${r.exchanges}`).join(', '),
      ...(unreached.length > 0 ? { reason: byReason(unreached) } : {}),
    };
  });
}

/** `listPets, getPet: no 429 is met without --probe-rate-limit`: operations grouped by why they were not reached. */
function byReason(rows: CoverageRow[]): string {
  const reasons = new Map<string, string[]>();
  for (const r of rows) reasons.set(r.reason ?? 'not reached', [...(reasons.get(r.reason ?? 'not reached') ?? []), r.operation]);
  return [...reasons].map(([reason, ops]) => (ops.length === 1 && ops[0] === 'any' ? reason : `${ops.join(', ')}: ${reason}`)).join('; ');
}

/** `34 of 40 rules judged, 2 failed, 6 not reached`: the line every report leads its coverage with. */
export function coverageHeadline(report: RunReport): string {
  const lines = coverageLines(report);
  const judged = lines.filter((l) => l.status !== 'not reached').length;
  const failed = lines.filter((l) => l.status === 'failed').length;
  const notReached = lines.length - judged;
  return `${judged} of ${lines.length} rules judged${failed > 0 ? `, ${failed} failed` : ''}${notReached > 0 ? `, ${notReached} not reached` : ''}`;
}

/** What the run assumed about the key, for rate-limit accounting. */
export function accountingNote(report: RunReport): string {
  return report.options.sharedKey
    ? 'Rate-limit accounting ran with --shared-key: other clients may spend the key, so only what still holds was judged (Remaining never rises, Limit steady, never more left than the requests allow).'
    : 'Rate-limit accounting assumes this run was the key\'s only user: each request accepted with the key costs exactly one. If others used the key meanwhile, run again with --shared-key.';
}
