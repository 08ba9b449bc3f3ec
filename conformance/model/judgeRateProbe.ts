// The rate-limit probe's judge: spending the key's window, 429 comes no later than
// X-RateLimit-Remaining promised and never while it said requests were left; once Remaining said 0,
// requests are not served. That each 429 carries a Retry-After (headers.rate-limit-present,
// headers.retry-after) and an Error body whose status is 429 (body.schema, error.status-equal) is
// judged by the model on every 429 of the run, the probe's among them.
import type { Exchange, UnansweredRequest } from '../http/exchange.ts';
import { readRateHeaders, retryAfterMs } from '../http/rateLimitState.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';
import { answeredAt, retryAfterSlackMs } from './judgeRate.ts';
import type { RunFacts } from './runFacts.ts';
import { judgeLostOverLimit } from './judgeLostOverLimit.ts';
import { isSuccess } from './http/requestKey.ts';

export const probeCases = {
  spend: 'rate-limit-probe/spend',
  again: 'rate-limit-probe/again',
  spendNewWindow: 'rate-limit-probe/spend-in-new-window',
  afterRetryAfter: 'rate-limit-probe/after-retry-after',
  afterRetryAgain: 'rate-limit-probe/after-retry-after/again',
  secondKeySpend: 'rate-limit-probe/second-key/spend',
  secondKeyRetry: 'rate-limit-probe/second-key/after-retry-after',
  lostAgain: 'rate-limit-probe/lost-over-limit/again',
  lostNextWindow: 'rate-limit-probe/lost-over-limit/next-window',
} as const;

/**
 * Slack on a retry sent when a Retry-After told: the header counts whole seconds, so a deployment
 * that rounds the wait to the nearest one tells up to half a second short, and the replicas behind
 * one address may read clocks a little apart.
 */
export const retrySlackMs = 500;

/** The run key's last 429 before the probe retries, of the probe's own exchanges in order. */
export function lastRefusal(exchanges: readonly Exchange[]): Exchange | undefined {
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const e = exchanges[i]!;
    if (e.bucket === 'key' && e.response.status === 429 && e.case !== probeCases.afterRetryAfter && e.case !== probeCases.afterRetryAgain) return e;
  }
  return undefined;
}

/** How long after a 429 a client waits as told: its Retry-After (an HTTP-date read against its Date), and the slack. */
export function retryWaitMs(refusal: Exchange): number | undefined {
  const told = retryAfterMs(refusal.response.headers['retry-after'], answeredAt(refusal));
  return told === undefined ? undefined : told + retrySlackMs;
}

/**
 * How far before its window's end a 429 must come for the judges to tell a correct one from a
 * broken one. Near the end they allow for clocks that tick in whole seconds (RFC 9110, 5.6.7: a
 * Date has no fraction; `retryAfterSlackMs`), and a Retry-After short by little (a constant 1, whole
 * minutes rounded down to 0) shows only while the window has longer than that to run: three
 * seconds more. The probe then spends the next window from its start (`rateLimitProbe`).
 */
export const judgeableBeforeResetMs = retryAfterSlackMs + 3_000;

/** Whether a 429 came too near its window's end (its own X-RateLimit-Reset, by its Date) to be judged. */
export function nearItsReset(exchange: Exchange): boolean {
  const reset = readRateHeaders(exchange.response.headers).reset;
  return reset !== undefined && reset * 1000 - answeredAt(exchange) < judgeableBeforeResetMs;
}

/**
 * How long after a 429 the next window is surely open, on the deployment's own numbers: its
 * X-RateLimit-Reset from its Date, or its Retry-After if longer (Errors: "retry after the time given
 * in the `Retry-After` header"), and the slack of two whole-second clocks.
 */
export function untilNextWindowMs(exchange: Exchange): number | undefined {
  const reset = readRateHeaders(exchange.response.headers).reset;
  if (reset === undefined) return undefined;
  const at = answeredAt(exchange);
  return Math.max(reset * 1000 - at, retryAfterMs(exchange.response.headers['retry-after'], at) ?? 0, 0) + retryAfterSlackMs;
}

/** Whether the window `before` announced is still open when `exchange` left: its Reset not reached, with a second of slack. */
function windowOpen(before: { reset?: number } | undefined, exchange: Exchange): boolean {
  return before?.reset !== undefined && exchange.sentAt < before.reset * 1000 - 1000;
}

/**
 * Whether `exchange` was answered in the window `before` announced: sent before its Reset (with
 * that second of slack), or said to be by the answer itself, whose X-RateLimit-Reset is the same
 * instant: the deployment's own account, whatever the suite's clock reads near the boundary.
 */
export function sameWindow(before: { reset?: number } | undefined, exchange: Exchange): boolean {
  if (windowOpen(before, exchange)) return true;
  const reset = readRateHeaders(exchange.response.headers).reset;
  return before?.reset !== undefined && reset === before.reset;
}

/**
 * Judges the probe's spending: a first round, and, when that round's 429 came too near its window's
 * end to judge, a second round in the window after it. Each round may send what the budget left it.
 * Requests of the probe lost over the limit are judged by `judgeLostOverLimit`.
 */
export function judgeRateProbe(exchanges: readonly Exchange[], facts: RunFacts & { unanswered?: readonly UnansweredRequest[] }): Judgement[] {
  const v = new JudgementList();
  const lost = judgeLostOverLimit(facts.unanswered ?? [], exchanges);
  const first = exchanges.filter((e) => e.case === probeCases.spend);
  const second = exchanges.filter((e) => e.case === probeCases.spendNewWindow);
  judgeRound(v, first, facts.probeMaxRequests + 1, facts, false);
  if (second.length > 0) judgeRound(v, second, facts.probeMaxRequests + 1 - first.length, facts, true);
  const retry = exchanges.find((e) => e.case === probeCases.afterRetryAfter);
  if (retry) judgeRetry(v, retry, lastRefusal(exchanges.slice(0, exchanges.indexOf(retry))));
  const politeRetry = exchanges.find((e) => e.case === probeCases.secondKeyRetry);
  if (politeRetry) judgePoliteRetry(v, politeRetry, exchanges, facts);
  return [...lost, ...v.judgements];
}

/**
 * The list sent once the last 429's Retry-After had passed (with `retrySlackMs`): served, as the
 * 429 told (Errors: "retry after the time given in the `Retry-After` header"). Refused again in the
 * same window (the same X-RateLimit-Reset) with a Retry-After no longer than the one waited out, the
 * first told the client to retry when it would still refuse. Any other refusal may be the temporary
 * ban the contract allows after repeated requests (Authentication 4), which the probe's requests
 * after its 429 were, whatever its status, length or window: not judged.
 */
function judgeRetry(v: JudgementList, retry: Exchange, refusal: Exchange | undefined): void {
  const { status, headers } = retry.response;
  if (status >= 200 && status < 300) {
    v.held('probe.retry-after-honoured', retry);
    return;
  }
  const told = refusal?.response.headers['retry-after'];
  const waited = refusal && retryWaitMs(refusal);
  const again = retryAfterMs(headers['retry-after'], answeredAt(retry));
  const window = readRateHeaders(headers).reset;
  const sameWindow = window !== undefined && refusal !== undefined && window === readRateHeaders(refusal.response.headers).reset;
  if (status !== 429 || refusal === undefined || waited === undefined || !sameWindow || (again !== undefined && again > waited - retrySlackMs)) {
    v.inconclusive('probe.retry-after-honoured', retry, `the retry after the last 429's Retry-After was answered ${status}${headers['retry-after'] === undefined ? '' : ` with Retry-After ${JSON.stringify(headers['retry-after'])}`}${sameWindow ? '' : ' in another window than that 429\'s'}: perhaps the temporary ban the contract allows after repeated requests following a 429`);
    return;
  }
  v.fail('probe.retry-after-honoured', retry, `#${refusal.seq} answered 429 with Retry-After ${JSON.stringify(told)} and X-RateLimit-Reset ${window}; the list sent ${(waited / 1000).toFixed(1)} s after it was refused again in that same window${headers['retry-after'] === undefined ? '' : `, with Retry-After ${JSON.stringify(headers['retry-after'])}`}. A client that waits as Retry-After tells must not be refused for the same limit: give the time until the limit lets a request through (rounded up), as X-RateLimit-Reset names it.`);
}

/**
 * The second key's retry, once the Retry-After of its first 429 had passed (with `retrySlackMs`),
 * the key having sent nothing since that 429: served. Refused again with a 429 whose Retry-After is
 * no longer than the one waited out, in any window, fails: the client waited as told and was told
 * the same wait again, and no repeated request of this run followed its 429. Not judged when the
 * refusal says a longer wait or has another status (a ban the key may have earned before this run,
 * Authentication 4), when others may spend the key (--shared-key), when the deployment was
 * unavailable (5xx), or when another limit now binds (a Limit other than the 429's: the day's).
 */
function judgePoliteRetry(v: JudgementList, retry: Exchange, exchanges: readonly Exchange[], facts: RunFacts): void {
  const { status, headers } = retry.response;
  if (status >= 200 && status < 300) {
    v.held('probe.retry-after-honoured', retry);
    return;
  }
  const before = exchanges.slice(0, exchanges.indexOf(retry)).filter((e) => e.bucket === 'key2');
  const refusal = before.at(-1);
  const waited = refusal && retryWaitMs(refusal);
  const limit = readRateHeaders(headers).limit;
  const refusalLimit = refusal && readRateHeaders(refusal.response.headers).limit;
  const again = retryAfterMs(headers['retry-after'], answeredAt(retry));
  const why = refusal?.response.status !== 429 || refusal.case !== probeCases.secondKeySpend || waited === undefined
    ? 'the second key\'s last request before it was no 429 of its polite spend'
    : status !== 429 || again === undefined || again > waited - retrySlackMs
      ? `it says ${status !== 429 ? `${status}` : again === undefined ? 'no Retry-After' : 'a longer wait'}, as a ban the key may have earned before this run would`
      : facts.sharedKey
      ? 'others may spend the key (--shared-key)'
      : status >= 500
        ? `the deployment answered ${status}`
        : limit !== undefined && refusalLimit !== undefined && limit !== refusalLimit
          ? `it was refused under X-RateLimit-Limit ${limit}, another limit than the ${refusalLimit} of #${refusal.seq}`
          : undefined;
  if (why !== undefined) {
    v.inconclusive('probe.retry-after-honoured', retry, `the second key's retry after its 429's Retry-After was answered ${status}, not judged: ${why}`);
    return;
  }
  v.fail('probe.retry-after-honoured', retry, `#${refusal!.seq} refused the second key with 429, Retry-After ${JSON.stringify(refusal!.response.headers['retry-after'])} and X-RateLimit-Reset ${readRateHeaders(refusal!.response.headers).reset ?? '(none)'}; the key sent nothing more until the list sent ${(waited! / 1000).toFixed(1)} s after it, which was refused again with 429 and Retry-After ${JSON.stringify(headers['retry-after'])}, no longer. A client that waits as Retry-After tells must not be told the same wait again: give the time after which the limit lets a request through.`);
}

/** Whether some window the answers name (one X-RateLimit-Reset) served more requests than its X-RateLimit-Limit, or announced none. */
function overAWindowsLimit(spends: readonly Exchange[]): boolean {
  const served = new Map<number | undefined, { count: number; limit?: number }>();
  for (const exchange of spends) {
    if (exchange.response.status < 200 || exchange.response.status >= 300) continue;
    const { reset, limit } = readRateHeaders(exchange.response.headers);
    const window = served.get(reset) ?? { count: 0, ...(limit !== undefined ? { limit } : {}) };
    window.count++;
    served.set(reset, window);
  }
  return [...served].some(([reset, { count, limit }]) => reset === undefined || limit === undefined || count > limit);
}

/**
 * The most of `spends` served within one minute (the first sent and the last answered less than
 * 60 s apart on the run's clock, so the deployment read both within a minute), and the one Limit
 * every served answer announced (undefined when they announce none or differ).
 */
function servedWithinAMinute(spends: readonly Exchange[]): { count: number; limit?: number; from?: Exchange; to?: Exchange } {
  const served = spends.filter((e) => isSuccess(e.response.status));
  const limits = new Set(served.map((e) => readRateHeaders(e.response.headers).limit));
  const limit = limits.size === 1 ? [...limits][0] : undefined;
  let most: { count: number; from?: Exchange; to?: Exchange } = { count: 0 };
  for (let first = 0, last = 0; last < served.length; last++) {
    const end = served[last]!.sentAt + served[last]!.response.durationMs;
    while (end - served[first]!.sentAt >= 60_000) first++;
    if (last - first + 1 > most.count) most = { count: last - first + 1, from: served[first]!, to: served[last]! };
  }
  return { ...most, ...(limit !== undefined ? { limit } : {}) };
}

/** Judges one round of spending, which may send `budget` requests; `afterA429`: the second round. */
function judgeRound(v: JudgementList, spends: readonly Exchange[], budget: number, facts: RunFacts, afterA429: boolean): void {
  let last: Exchange | undefined;
  let overLimit = 0;
  // A new window began while the probe spent (Reset later and more Remaining than the answer
  // before): what it had spent counts for nothing, and its budget may run out before the 429.
  let rolledAt: Exchange | undefined;
  // A request past a Remaining of 0, in its window, answered otherwise than 429 (served, or a 503):
  // a window that rolled over later does not excuse it.
  let notRefused: Exchange | undefined;
  for (const exchange of spends) {
    const before = last ? readRateHeaders(last.response.headers) : undefined;
    const now = readRateHeaders(exchange.response.headers);
    if (before?.reset !== undefined && now.reset !== undefined && now.reset > before.reset && before.remaining !== undefined && now.remaining !== undefined && now.remaining > before.remaining) rolledAt ??= exchange;
    const served = exchange.response.status >= 200 && exchange.response.status < 300;
    if (afterA429 && !served && exchange.response.status !== 429) {
      // Authentication 4: "Repeated requests after a 429 response may lead to a temporary ban of the
      // API key", with a status the contract does not give: the new window could not be spent.
      v.inconclusive('probe.429-reached', exchange, `the key was answered ${exchange.response.status} in the window after the probe's first 429, perhaps a ban, which the contract allows after a 429: the new window was not spent`, 'listPets');
      return;
    }
    if (exchange.response.status === 429) {
      // One request of slack: another client of the same key may spend one in between (with
      // --shared-key, any number).
      if (!facts.sharedKey && before?.remaining !== undefined && before.remaining > 1 && windowOpen(before, exchange)) {
        v.fail('probe.429-when-announced', exchange, `429 arrived while the previous answer (#${last!.seq}) said X-RateLimit-Remaining ${before.remaining}.`, { each: true }, 'listPets');
      }
      v.held('probe.429-reached', exchange);
      return;
    }
    const pastZero = before?.remaining === 0 && sameWindow(before, exchange);
    if (pastZero) notRefused ??= exchange;
    if (served && pastZero) {
      // A sliding window may free a request as an old one ages out; two in a row is no window at all.
      overLimit++;
      if (overLimit >= 2) {
        v.fail('probe.over-limit-refused', exchange, `The previous answers (to #${last!.seq}) said X-RateLimit-Remaining 0 until ${before.reset}, yet ${overLimit} more requests were answered ${exchange.response.status}, not 429.`, { each: true }, 'listPets');
        return;
      }
    } else {
      overLimit = 0;
    }
    last = exchange;
  }
  if (!last) return;
  const told = `the last answer said X-RateLimit-Limit ${last.response.headers['x-ratelimit-limit']} and Remaining ${last.response.headers['x-ratelimit-remaining']}`;
  // The contract's limits are requests a minute (or a day): however its windows are cut, fixed,
  // sliding or a bucket refilled, a limit of L lets at most 2L through in any minute (L at one
  // window's end, L at the next one's start). More, each answer announcing L: L is not enforced a
  // minute, whatever the windows the answers name (one a second, one per Reset).
  const minute = servedWithinAMinute(spends);
  if (minute.limit !== undefined && minute.count > 2 * minute.limit) {
    const seconds = ((minute.to!.sentAt + minute.to!.response.durationMs - minute.from!.sentAt) / 1000).toFixed(1);
    v.fail('probe.429-reached', minute.to!, `No 429 for ${minute.count} requests served within ${seconds} s (#${minute.from!.seq} to #${minute.to!.seq}), each answer saying X-RateLimit-Limit ${minute.limit}; ${told}. The contract's limits are requests per minute ("Requests per minute"): a limit of ${minute.limit} lets at most ${2 * minute.limit} through in any minute, even across a window's end. Count the window in seconds, not milliseconds, and refuse requests over the limit with 429.`, { each: true }, 'listPets');
    return;
  }
  if (spends.length < budget) {
    // The probe stopped before its budget (an answer lost, the run's time spent): it saw no 429, nor a reason to fail.
    v.inconclusive('probe.429-reached', last, `the probe stopped after ${spends.length} requests without a 429; ${told}: whether requests over the limit get 429 was not seen`, 'listPets');
  } else if (rolledAt && !notRefused) {
    // Every request it may spend was answered, but a new window began on the way: its quota was not all spent in one window.
    v.inconclusive('probe.429-reached', last, `a new window began during the probe (the answer to #${rolledAt.seq} had a later X-RateLimit-Reset and more Remaining), and ${budget} requests did not spend the new one; ${told}: whether requests over the limit get 429 was not seen. Run again, or raise --probe-max-requests`, 'listPets');
  } else if (!notRefused && !overAWindowsLimit(spends)) {
    // Every request it may spend was answered, none a 429, but no one window (one Reset) served more
    // than its Limit: a window that slides on (its Reset moving) frees requests as they age out, and
    // a deployment slow enough keeps the probe under the limit. The limit was not reached.
    v.inconclusive('probe.429-reached', last, `${budget} requests were answered without a 429, but no window (one X-RateLimit-Reset) served more than its X-RateLimit-Limit: the window slides on, or the answers came too slowly to reach the limit; ${told}: whether requests over the limit get 429 was not seen`, 'listPets');
  } else {
    // Every request the probe may spend was answered within one window, and none was a 429.
    v.fail('probe.429-reached', last, `No 429 after ${budget} requests; ${told}. Requests over the limit must get 429.`, { each: true }, 'listPets');
  }
}
