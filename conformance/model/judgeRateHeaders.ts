// The rate-limit headers every answer carries, as the contract defines them: present (and
// Retry-After on a 429), non-negative integers, Remaining within Limit, Reset a plausible Unix
// time in seconds; and Remaining counting down as the key's requests are served. Retry-After's
// grammar (headers.retry-after) is judged with the other fields that direct a client, on every
// answer (http/judgeControlFields.ts).
import { findOperation } from '../../spec/loadSpec.ts';
import type { Exchange } from '../http/exchange.ts';
import { readRateHeaders } from '../http/rateLimitState.ts';
import type { SpecValidators } from '../specValidators.ts';
import { isUnservedStoreOrders } from './judgeAuthCases.ts';
import { judgedAsOperation, requestLine } from './judgeable.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';
import type { ModelState } from './modelState.ts';

const names = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;
/** Without a Date header, the suite's clock is the reference: allow a minute of clock skew. */
const SKEW_S = 60;
/** The day window is the longest the contract gives; a ban may run past it, so allow two. */
const LONGEST_S = 2 * 86_400;
/**
 * Successful requests in a row that left Remaining exactly where it was, before it counts as never
 * counting down. A sliding window may give requests back as old ones age out, so a few are allowed.
 */
const FLAT_RUN = 8;

/** Judges the answers of a group in the order sent, each against the key's answers before it. */
export function judgeRateHeaders(group: readonly Exchange[], state: ModelState, validators: SpecValidators): Judgement[] {
  const v = new JudgementList();
  for (const exchange of [...group].sort((a, b) => a.seq - b.seq)) judgeOne(v, exchange, state, validators);
  return v.judgements;
}

function judgeOne(v: JudgementList, exchange: Exchange, state: ModelState, validators: SpecValidators): void {
  if (!judgedAsOperation(exchange)) return;
  const { headers } = exchange.response;
  if (isUnservedStoreOrders(exchange)) {
    // Not served: what a deployment answers for an endpoint the contract only mentions is not judged.
    v.warn('headers.rate-limit-present', exchange, `GET /store/orders answered ${exchange.response.status}, so its answers are not judged. The contract mentions this endpoint but shows nothing of it.`, { kind: 'store-unserved' });
    return;
  }
  const where = `${requestLine(exchange)} (${exchange.response.status})`;
  // What the spec requires of this answer: the rate-limit headers everywhere, Retry-After on a 429.
  const required = validators.requiredHeaders(findOperation(validators.spec, exchange.operationId), exchange.response.status);
  const missing = required.filter((n) => headers[n] === undefined);
  if (!v.expectOfAnswer(missing.length === 0, 'headers.rate-limit-present', exchange, () => `${where} lacks ${missing.join(', ')}, which the spec requires on this answer: the contract puts the three rate-limit headers on every response and Retry-After on every 429.`, { kind: `missing ${missing.join()}` })) return;
  const { limit, remaining, reset } = readRateHeaders(headers);
  const malformed = names.filter((_, i) => [limit, remaining, reset][i] === undefined);
  if (!v.expectOfAnswer(malformed.length === 0, 'headers.rate-limit-integers', exchange, () => `${where} has ${malformed.map((n) => `${n}: ${JSON.stringify(headers[n])}`).join(', ')}; each must be a non-negative integer.`, { kind: `malformed ${malformed.join()}` })) return;
  v.expectOfAnswer(remaining! <= limit!, 'headers.remaining-within-limit', exchange, () => `${where} says X-RateLimit-Remaining ${remaining} above X-RateLimit-Limit ${limit}.`, { kind: 'remaining-above-limit' });
  // A Unix time on the deployment's clock, which its Date shows (RFC 9110, 6.6.1): plausible by
  // either clock, the answer's Date or the suite's. In the past only before the earlier of the two,
  // so a server clock a little behind the suite's is not taken for a Reset in the past, and a
  // request counted just before a window's end may be answered, and dated, just after it; far
  // only beyond the later, so a deployment whose clock is moved (a mock past getPet's removal)
  // is read on its own clock, as a client reading Reset against Date reads it.
  const serverDate = Date.parse(headers.date ?? '');
  const dated = !Number.isNaN(serverDate);
  const earliestS = (dated ? Math.min(serverDate, exchange.sentAt) : exchange.sentAt) / 1000;
  const latestS = (dated ? Math.max(serverDate, exchange.sentAt) : exchange.sentAt) / 1000;
  const skew = dated ? 1 : SKEW_S;
  if (reset! < earliestS - skew) {
    const hint = reset! < 1_000_000_000 ? ' It looks like seconds until the reset; the contract asks for a Unix timestamp.' : '';
    v.fail('headers.reset-plausible', exchange, `${where} says X-RateLimit-Reset ${reset}, which is in the past.${hint}`, { kind: 'reset-past' });
  } else {
    v.expectOfAnswer(reset! <= latestS + LONGEST_S, 'headers.reset-plausible', exchange, () => `${where} says X-RateLimit-Reset ${reset}, more than two days ahead${dated ? ` of its own Date (${headers.date})` : ''}: not a plausible Unix time in seconds (milliseconds?).`, { kind: 'reset-far' });
  }

  // Successful requests on the run's key, one after another: each spends one. A window that rolls
  // or slides may give some back, so only a run of answers that never count down within one window
  // (one Reset) fails: a sliding window whose Reset moves on frees one request for each it counts
  // when a client sends at a steady rate, and rightly stays where it was.
  if (exchange.bucket !== 'key') return;
  const countdown = state.countdown;
  if (exchange.response.status >= 200 && exchange.response.status < 300) {
    const before = countdown.previous;
    if (before && before.limit === limit && remaining === before.remaining && reset === before.reset) {
      if (countdown.flat.count === 0) countdown.flat.firstSeq = exchange.seq;
      countdown.flat.count++;
      const { count, firstSeq } = countdown.flat;
      v.expectOfAnswer(count < FLAT_RUN, 'headers.counts-down', exchange, () => `${where} says X-RateLimit-Remaining ${remaining}, and the ${FLAT_RUN} successful requests before it (from #${firstSeq}) never counted it down; each request spends one of the window's quota.`, { kind: 'not-decreasing' });
    } else {
      countdown.flat = { count: 0, firstSeq: 0 };
    }
    countdown.previous = { limit: limit!, remaining: remaining!, reset: reset! };
  } else if (exchange.response.status === 429) {
    countdown.previous = undefined;
    countdown.flat = { count: 0, firstSeq: 0 };
  }
}
