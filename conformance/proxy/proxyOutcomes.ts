// A check's outcomes as the proxy collects them: fed the judgements of a group of exchanges at a
// time for as long as it runs, so they must stay bounded however long that is.
import { Outcomes, type Finding, type Inconclusive, type OperationResult } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { excerptLength } from '../check.ts';
import { cut, headersSize, keptHeaders } from './keptText.ts';

/** Distinct findings one check lists; past it, new ones are counted on one finding per operation and level. */
export const findingsPerCheck = 100;

/** A request body a finding's evidence keeps at most (its curl line sends it). */
const evidenceBody = 64 * 1024;

/**
 * Characters of evidence (the request of each finding: headers and body) all the findings of a
 * proxy hold: past it, a finding's evidence keeps the request line alone.
 */
export class EvidenceBudget {
  constructor(public left = 16 * 1024 * 1024) {}
}

export class ProxyOutcomes extends Outcomes {
  readonly #kinds = new Set<string>();
  #listed = 0;
  /** What this check's findings took of the budget: given back when they are dropped. */
  spent = 0;

  constructor(operations: readonly string[], readonly budget = new EvidenceBudget(), readonly maxFindings = findingsPerCheck) {
    super(operations);
  }

  override fail(operationId: string, message: string, exchange?: Exchange, kind?: string, extra?: Pick<Finding, 'rule' | 'related'>): void {
    const bounded = this.#bounded(operationId, 'failure', kind);
    super.fail(operationId, bounded?.message ?? message, this.#evidence(exchange, operationId, bounded?.kind ?? kind), bounded?.kind ?? kind, bounded ? {} : extra);
  }

  override warn(operationId: string, message: string, exchange?: Exchange, kind?: string, extra?: Pick<Finding, 'rule' | 'related'>): void {
    const bounded = this.#bounded(operationId, 'warning', kind);
    super.warn(operationId, bounded?.message ?? message, this.#evidence(exchange, operationId, bounded?.kind ?? kind), bounded?.kind ?? kind, bounded ? {} : extra);
  }

  /**
   * The exchange a new finding keeps as its evidence: its request's headers and body cut, and
   * nothing of them past the proxy's budget. A finding already listed only counts one more.
   */
  #evidence(exchange: Exchange | undefined, operationId: string, kind: string | undefined): Exchange | undefined {
    if (!exchange || (kind !== undefined && this.#counted.has(`${operationId}\0${kind}`))) return exchange;
    if (kind !== undefined) this.#counted.add(`${operationId}\0${kind}`);
    const { request } = exchange;
    const body = request.body === undefined ? undefined : request.body.length > evidenceBody ? `${cut(request.body, evidenceBody)}…` : request.body;
    const headers = keptHeaders(request.headers);
    const answerHeaders = keptHeaders(exchange.response.headers);
    // The excerpt the evidence shows, and no more of the answer's body.
    const response = { ...exchange.response, body: cut(exchange.response.body, excerptLength + 1) };
    const size = request.url.length + headersSize(headers) + (body?.length ?? 0) + headersSize(answerHeaders) + response.body.length;
    if (size > this.budget.left) return { ...exchange, request: { method: request.method, url: cut(request.url, 2048), headers: {} }, response: { ...response, headers: {} } };
    this.budget.left -= size;
    this.spent += size;
    return { ...exchange, request: { method: request.method, url: request.url, headers, ...(body !== undefined ? { body } : {}) }, response: { ...response, headers: answerHeaders } };
  }

  /** Gives back what its findings took of the budget (their outcomes are dropped). */
  release(): void {
    this.budget.left += this.spent;
    this.spent = 0;
  }

  readonly #counted = new Set<string>();

  /** Undefined while the finding may be listed; past the cap, the one finding it is counted on. */
  #bounded(operationId: string, level: Finding['level'], kind: string | undefined): { message: string; kind: string } | undefined {
    const key = kind === undefined ? undefined : `${operationId}\0${kind}`;
    if (key !== undefined && this.#kinds.has(key)) return undefined;
    if (this.#listed < this.maxFindings) {
      this.#listed++;
      if (key !== undefined) this.#kinds.add(key);
      return undefined;
    }
    return {
      kind: `\0more ${level}s`,
      message: `More ${level}s of this check than the ${this.maxFindings} the proxy lists: each later one of a kind not listed above is counted here. The first is this exchange's.`,
    };
  }
}

/**
 * One operation's results from two sets of outcomes of the same check: failed when either failed,
 * passed when either examined it, skipped (with the first reason) otherwise.
 */
export function mergeOperations(main: readonly OperationResult[], more: readonly OperationResult[]): OperationResult[] {
  const byId = new Map(main.map((op) => [op.operationId, op]));
  for (const op of more) {
    const had = byId.get(op.operationId);
    if (!had) {
      byId.set(op.operationId, op);
      continue;
    }
    const findings = [...had.findings, ...op.findings];
    const inconclusive: Inconclusive[] = [...(had.inconclusive ?? [])];
    for (const item of op.inconclusive ?? []) if (!inconclusive.some((i) => i.case === item.case && i.reason === item.reason)) inconclusive.push(item);
    const extra = inconclusive.length > 0 ? { inconclusive } : {};
    if (findings.some((f) => f.level === 'failure')) byId.set(op.operationId, { operationId: op.operationId, status: 'failed', findings, ...extra });
    else if (had.status === 'passed' || op.status === 'passed') byId.set(op.operationId, { operationId: op.operationId, status: 'passed', findings, ...extra });
    else byId.set(op.operationId, { operationId: op.operationId, status: 'skipped', reason: had.reason ?? op.reason ?? 'not exercised', findings, ...extra });
  }
  return [...byId.values()];
}
