// What a run verified, rule by rule and operation by operation: the API coverage the reports show,
// so that a green run that judged little reads differently from one that judged everything.
import type { Exchange } from '../http/exchange.ts';
import type { CheckReport } from '../runReport.ts';
import type { Judgement } from './judgement.ts';
import { rules } from './rules.ts';

export interface CoverageRow {
  /** A model rule's id, or a check's id for the checks that judge case by case. */
  rule: string;
  check: string;
  operation: string;
  title: string;
  /** The contract's words, for model rules. */
  quote?: string;
  status: 'judged' | 'failed' | 'not reached';
  /** Answers the rule was applied to. */
  exchanges: number;
  failures: number;
  /** Why it was not reached. */
  reason?: string;
}

export interface CoverageContext {
  probeRateLimit: boolean;
  readOnly: boolean;
  secondKey: boolean;
  sharedKey: boolean;
}

function whyNotReached(rule: (typeof rules)[number], context: CoverageContext): string {
  if (rule.needs === 'probe' && !context.probeRateLimit) return 'no 429 is met without --probe-rate-limit';
  if (rule.needs === 'writes' && context.readOnly) return '--read-only sends no create';
  if (rule.id === 'rate.cost' && context.sharedKey) return 'relaxed by --shared-key to "never more remains than the requests allow"';
  return `not met in this run: it needs ${rule.reachedBy}`;
}

/**
 * How often each rule was applied, by `rule\0operation`: to how many answers, with how many
 * failures; in the order the rules were first met. What the table is built from, so a judge that
 * keeps no judgements (the proxy's) can keep these counts instead.
 */
export type RuleCounts = Map<string, { exchanges: number; failures: number }>;

/** The counts of a run's judgements: each answer counted once per rule. */
export function countJudgements(judgements: readonly Judgement[]): RuleCounts {
  const seen = new Map<string, Set<number>>();
  const counts: RuleCounts = new Map();
  for (const j of judgements) {
    const key = `${j.rule}\0${j.operationId}`;
    const entry = counts.get(key) ?? { exchanges: 0, failures: 0 };
    const answers = seen.get(key) ?? new Set<number>();
    if (!answers.has(j.exchange.seq)) entry.exchanges++;
    answers.add(j.exchange.seq);
    if (j.outcome === 'failure') entry.failures++;
    counts.set(key, entry);
    seen.set(key, answers);
  }
  return counts;
}

/** How many exchanges each check sent per operation (`check\0operation`), and per operation in all. */
export interface ExchangeCounts {
  sentBy: Map<string, number>;
  ofOperation: Map<string, number>;
}

export function countExchanges(exchanges: readonly Pick<Exchange, 'checkId' | 'operationId'>[]): ExchangeCounts {
  const sentBy = new Map<string, number>();
  const ofOperation = new Map<string, number>();
  for (const e of exchanges) {
    sentBy.set(`${e.checkId}\0${e.operationId}`, (sentBy.get(`${e.checkId}\0${e.operationId}`) ?? 0) + 1);
    ofOperation.set(e.operationId, (ofOperation.get(e.operationId) ?? 0) + 1);
  }
  return { sentBy, ofOperation };
}

/** The coverage table, from the model's judgements and the checks' verdicts; rebuilt from nothing else. */
export function coverageOf(judgements: readonly Judgement[], checks: readonly CheckReport[], exchanges: readonly Pick<Exchange, 'checkId' | 'operationId'>[], context: CoverageContext): CoverageRow[] {
  return coverageFromCounts(countJudgements(judgements), checks, countExchanges(exchanges), context);
}

/** The coverage table from the counts of the judgements and of the exchanges. */
export function coverageFromCounts(counts: RuleCounts, checks: readonly CheckReport[], exchangeCounts: ExchangeCounts, context: CoverageContext): CoverageRow[] {
  const reported = new Set(checks.map((c) => c.id));
  const rows: CoverageRow[] = [];
  // The operations each rule was applied to, in the order first met.
  const appliedTo = new Map<string, string[]>();
  for (const key of counts.keys()) {
    const [rule, operation] = key.split('\0') as [string, string];
    appliedTo.set(rule, [...(appliedTo.get(rule) ?? []), operation]);
  }
  for (const rule of rules) {
    if (!reported.has(rule.checkId)) continue;
    const operations = rule.operations.includes('*') ? [...(appliedTo.get(rule.id) ?? [])] : [...rule.operations];
    if (operations.length === 0) operations.push('any');
    for (const operation of operations) {
      const entry = counts.get(`${rule.id}\0${operation}`);
      const base = { rule: rule.id, check: rule.checkId, operation, title: rule.title, quote: rule.quote };
      if (!entry) rows.push({ ...base, status: 'not reached', exchanges: 0, failures: 0, reason: whyNotReached(rule, context) });
      else rows.push({ ...base, status: entry.failures > 0 ? 'failed' : 'judged', exchanges: entry.exchanges, failures: entry.failures });
    }
    if (rule.id === 'rate.cost' && !context.secondKey) {
      rows.push({ rule: 'rate.cost', check: rule.checkId, operation: 'second key', title: 'A second key\'s window is its own: the first key\'s requests cost it nothing', quote: rule.quote, status: 'not reached', exchanges: 0, failures: 0, reason: 'no second key: give --api-key-2' });
    }
  }
  const ruleChecks = new Set(rules.map((r) => r.checkId));
  // A check that sends judges its own exchanges; a passive one judges every exchange of the operation.
  const { sentBy, ofOperation } = exchangeCounts;
  const senders = new Set([...sentBy.keys()].map((key) => key.split('\0')[0]!));
  for (const check of checks) {
    if (ruleChecks.has(check.id)) continue;
    for (const op of check.operations) {
      if (rows.some((r) => r.rule === check.id && r.operation === op.operationId)) continue;
      const failures = op.findings.filter((f) => f.level === 'failure').reduce((n, f) => n + f.occurrences, 0);
      rows.push({
        rule: check.id,
        check: check.id,
        operation: op.operationId,
        title: check.title,
        status: op.status === 'failed' ? 'failed' : op.status === 'passed' ? 'judged' : 'not reached',
        exchanges: (senders.has(check.id) ? sentBy.get(`${check.id}\0${op.operationId}`) : ofOperation.get(op.operationId)) ?? 0,
        failures,
        ...(op.status === 'skipped' ? { reason: op.reason ?? 'not exercised' } : {}),
      });
    }
  }
  return rows;
}
