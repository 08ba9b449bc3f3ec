// The rate-limit probe's judge: spending the key's window, 429 comes no later than
// X-RateLimit-Remaining promised and never while it said requests were left, with a Retry-After
// and an Error body; once Remaining said 0, requests are not served.
import type { Exchange } from '../http/exchange.ts';
import { readRateHeaders, retryAfterMs } from '../http/rateLimitState.ts';
import { judgeRefusal } from './judgeRefusal.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';
import type { RunFacts } from './runFacts.ts';

export const probeCases = { spend: 'rate-limit-probe/spend', again: 'rate-limit-probe/again' } as const;

/** Whether the window `before` announced is still open when `exchange` left: its Reset not reached, with a second of slack. */
export function windowOpen(before: { reset?: number } | undefined, exchange: Exchange): boolean {
  return before?.reset !== undefined && exchange.sentAt < before.reset * 1000 - 1000;
}

export function judgeRateProbe(exchanges: readonly Exchange[], facts: RunFacts): Judgement[] {
  const v = new JudgementList();
  const judgeRetryAfter = (exchange: Exchange, which: string) => {
    const retry = exchange.response.headers['retry-after'];
    v.expect(retryAfterMs(retry, exchange.sentAt) !== undefined, 'probe.retry-after', exchange, () => `The ${which} 429 has ${retry === undefined ? 'no Retry-After' : `Retry-After ${JSON.stringify(retry)}, neither delay-seconds nor an HTTP-date`}; the contract says the client retries after the time it gives.`);
    judgeRefusal(v, facts.validators, 'probe.429-error', exchange, 429, 'a request over the rate limit');
  };
  const spends = exchanges.filter((e) => e.case === probeCases.spend);
  let last: Exchange | undefined;
  let overLimit = 0;
  for (const exchange of spends) {
    const before = last ? readRateHeaders(last.response.headers) : undefined;
    if (exchange.response.status === 429) {
      // One request of slack: another client of the same key may spend one in between.
      if (before?.remaining !== undefined && before.remaining > 1 && windowOpen(before, exchange)) {
        v.fail('probe.429-when-announced', exchange, `429 arrived while the previous answer (#${last!.seq}) said X-RateLimit-Remaining ${before.remaining}.`, { each: true }, 'listPets');
      }
      judgeRetryAfter(exchange, 'first');
      const again = exchanges.find((e) => e.case === probeCases.again);
      if (again?.response.status === 429) judgeRetryAfter(again, 'second');
      return v.judgements;
    }
    const served = exchange.response.status >= 200 && exchange.response.status < 300;
    if (served && before?.remaining === 0 && windowOpen(before, exchange)) {
      // A sliding window may free a request as an old one ages out; two in a row is no window at all.
      overLimit++;
      if (overLimit >= 2) {
        v.fail('probe.over-limit-refused', exchange, `The previous answers (to #${last!.seq}) said X-RateLimit-Remaining 0 until ${before.reset}, yet ${overLimit} more requests were answered ${exchange.response.status}, not 429.`, { each: true }, 'listPets');
        return v.judgements;
      }
    } else {
      overLimit = 0;
    }
    last = exchange;
  }
  // Every request the probe may spend was answered, and none was a 429.
  if (last && spends.length > facts.probeMaxRequests) {
    v.fail('probe.429-reached', last, `No 429 after ${facts.probeMaxRequests + 1} requests; the last answer said X-RateLimit-Limit ${last.response.headers['x-ratelimit-limit']} and Remaining ${last.response.headers['x-ratelimit-remaining']}. Requests over the limit must get 429.`, { each: true }, 'listPets');
  }
  return v.judgements;
}
