import type { Check, CheckContext } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { readRateHeaders } from '../http/rateLimitState.ts';
import { judgeableBeforeResetMs, judgeRateProbe, lastRefusal, nearItsReset, probeCases, retryWaitMs, sameWindow, untilNextWindowMs } from '../model/judgeRateProbe.ts';
import { isSuccess } from '../model/http/requestKey.ts';
import { newPetBody } from './newPetBody.ts';
import { toJsonText } from '../../common/json/losslessJson.ts';

export const rateLimitProbe: Check = {
  id: 'rate-limit-probe',
  title: 'Over the limit: 429 with Retry-After, when the headers said',
  severity: 'high',
  description:
    'With --probe-rate-limit, spends the key\'s current quota on purpose: 429 must come no later than ' +
    'X-RateLimit-Remaining promised and never while it said requests were left, with a Retry-After and an ' +
    'Error body. A 429 less than 5 s before its window\'s end is too near it to judge: the probe waits for the next ' +
    'window (its Reset, or its Retry-After if later) and spends it from its start. After the judged 429 it sends one request ' +
    'more at once, the list under another spelling of its path, a getPet and a createPet, which rate-limit-accounting ' +
    'holds to the same limit. Then it waits as the last 429\'s Retry-After told (when --max-wait allows) and sends ' +
    'the list once more, which must not be refused again in the same window (a refusal otherwise may be a ban), and, ' +
    'served, one list more at once, which must not be served where that answer said none remain. With --api-key-2, ' +
    'the second key is then spent from the start of its next window to its first 429, and not one request past it, ' +
    'and retried as that 429\'s Retry-After told: a 429 that tells no longer a wait again fails. A request over ' +
    'the limit whose connection is closed on every try, where the key is served again once the window has ended, fails too.',
  operations: ['listPets'],
  phase: 'probe',
  guard(ctx) {
    if (!ctx.options.probeRateLimit) return 'off by default: it spends the key\'s quota; turn it on with --probe-rate-limit';
    const { remaining } = ctx.keyQuota();
    if (remaining !== undefined && remaining > ctx.options.probeMaxRequests) {
      return `the key has ${remaining} requests left in its window, more than --probe-max-requests (${ctx.options.probeMaxRequests}) allows spending`;
    }
    return undefined;
  },
  async send(ctx) {
    const budget = ctx.options.probeMaxRequests + 1;
    const first = await spendUntil429(ctx, probeCases.spend, budget, false);
    if (first.lost) await confirmLostOverLimit(ctx, 'key');
    if (first.refused === undefined) return;
    // A 429 near its window's end is one the judges cannot tell from a correct one (a Retry-After a
    // whole window short, served requests past Remaining 0): spend the next window from its start,
    // once the deployment's own numbers say it has begun.
    const waitMs = untilNextWindowMs(first.refused);
    const { limit } = ctx.keyQuota();
    if (nearItsReset(first.refused) && waitMs !== undefined && limit !== undefined && limit < budget - first.spent) {
      const why = `to spend the next window from its start; the rate-limit probe's 429 came less than ${judgeableBeforeResetMs / 1000} s before its window's end, too near it to judge`;
      if (await ctx.waitFor(waitMs, why)) {
        const second = await spendUntil429(ctx, probeCases.spendNewWindow, budget - first.spent, true);
        if (second.lost) await confirmLostOverLimit(ctx, 'key');
        if (second.refused === undefined) return;
      }
    }
    await afterThe429(ctx);
    await retryWhenTold(ctx);
    if (ctx.apiKey2 !== undefined) await probeSecondKeyPolitely(ctx, budget);
  },
  judge: (input) => judgeRateProbe(input.exchanges, input),
  // Each 429 says when to retry and carries an Error body whose status is 429.
  modelRules: ['headers.rate-limit-present', 'headers.retry-after', 'body.json', 'body.schema', 'error.status-equal'],
};

/**
 * Spends the key's window with lists until a 429, `budget` answers at most (each try of a request
 * the client sent again counts, as the judge counts them); stops early, with no 429, when an answer
 * is lost or two requests were served past a Remaining of 0 in an open window (no window at all,
 * and nothing to spend on), and, `afterA429`, at the first answer that is neither served nor a 429
 * (a ban the contract allows after a 429, whatever its status).
 */
async function spendUntil429(ctx: CheckContext, caseName: string, budget: number, afterA429: boolean): Promise<{ spent: number; refused?: Exchange; lost?: true }> {
  let last: Exchange | undefined;
  let overLimit = 0;
  let spent = 0;
  while (spent < budget) {
    const before = ctx.exchanges.length;
    const exchange = await ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'key', operationId: 'listPets', intent: 'over-limit', case: caseName }, { expect429: true });
    spent += Math.max(1, ctx.exchanges.slice(before).filter((e) => e.case === caseName).length);
    if (!exchange) return { spent, lost: true };
    if (exchange.response.status === 429) return { spent, refused: exchange };
    const served = exchange.response.status >= 200 && exchange.response.status < 300;
    if (afterA429 && !served) return { spent };
    const told = last ? readRateHeaders(last.response.headers) : undefined;
    if (served && told?.remaining === 0 && sameWindow(told, exchange)) {
      if (++overLimit >= 2) return { spent };
    } else {
      overLimit = 0;
    }
    last = exchange;
  }
  return { spent };
}

/** After the 429: what the limit must still hold to, each sent once, and then nothing more with the key. */
async function afterThe429(ctx: CheckContext): Promise<void> {
  // One request more, at once: a later 429 must say when to retry too. One is all the contract's
  // ban warning allows spending.
  await ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'key', operationId: 'listPets', intent: 'over-limit', case: probeCases.again }, { expect429: true });
  // The list under another spelling of its path: a route the limiter does not cover serves the
  // operation over the limit (judged by rate-limit-accounting). Refused any way is right.
  await ctx.send({ method: 'GET', path: '/pets/?limit=1', auth: 'key', operationId: 'unlisted', intent: 'over-limit', case: 'rate-limit-probe/after-429/path-spelling' }, { expect429: true });
  // Every other operation once, a POST among them: the limit holds for all of them alike (judged
  // by rate-limit-accounting). A ban after repeated 429s is the deployment's right.
  const known = ctx.knownPets()[0];
  if (known) await ctx.send({ method: 'GET', path: ctx.petPath(known), auth: 'key', operationId: 'getPet', intent: 'over-limit', case: 'rate-limit-probe/after-429/get-pet' }, { expect429: true });
  // Another key's window is its own: the first key's 429 does not throttle the second.
  if (ctx.apiKey2 !== undefined) await ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'key2', operationId: 'listPets', intent: 'valid', case: 'rate-limit-probe/after-429/second-key' });
  if (!ctx.options.readOnly) {
    await ctx.send({ method: 'POST', path: '/pets', auth: 'key', headers: { 'content-type': 'application/json' }, body: toJsonText(newPetBody(ctx, true)), operationId: 'createPet', intent: 'over-limit', case: 'rate-limit-probe/after-429/create-pet' }, { expect429: true });
  }
}

/**
 * Once the last 429's Retry-After has passed, the list once more (Errors: "The client should back
 * off and retry after the time given in the `Retry-After` header"): a client that waits as told is
 * not refused again for the same limit. The only request after the wait, so a ban the repeated
 * requests after the 429 brought is told apart by its longer Retry-After.
 */
async function retryWhenTold(ctx: CheckContext): Promise<void> {
  const refusal = lastRefusal(ctx.exchanges);
  const waitMs = refusal && retryWaitMs(refusal);
  if (waitMs === undefined) return;
  if (await ctx.waitFor(waitMs, 'to retry as the last 429\'s Retry-After told')) {
    // Over-limit as the requests before it: a ban after them may answer any status.
    const retry = await ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'key', operationId: 'listPets', intent: 'over-limit', case: probeCases.afterRetryAfter }, { expect429: true });
    // Served: one request more at once. A sliding window may have freed the one the retry took;
    // if that answer said none remain in its window, this one is over the limit (rate-limit-accounting).
    if (retry && retry.response.status >= 200 && retry.response.status < 300) {
      await ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'key', operationId: 'listPets', intent: 'over-limit', case: probeCases.afterRetryAgain }, { expect429: true });
    }
  }
}

/**
 * The second key as a polite client: spent with lists from the start of a window of its own (so
 * every request the window counts is the probe's, sent after it began), to its first 429 and not
 * one request past it, then retried once when that 429's Retry-After has passed. No request of
 * this run followed the 429, so a 429 that tells the same wait again is no ban this run earned
 * (Authentication 4); a longer one may be a ban earned before, and is not judged (judgeRateProbe).
 * Not sent when the key met a 429 before in the run, or allows more than the probe may spend.
 */
async function probeSecondKeyPolitely(ctx: CheckContext, budget: number): Promise<void> {
  const seen = ctx.exchanges.filter((e) => e.bucket === 'key2');
  if (seen.some((e) => e.response.status === 429)) return;
  const { limit } = ctx.keyQuota('key2');
  const lastSeen = seen.at(-1);
  const untilWindow = lastSeen && untilNextWindowMs(lastSeen);
  if (limit === undefined || limit >= budget || untilWindow === undefined) return;
  if (!(await ctx.waitFor(Math.max(0, untilWindow - sinceAnswered(ctx, lastSeen!)), 'to spend the second key from the start of its next window'))) return;
  let refusal: Exchange | undefined;
  for (let spent = 0; spent < budget && refusal === undefined; spent++) {
    const exchange = await ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'key2', operationId: 'listPets', intent: 'over-limit', case: probeCases.secondKeySpend }, { expect429: true });
    if (!exchange) return confirmLostOverLimit(ctx, 'key2');
    if (exchange.response.status !== 429 && (exchange.response.status < 200 || exchange.response.status >= 300)) return;
    if (exchange.response.status === 429) refusal = exchange;
  }
  const waitMs = refusal && retryWaitMs(refusal);
  if (waitMs === undefined || !(await ctx.waitFor(Math.max(0, waitMs - sinceAnswered(ctx, refusal!)), 'to retry as the Retry-After of the second key\'s 429 told'))) return;
  await ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'key2', operationId: 'listPets', intent: 'over-limit', case: probeCases.secondKeyRetry }, { expect429: true });
}

/**
 * A request of the probe got no answer on any try. Where the key's last answer served it and said
 * none remain, that request was over the limit, which is owed a 429: one request more at once, and,
 * lost too, one once that window has ended. Served then, the deployment was up and closes requests
 * over the limit (judgeLostOverLimit); anything else is the run's count of lost requests to judge.
 */
async function confirmLostOverLimit(ctx: CheckContext, auth: 'key' | 'key2'): Promise<void> {
  const last = ctx.exchanges.filter((e) => e.bucket === auth).at(-1);
  if (!last || !isSuccess(last.response.status) || readRateHeaders(last.response.headers).remaining !== 0) return;
  const list = { method: 'GET', path: '/pets?limit=1', auth, operationId: 'listPets', intent: 'over-limit' } as const;
  if (await ctx.send({ ...list, case: probeCases.lostAgain }, { expect429: true })) return;
  const waitMs = untilNextWindowMs(last);
  if (waitMs === undefined || !(await ctx.waitFor(Math.max(0, waitMs - sinceAnswered(ctx, last)), 'to tell requests over the limit closed on from an outage: one request once their window has ended'))) return;
  await ctx.send({ ...list, case: probeCases.lostNextWindow }, { expect429: true });
}

/** How long ago, on the run's clock, `exchange` was answered: no earlier than the last answer of the run came back. */
function sinceAnswered(ctx: CheckContext, exchange: Exchange): number {
  const last = ctx.exchanges.at(-1)!;
  return Math.max(0, last.sentAt + last.response.durationMs - (exchange.sentAt + exchange.response.durationMs));
}
