import type { Check, CheckContext } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { readRateHeaders } from '../http/rateLimitState.ts';
import { judgeableBeforeResetMs, judgeRateProbe, nearItsReset, probeCases, sameWindow } from '../model/judgeRateProbe.ts';
import { newPetBody } from './newPetBody.ts';
import { toJsonText } from '../../common/json/losslessJson.ts';

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
  async send(ctx) {
    const budget = ctx.options.probeMaxRequests + 1;
    const first = await spendUntil429(ctx, probeCases.spend, budget);
    if (first.refused === undefined) return;
    // A 429 near its window's end is one the judges cannot tell from a correct one (a Retry-After a
    // whole window short, served requests past Remaining 0): spend the next window from its start.
    const { limit, resetAt } = ctx.keyQuota();
    if (nearItsReset(first.refused) && resetAt !== undefined && limit !== undefined && limit < budget - first.sent) {
      const waited = await ctx.waitUntil(resetAt + 1000, `the rate-limit probe's 429 came less than ${judgeableBeforeResetMs / 1000} s before its window's end, too near to judge; it spends the next window from its start`);
      if (waited) {
        const second = await spendUntil429(ctx, probeCases.spendNewWindow, budget - first.sent);
        if (second.refused === undefined) return;
      }
    }
    await afterThe429(ctx);
  },
  judge: (input) => judgeRateProbe(input.exchanges, input),
  // Each 429 says when to retry and carries an Error body whose status is 429.
  modelRules: ['headers.rate-limit-present', 'headers.retry-after', 'body.json', 'body.schema', 'error.status-equal'],
};

/**
 * Spends the key's window with lists until a 429, `budget` requests at most; stops early, with no
 * 429, when an answer is lost or two requests were served past a Remaining of 0 in an open window
 * (no window at all, and nothing to spend on).
 */
async function spendUntil429(ctx: CheckContext, caseName: string, budget: number): Promise<{ sent: number; refused?: Exchange }> {
  let last: Exchange | undefined;
  let overLimit = 0;
  for (let sent = 0; sent < budget; sent++) {
    const exchange = await ctx.send({ method: 'GET', path: '/pets?limit=1', auth: 'key', operationId: 'listPets', intent: 'over-limit', case: caseName }, { expect429: true });
    if (!exchange) return { sent: sent + 1 };
    if (exchange.response.status === 429) return { sent: sent + 1, refused: exchange };
    const before = last ? readRateHeaders(last.response.headers) : undefined;
    const served = exchange.response.status >= 200 && exchange.response.status < 300;
    if (served && before?.remaining === 0 && sameWindow(before, exchange)) {
      if (++overLimit >= 2) return { sent: sent + 1 };
    } else {
      overLimit = 0;
    }
    last = exchange;
  }
  return { sent: budget };
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
