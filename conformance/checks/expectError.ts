import { requestName, type Outcomes } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import type { SpecValidators } from '../specValidators.ts';

/**
 * Judges an answer that must be a refusal: the given status (or any 4xx), with an Error body whose
 * `status` equals the HTTP status. `what` says what was sent (`categoryId 1.5`), `rule` why it is
 * wrong (`NewPet.categoryId is an int64 integer`). Returns whether it was refused as it must be.
 */
export function expectError(report: Outcomes, validators: SpecValidators, exchange: Exchange, expected: number | '4xx', what: string, rule?: string): boolean {
  const { status, json } = exchange.response;
  const where = requestName(exchange);
  const must = expected === '4xx' ? 'refused with a 4xx' : `refused with ${expected}`;
  const because = rule ? `; ${rule}, so it must be ${must}` : `; it must be ${must}`;
  const statusOk = expected === '4xx' ? status >= 400 && status < 500 : status === expected;
  const message = status >= 200 && status < 300 ? `${where} accepted ${what} (${status})${because}.` : `${where}, sent ${what}, was answered ${status}${because} and an Error body.`;
  if (!report.expect(statusOk, exchange, message)) return false;
  const verdict = validators.check(validators.errorSchema, json);
  if (!report.expect(json !== undefined && verdict.valid, exchange, `${where} refused ${what} with ${status} but without a valid Error body${verdict.problem ? `: ${verdict.problem}` : ''}; every error carries {code, message, status}.`)) return false;
  return report.expect((json as { status: unknown }).status === status, exchange, `${where} refused ${what} with ${status} and an Error whose status is ${JSON.stringify((json as { status: unknown }).status)}; it must equal the HTTP status.`);
}

/**
 * Judges an answer to a case the contract leaves open (an empty or repeated parameter): a refusal
 * must still be a 4xx Error, and a 5xx is never right; an acceptance is only a warning.
 */
export function expectOpen(report: Outcomes, validators: SpecValidators, exchange: Exchange, what: string, rule: string): void {
  const { status } = exchange.response;
  if (status >= 200 && status < 300) {
    report.warn(exchange.operationId, `${requestName(exchange)} accepted ${what} (${status}); ${rule}. The contract does not say how this is read, so this is a warning.`, exchange, `open ${exchange.case ?? what}`);
    report.examined(exchange.operationId);
    return;
  }
  expectError(report, validators, exchange, '4xx', what, rule);
}
