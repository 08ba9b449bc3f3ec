import type { Exchange } from '../http/exchange.ts';
import type { RuleId } from './rules.ts';

/**
 * One rule applied to one answer: held, broken (a failure) or questionable (a warning); or not
 * judged: the answer could not judge its case (`inconclusive`: a 429 it did not ask for, a body
 * kept only in part), or the rule does not apply to the operation at all (`skipped`: the
 * deployment does not serve GET /store/orders). Judges return one for every rule they applied,
 * held ones too, so the reports can say what a run verified; a rule a judge did not apply yields
 * nothing, and is reported not reached.
 */
export interface Judgement {
  rule: RuleId;
  /** The operation the answer belongs to, or `unlisted` for a method or path the spec does not list. */
  operationId: string;
  /** The answer judged; absent only for a raw connection that carried no answer at all (its bytes start none). */
  exchange?: Exchange;
  outcome: 'held' | 'failure' | 'warning' | 'inconclusive' | 'skipped';
  /** What failed, the values seen, and what the contract expects; for `inconclusive` and `skipped`, why. Absent when held. */
  message?: string;
  /** Other exchanges the verdict rests on (the earlier read, the previous window), by seq. */
  related?: number[];
  /**
   * Failures and warnings of one rule and kind on one operation are one finding, counted: by
   * default one per rule (a wrong media type every answer shares is one finding, not forty); a
   * kind splits them (`undocumented 418`); `each` lists every one (a case each).
   */
  kind?: string;
  each?: boolean;
  /** The generated case a judgement without an answer is about (a case that could not be sent). */
  case?: string;
  /**
   * The answer fields a failure or warning is about, by name within the Pet or Error (`status`),
   * when it is about some fields of the answer and not the whole: `--usage` tells a client that
   * never reads them that the failure does not touch it (conformance/usage/findingPlace.ts).
   */
  fields?: string[];
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

/** The judgement, a failure or warning said to be about these answer fields only (see `Judgement.fields`). */
export const aboutFields = (judgement: Judgement, fields: readonly string[]): Judgement =>
  judgement.outcome === 'failure' || judgement.outcome === 'warning' ? { ...judgement, ...(fields.length > 0 ? { fields: [...fields] } : {}) } : judgement;

/** Whether a judgement judged its answer (held, failed or warned), rather than leaving it not judged. */
export const judged = (j: Judgement) => j.outcome !== 'inconclusive' && j.outcome !== 'skipped';
