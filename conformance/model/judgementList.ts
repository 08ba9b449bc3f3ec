// A judge's judgements as it makes them, case by case: what the checks that send their own cases
// decide of each answer, with the same words a check's outcomes use, as plain data.
import type { Exchange } from '../http/exchange.ts';
import type { Judgement } from './judgement.ts';
import { unjudgeable } from './judgeable.ts';
import type { RuleId } from './rules.ts';

/** How a failure or warning is counted: on the first of its kind (one rule, one kind, one operation), or each its own. */
export type Grouping = ({ kind: string } | { each: true }) & {
  /** The answer fields the failure is about, when not the whole answer (Judgement.fields). */
  fields?: string[];
};

/** Each its own finding: a case's failure names that case. */
export const eachCase: Grouping = { each: true };

export class JudgementList {
  readonly judgements: Judgement[] = [];

  /** The rule held on this answer: it examined the operation. */
  held(rule: RuleId, exchange: Exchange, operationId = exchange.operationId): void {
    this.judgements.push({ rule, operationId, exchange, outcome: 'held' });
  }

  fail(rule: RuleId, exchange: Exchange, message: string, grouping: Grouping = eachCase, operationId = exchange.operationId, related?: number[]): void {
    this.judgements.push({ rule, operationId, exchange, outcome: 'failure', message, ...grouping, ...(related && related.length > 0 ? { related } : {}) });
  }

  warn(rule: RuleId, exchange: Exchange, message: string, grouping: Grouping = eachCase, operationId = exchange.operationId): void {
    this.judgements.push({ rule, operationId, exchange, outcome: 'warning', message, ...grouping });
  }

  /** The answer could not judge its case: neither passed nor failed. */
  inconclusive(rule: RuleId, exchange: Exchange, reason: string, operationId = exchange.operationId): void {
    this.judgements.push({ rule, operationId, exchange, outcome: 'inconclusive', message: reason });
  }

  /** The rule does not apply to the operation (the deployment does not serve it): skipped with why, unless another answer examined it. */
  skip(rule: RuleId, exchange: Exchange, reason: string, operationId = exchange.operationId): void {
    this.judgements.push({ rule, operationId, exchange, outcome: 'skipped', message: reason });
  }

  /**
   * A condition on the answer to a case: held, or a failure. An answer that cannot judge the case
   * (see `unjudgeable`) makes it inconclusive instead. Returns whether it held on a judgeable answer.
   */
  expect(condition: boolean, rule: RuleId, exchange: Exchange, message: () => string, grouping: Grouping = eachCase): boolean {
    const why = unjudgeable(exchange);
    if (why !== undefined) {
      this.inconclusive(rule, exchange, why);
      return false;
    }
    return this.expectOfAnswer(condition, rule, exchange, message, grouping);
  }

  /** A condition every answer must keep, whatever it is: never inconclusive. */
  expectOfAnswer(condition: boolean, rule: RuleId, exchange: Exchange, message: () => string, grouping: Grouping = eachCase, operationId = exchange.operationId): boolean {
    if (condition) this.held(rule, exchange, operationId);
    else this.fail(rule, exchange, message(), grouping, operationId);
    return condition;
  }
}
