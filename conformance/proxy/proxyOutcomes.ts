// A check's outcomes as the proxy collects them: fed a slice of exchanges at a time for as long as
// it runs, so they must stay bounded however long that is, and must ignore what a check says again
// about the earlier exchanges it is shown to rebuild its own state.
import { Outcomes, unjudgeable, type Finding, type Inconclusive, type OperationResult } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';

/** Distinct findings one check lists; past it, new ones are counted on one finding per operation and level. */
export const findingsPerCheck = 100;

export class ProxyOutcomes extends Outcomes {
  readonly #kinds = new Set<string>();
  #listed = 0;
  /**
   * The exchanges being judged now. A check that looks back over earlier answers (the eight
   * successful ones in a row that never count down) is shown them again, and what it says of
   * them was said when they were judged: calls about an exchange outside this set are ignored.
   */
  judging: ReadonlySet<Exchange> | undefined;

  constructor(operations: readonly string[], readonly maxFindings = findingsPerCheck) {
    super(operations);
  }

  override fail(operationId: string, message: string, exchange?: Exchange, kind?: string, extra?: Pick<Finding, 'rule' | 'related'>): void {
    if (this.#seenBefore(exchange)) return;
    const bounded = this.#bounded(operationId, 'failure', kind);
    super.fail(operationId, bounded?.message ?? message, exchange, bounded?.kind ?? kind, bounded ? {} : extra);
  }

  override warn(operationId: string, message: string, exchange?: Exchange, kind?: string, extra?: Pick<Finding, 'rule' | 'related'>): void {
    if (this.#seenBefore(exchange)) return;
    const bounded = this.#bounded(operationId, 'warning', kind);
    super.warn(operationId, bounded?.message ?? message, exchange, bounded?.kind ?? kind, bounded ? {} : extra);
  }

  override expect(condition: boolean, exchange: Exchange, message: string, kind?: string): boolean {
    // The answer the check would get, so that it goes on as it did when this exchange was judged.
    if (this.#seenBefore(exchange)) return unjudgeable(exchange) === undefined && condition;
    return super.expect(condition, exchange, message, kind);
  }

  override expectOfAnswer(condition: boolean, exchange: Exchange, message: string, kind?: string): boolean {
    if (this.#seenBefore(exchange)) return condition;
    return super.expectOfAnswer(condition, exchange, message, kind);
  }

  #seenBefore(exchange: Exchange | undefined): boolean {
    return exchange !== undefined && this.judging !== undefined && !this.judging.has(exchange);
  }

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
