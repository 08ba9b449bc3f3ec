// What a run verified, rule by rule and operation by operation: the API coverage the reports show,
// so that a green run that judged little reads differently from one that judged everything.
import { judged, type Judgement } from './judgement.ts';
import { rules } from './rules.ts';

export interface CoverageRow {
  /** A rule's id, `relation/<dimension>` for a way of sending the relations vary, or a check's id for a part it planned as a count. */
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

/** What the table reads of a check the run reported: its id and title, and the parts it planned as a count. */
export interface CoveredCheck {
  id: string;
  title: string;
  parts?: readonly { part: string; ran: number; planned: number; reason?: string }[];
}

export interface CoverageContext {
  probeRateLimit: boolean;
  readOnly: boolean;
  secondKey: boolean;
  sharedKey: boolean;
  /** The run was told a key's plan (`--api-key-plan`, `--api-key-2-plan`); unknown counts as no. */
  planKnown?: boolean;
  /** The run could send from another local address (a loopback target); unknown counts as no. */
  otherAddress?: boolean;
}

/**
 * The dimensions the relations vary, as rows of their own: judged when a rule was applied to a
 * request that varied it (the equivalence rules, and for creates at once the data rules), or not
 * reached and why. Their rules are the model's; these rows say which ways of sending were tried.
 */
const relationDimensions: readonly { dimension: string; title: string; quote: string; needs?: 'writes' | 'other-address' }[] = [
  { dimension: 'client-headers', title: 'A request with the headers of a browser, an HTTP library, a CLI or a gateway is answered as the plain one', quote: 'The contract names what an answer depends on: the method, the path, the parameters, the key (`Authorization: Bearer <API_KEY>`), the body.' },
  { dimension: 'json-text', title: 'Another JSON text of the same NewPet (whitespace, member order, escapes) is created as the plain one', quote: 'The request body is required, is `application/json`, and has the shape NewPet. (RFC 8259: whitespace, member order and escapes leave the value as it is.)', needs: 'writes' },
  { dimension: 'media-type', title: 'A NewPet under another spelling of application/json is created as the plain one', quote: 'The request body is required, is `application/json`. (RFC 9110, 8.3.1: type, subtype and parameter names are case-insensitive.)', needs: 'writes' },
  { dimension: 'connection', title: 'A request on a fresh connection is answered as one on a kept-alive connection', quote: 'Every operation requires HTTP bearer authentication. (RFC 9112, 9.3: each request on a persistent connection stands alone.)' },
  { dimension: 'source-address', title: 'A request with the key from another client address costs the key\'s window as from the first', quote: 'Rate limits by plan: Free 60 requests per minute. (The window is the key\'s.)', needs: 'other-address' },
  { dimension: 'order', title: 'Independent reads are answered the same in either order', quote: 'GET /pets/{petId} Returns one animal. | GET /pets Returns a paginated list of animals.' },
  { dimension: 'concurrency', title: 'Creates sent at once each get an id of their own, each counted', quote: 'id | Unique identifier assigned by the service on creation. | X-RateLimit-Remaining | Requests remaining in the current window.', needs: 'writes' },
];

function dimensionRows(counts: RuleCounts, context: CoverageContext): CoverageRow[] {
  const rows: CoverageRow[] = [];
  for (const { dimension, title, quote, needs } of relationDimensions) {
    const prefix = `relation/${dimension}\0`;
    const mine = [...counts].filter(([key]) => key.startsWith(prefix));
    const base = { rule: `relation/${dimension}`, check: 'equivalent-requests', title, quote };
    if (mine.length === 0) {
      const reason = needs === 'writes' && context.readOnly ? '--read-only sends no create' : needs === 'other-address' && !context.otherAddress ? 'the run cannot send from another address: the target is not an IPv4 loopback address (127.0.0.0/8) this host can bind a second address of' : 'not met in this run';
      rows.push({ ...base, operation: 'any', status: 'not reached', exchanges: 0, failures: 0, reason });
      continue;
    }
    for (const [key, { exchanges, failures }] of mine) rows.push({ ...base, operation: key.slice(prefix.length), status: failures > 0 ? 'failed' : 'judged', exchanges, failures });
  }
  return rows;
}

function whyNotReached(rule: (typeof rules)[number], context: CoverageContext): string {
  if (rule.needs === 'probe' && !context.probeRateLimit) return 'no 429 is met without --probe-rate-limit';
  if (rule.needs === 'writes' && context.readOnly) return '--read-only sends no create';
  if (rule.needs === 'plan' && !context.planKnown) return 'no key\'s plan is known: give --api-key-plan (free, pro or business)';
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
  const counts: RuleCounts = new Map();
  addJudgements(counts, judgements);
  return counts;
}

/**
 * Adds judgements to the counts, each answer once per rule, every failure; an answer that varied a
 * dimension of a relation also counts for `relation/<dimension>`. The judgements of one answer come
 * together (a run's in order, the proxy's a group at a time), so one answer is counted once.
 */
export function addJudgements(counts: RuleCounts, judgements: readonly Judgement[]): void {
  const seen = new Set<string>();
  for (const j of judgements) {
    // An answer that could not judge its case, or a rule that does not apply, judged nothing.
    if (!judged(j)) continue;
    const keys = [j.rule, ...(j.exchange?.varies ?? []).map((dimension) => `relation/${dimension}`)].map((rule) => `${rule}\0${j.operationId}`);
    for (const key of keys) {
      const entry = counts.get(key) ?? { exchanges: 0, failures: 0 };
      // A failure of a connection that carried no answer counts as a failure, on no answer.
      if (j.exchange !== undefined && !seen.has(`${key}\0${j.exchange.seq}`)) entry.exchanges++;
      if (j.exchange !== undefined) seen.add(`${key}\0${j.exchange.seq}`);
      if (j.outcome === 'failure') entry.failures++;
      counts.set(key, entry);
    }
  }
}

/** The coverage table, from the checks' judgements as the run recorded them; rebuilt from nothing else. */
export function coverageOf(judgements: readonly Judgement[], checks: readonly CoveredCheck[], context: CoverageContext): CoverageRow[] {
  return coverageFromCounts(countJudgements(judgements), checks, context);
}

/** The coverage table from the counts of the judgements: every rule of every check reported, and the parts a check planned as a count. */
export function coverageFromCounts(counts: RuleCounts, checks: readonly CoveredCheck[], context: CoverageContext): CoverageRow[] {
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
  if (reported.has('equivalent-requests')) rows.push(...dimensionRows(counts, context));
  for (const check of checks) {
    // A part planned as a count (the generated sequences): judged on those that ran, not reached when none did.
    for (const part of check.parts ?? []) {
      rows.push({
        rule: check.id,
        check: check.id,
        operation: part.part,
        title: check.title,
        status: part.ran > 0 ? 'judged' : 'not reached',
        exchanges: part.ran,
        failures: 0,
        ...(part.ran === 0 ? { reason: `none of ${part.planned} ran${part.reason !== undefined ? `: ${part.reason}` : ''}` } : {}),
      });
    }
  }
  return rows;
}
