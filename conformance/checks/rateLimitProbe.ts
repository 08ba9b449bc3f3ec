import type { Check } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { readRateHeaders, retryAfterMs } from '../http/rateLimitState.ts';
import { expectError } from './expectError.ts';
import { newPetBody } from './newPetBody.ts';
import { toJsonText } from '../json/losslessJson.ts';

export const rateLimitProbe: Check = {
  id: 'rate-limit-probe',
  title: 'Over the limit: 429 with Retry-After, when the headers said',
  severity: 'high',
  description:
    'With --probe-rate-limit, spends the key\'s current quota on purpose: 429 must come no later than ' +
    'X-RateLimit-Remaining promised and never while it said requests were left, with a Retry-After and an ' +
    'Error body. After the 429 it sends one request more at once, the list under another spelling of its path, a getPet and a createPet, ' +
    'which rate-limit-accounting holds to the same limit; then nothing more with the key.',
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
  async run(ctx, report) {
    const send = (caseName: string) => ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'key', operationId: 'listPets', intent: 'over-limit', case: caseName }, { expect429: true });
    const judgeRetryAfter = (exchange: Exchange, which: string) => {
      const retry = exchange.response.headers['retry-after'];
      report.expect(retryAfterMs(retry, exchange.sentAt) !== undefined, exchange, `The ${which} 429 has ${retry === undefined ? 'no Retry-After' : `Retry-After ${JSON.stringify(retry)}, neither delay-seconds nor an HTTP-date`}; the contract says the client retries after the time it gives.`);
      expectError(report, ctx.validators, exchange, 429, 'a request over the rate limit');
    };
    let last: Exchange | undefined;
    let overLimit = 0;
    for (let sent = 0; sent <= ctx.options.probeMaxRequests; sent++) {
      const exchange = await send('rate-limit-probe/spend');
      if (!exchange) return;
      const before = last ? readRateHeaders(last.response.headers) : undefined;
      const windowOpen = before?.reset !== undefined && exchange.sentAt < before.reset * 1000 - 1000;
      if (exchange.response.status === 429) {
        // One request of slack: another client of the same key may spend one in between.
        if (before?.remaining !== undefined && before.remaining > 1 && windowOpen) {
          report.fail('listPets', `429 arrived while the previous answer (#${last!.seq}) said X-RateLimit-Remaining ${before.remaining}.`, exchange);
        }
        judgeRetryAfter(exchange, 'first');
        // One request more, at once: a later 429 must say when to retry too. One is all the
        // contract's ban warning allows spending.
        const again = await send('rate-limit-probe/again');
        if (again?.response.status === 429) judgeRetryAfter(again, 'second');
        // The list under another spelling of its path: a route the limiter does not cover serves
        // the operation over the limit (judged by rate-limit-accounting). Refused any way is right.
        await ctx.send({ method: 'GET', path: '/pets/?limit=1', auth: 'key', operationId: 'unlisted', intent: 'over-limit', case: 'rate-limit-probe/after-429/path-spelling' }, { expect429: true });
        // Every other operation once, a POST among them: the limit holds for all of them alike
        // (judged by rate-limit-accounting). A ban after repeated 429s is the deployment's right.
        const known = ctx.knownPets()[0];
        if (known) await ctx.send({ method: 'GET', path: ctx.petPath(known), auth: 'key', operationId: 'getPet', intent: 'over-limit', case: 'rate-limit-probe/after-429/get-pet' }, { expect429: true });
        // Another key's window is its own: the first key's 429 does not throttle the second.
        if (ctx.apiKey2 !== undefined) await ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'key2', operationId: 'listPets', intent: 'valid', case: 'rate-limit-probe/after-429/second-key' });
        if (!ctx.options.readOnly) {
          await ctx.send({ method: 'POST', path: '/pets', auth: 'key', headers: { 'content-type': 'application/json' }, body: toJsonText(newPetBody(ctx, true)), operationId: 'createPet', intent: 'over-limit', case: 'rate-limit-probe/after-429/create-pet' }, { expect429: true });
        }
        return;
      }
      const served = exchange.response.status >= 200 && exchange.response.status < 300;
      if (served && before?.remaining === 0 && windowOpen) {
        // A sliding window may free a request as an old one ages out; two in a row is no window at all.
        overLimit++;
        if (overLimit >= 2) {
          report.fail('listPets', `The previous answers (to #${last!.seq}) said X-RateLimit-Remaining 0 until ${before.reset}, yet ${overLimit} more requests were answered ${exchange.response.status}, not 429.`, exchange);
          return;
        }
      } else {
        overLimit = 0;
      }
      last = exchange;
    }
    if (last) report.fail('listPets', `No 429 after ${ctx.options.probeMaxRequests + 1} requests; the last answer said X-RateLimit-Limit ${last.response.headers['x-ratelimit-limit']} and Remaining ${last.response.headers['x-ratelimit-remaining']}. Requests over the limit must get 429.`, last);
  },
};
