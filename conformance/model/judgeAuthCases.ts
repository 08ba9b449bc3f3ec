// The auth check's judge: each wrong presentation of the key refused with 401 and an Error body,
// the key first (a request wrong twice gets 401), the run's key accepted everywhere, also under
// "bearer" in lower case. GET /store/orders unserved is the deployment's open choice: not judged.
import type { Exchange } from '../http/exchange.ts';
import { judgeRefusal } from './judgeRefusal.ts';
import { requestName } from './judgeable.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';
import type { RuleId } from './rules.ts';
import type { RunFacts } from './runFacts.ts';

/**
 * The contract mentions GET /store/orders and shows nothing else of it ("Other endpoints (for
 * example the store-orders listing): not shown"), so a deployment that does not serve it (404, 405, 410, 501)
 * makes an open choice: reported as a warning, never a failure.
 */
export function isUnservedStoreOrders(exchange: Exchange): boolean {
  return exchange.operationId === 'listStoreOrders' && [404, 405, 410, 501].includes(exchange.response.status);
}

/**
 * For the same reason, what GET /store/orders answers beyond "not a 5xx" is judged leniently: a
 * body or status unlike the spec's guess at it (an array of open records) is a warning.
 */
export const storeOrdersIsOpen = (operationId: string) => operationId === 'listStoreOrders';

/** Warns that GET /store/orders is not served, and skips the rule there with why. */
export function storeOrdersUnserved(v: JudgementList, rule: RuleId, exchange: Exchange, what: string): void {
  v.warn(rule, exchange, what, { kind: 'store-unserved' });
  v.skip(rule, exchange, `GET /store/orders answered ${exchange.response.status}: the deployment does not serve it, which the contract leaves open`);
}

export function judgeAuth(exchanges: readonly Exchange[], facts: RunFacts): Judgement[] {
  const v = new JudgementList();
  for (const exchange of exchanges) {
    const e = exchange.expect;
    if (e === undefined) continue;
    const { status } = exchange.response;
    if (e.rule === 'auth.key-accepted' || e.rule === 'auth.scheme-case') {
      if (isUnservedStoreOrders(exchange) || status === 429) continue;
      v.expectOfAnswer(status !== 401 && status !== 403, e.rule, exchange, () => e.rule === 'auth.key-accepted'
        ? `${requestName(exchange)} refused the run's API key with ${status}, which GET /pets accepted; a valid key must be accepted on every operation.`
        // RFC 9110 (11.1): the scheme is case-insensitive, so "bearer <key>" is the same credential.
        : `${requestName(exchange)} refused the key sent as "bearer" in lower case (${status}); RFC 9110 (11.1) makes the authentication scheme case-insensitive, so it is the same valid key.`, { kind: e.rule });
      continue;
    }
    if (e.rule === 'auth.wrong-key-401') {
      if (isUnservedStoreOrders(exchange)) {
        storeOrdersUnserved(v, 'auth.wrong-key-401', exchange, `GET /store/orders answered ${status}, so its authentication cannot be checked. The contract mentions it but shows nothing of it, so this is not a failure.`);
        continue;
      }
      judgeRefusal(v, facts.validators, 'auth.wrong-key-401', exchange, 401, e.what, e.because);
      continue;
    }
    if (e.parsedFirst && status === 400) {
      v.warn('auth.key-first', exchange, `${requestName(exchange)} answered ${e.what} with 400: the body was parsed before the key was checked. Authentication comes first, but many servers parse JSON before any route, so this is a warning.`, { kind: `parsed-first ${exchange.case}` });
      judgeRefusal(v, facts.validators, 'auth.key-first', exchange, 400, e.what);
      continue;
    }
    judgeRefusal(v, facts.validators, 'auth.key-first', exchange, 401, e.what, e.because);
  }
  return v.judgements;
}
