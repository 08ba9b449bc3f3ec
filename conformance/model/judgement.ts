import type { Exchange } from '../http/exchange.ts';
import type { RuleId } from './rules.ts';

/**
 * One rule applied to one answer: held, broken (a failure) or questionable (a warning). Judges
 * return one for every rule they applied, held ones too, so the reports can say what a run
 * verified; a rule a judge did not apply yields nothing, and is reported not reached.
 */
export interface Judgement {
  rule: RuleId;
  /** The operation the answer belongs to, or `unlisted` for a method or path the spec does not list. */
  operationId: string;
  exchange: Exchange;
  outcome: 'held' | 'failure' | 'warning';
  /** What failed, the values seen, and what the contract expects; absent when held. */
  message?: string;
  /** Other exchanges the verdict rests on (the earlier read, the previous window), by seq. */
  related?: number[];
}

export const held = (rule: RuleId, operationId: string, exchange: Exchange): Judgement => ({ rule, operationId, exchange, outcome: 'held' });

export const broken = (rule: RuleId, operationId: string, exchange: Exchange, message: string, related?: number[]): Judgement => ({
  rule,
  operationId,
  exchange,
  outcome: 'failure',
  message,
  ...(related && related.length > 0 ? { related } : {}),
});

export const questionable = (rule: RuleId, operationId: string, exchange: Exchange, message: string): Judgement => ({ rule, operationId, exchange, outcome: 'warning', message });

/** `held` when the condition holds, else the failure. */
export const holds = (condition: boolean, rule: RuleId, operationId: string, exchange: Exchange, message: () => string, related?: number[]): Judgement =>
  condition ? held(rule, operationId, exchange) : broken(rule, operationId, exchange, message(), related);
