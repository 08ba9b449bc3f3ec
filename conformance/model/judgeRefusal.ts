// What a refusal is, whichever check asked for one: the status it must have (one the contract
// names, or any 4xx where it names none), and an Error body whose `status` is the HTTP status.
import type { Exchange, Expectation } from '../http/exchange.ts';
import type { SpecValidators } from '../specValidators.ts';
import { requestName } from './judgeable.ts';
import type { JudgementList } from './judgementList.ts';
import type { RuleId } from './rules.ts';

/**
 * Judges an answer that must be a refusal: the given status (or any 4xx), with an Error body whose
 * `status` equals the HTTP status. `what` says what was sent (`categoryId 1.5`), `because` why it
 * is wrong (`NewPet.categoryId is an int64 integer`). Returns whether it was refused as it must be.
 */
export function judgeRefusal(v: JudgementList, validators: SpecValidators, rule: RuleId, exchange: Exchange, expected: number | '4xx', what: string, because?: string): boolean {
  const { status, json } = exchange.response;
  const where = requestName(exchange);
  const must = expected === '4xx' ? 'refused with a 4xx' : `refused with ${expected}`;
  const reason = because ? `; ${because}, so it must be ${must}` : `; it must be ${must}`;
  const statusOk = expected === '4xx' ? status >= 400 && status < 500 : status === expected;
  if (!statusOk) {
    return v.expect(false, rule, exchange, () => (status >= 200 && status < 300 ? `${where} accepted ${what} (${status})${reason}.` : `${where}, sent ${what}, was answered ${status}${reason} and an Error body.`));
  }
  const verdict = validators.check(validators.errorSchema, json);
  if (json === undefined || !verdict.valid) {
    return v.expect(false, rule, exchange, () => `${where} refused ${what} with ${status} but without a valid Error body${verdict.problem ? `: ${verdict.problem}` : ''}; every error carries {code, message, status}.`);
  }
  const bodyStatus = (json as { status: unknown }).status;
  return v.expect(bodyStatus === status, rule, exchange, () => `${where} refused ${what} with ${status} and an Error whose status is ${JSON.stringify(bodyStatus)}; it must equal the HTTP status.`);
}

/**
 * Judges an answer to a case the contract leaves open (an empty or repeated parameter): a refusal
 * must still be a 4xx Error, and a 5xx is never right; being served is only a warning.
 */
export function judgeOpen(v: JudgementList, validators: SpecValidators, rule: RuleId, exchange: Exchange, what: string, because: string): void {
  const { status } = exchange.response;
  if (status >= 200 && status < 300) {
    v.warn(rule, exchange, `${requestName(exchange)} accepted ${what} (${status}); ${because}. The contract does not say how this is read, so this is a warning.`, { kind: `open ${exchange.case ?? what}` });
    v.held(rule, exchange);
    return;
  }
  judgeRefusal(v, validators, rule, exchange, '4xx', what, because);
}

/**
 * Judges what a request's expectation decides alone: a refusal, an open case, or a value a
 * deployment may refuse. Returns the expectation when the answer is one to be served, for the
 * check's own judge to say how (`accept`, and `may-refuse` served); undefined when judged here.
 */
export function judgeExpectation(v: JudgementList, validators: SpecValidators, exchange: Exchange): Expectation | undefined {
  const e = exchange.expect;
  if (e === undefined) return undefined;
  const rule = e.rule as RuleId;
  const { status } = exchange.response;
  if (e.answer === 'refuse' || (e.answer === 'may-refuse' && status >= 400 && status !== 429)) {
    judgeRefusal(v, validators, rule, exchange, e.status ?? '4xx', e.what, e.because);
    return undefined;
  }
  if (e.answer === 'open') {
    judgeOpen(v, validators, rule, exchange, e.what, e.because ?? 'the contract does not say');
    return undefined;
  }
  if (e.answer === 'refuse-or-none') {
    const items = status === 200 && Array.isArray(exchange.response.value) ? exchange.response.value : undefined;
    if (items === undefined) {
      judgeRefusal(v, validators, rule, exchange, '4xx', e.what, e.because);
      return undefined;
    }
    const parameter = e.parameter ?? '';
    const other = items.filter((item) => (item as Record<string, unknown> | null)?.[parameter] !== e.value);
    const none = v.expect(other.length === 0, rule, exchange, () => `GET ${exchange.path} answered 200 with ${other.length} pets whose ${parameter} is not ${JSON.stringify(e.value)} (first: ${JSON.stringify((other[0] as Record<string, unknown> | null)?.[parameter])}); ${e.because}, so ${e.what} matches no pet: refuse it with a 4xx, or list none.`);
    if (none) v.warn(rule, exchange, `GET ${exchange.path} answered ${e.what} with 200 and an empty list; ${e.because}. The contract names no status for a value outside it, so this is a warning: a client that sent it is told nothing is wrong.`, { kind: `open ${exchange.case ?? e.what}` });
    return undefined;
  }
  return e;
}
