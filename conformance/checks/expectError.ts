import { requestLine, type Outcomes } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import type { SpecValidators } from '../specValidators.ts';

/**
 * Judges an answer that must be a refusal: the given status (or any 4xx), with an Error body whose
 * `status` equals the HTTP status. Returns whether it was.
 */
export function expectError(report: Outcomes, validators: SpecValidators, exchange: Exchange, expected: number | '4xx', what: string): boolean {
  const { status, json } = exchange.response;
  const where = `${requestLine(exchange)}`;
  const statusOk = expected === '4xx' ? status >= 400 && status < 500 : status === expected;
  if (!report.expect(statusOk, exchange, `${where} (${what}) answered ${status}; it must be ${expected === '4xx' ? 'refused with a 4xx' : expected} with an Error body.`)) return false;
  const verdict = validators.check(validators.errorSchema, json);
  if (!report.expect(json !== undefined && verdict.valid, exchange, `${where} (${what}) answered ${status} without a valid Error body${verdict.problem ? `: ${verdict.problem}` : ''}.`)) return false;
  return report.expect((json as { status: unknown }).status === status, exchange, `${where} (${what}) answered ${status} with an Error whose status is ${JSON.stringify((json as { status: unknown }).status)}.`);
}
