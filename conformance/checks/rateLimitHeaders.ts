import { findOperation } from '../../spec/loadSpec.ts';
import { requestLine, type Check, judgedAsOperation } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { readRateHeaders, retryAfterMs } from '../http/rateLimitState.ts';
import { allOperations } from './allOperations.ts';
import { isUnservedStoreOrders } from './unservedStoreOrders.ts';

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

export const rateLimitHeaders: Check = {
  id: 'rate-limit-headers',
  title: 'Rate-limit headers on every answer, well-formed',
  severity: 'high',
  description:
    'Every answer, whatever its status, carries X-RateLimit-Limit, -Remaining and -Reset as integers; ' +
    'Remaining is never above Limit; Reset is a Unix time in seconds, not in the past and at most two days ahead; ' +
    'every 429 carries a Retry-After (delay-seconds or an HTTP-date); and Remaining counts down as successful ' +
    'requests are made (eight in a row that leave it where it was fail).',
  operations: allOperations,
  phase: 'passive',
  async run(ctx, report) {
    let previous: Exchange | undefined;
    let flat: Exchange[] = [];
    for (const exchange of ctx.exchanges) {
      if (!judgedAsOperation(exchange)) continue;
      const { headers } = exchange.response;
      if (isUnservedStoreOrders(exchange)) {
        // Not served: what a deployment answers for an endpoint the contract only mentions is not judged.
        report.warn(exchange.operationId, `GET /store/orders answered ${exchange.response.status}, so its answers are not judged. The contract mentions this endpoint but shows nothing of it.`, exchange, 'store-unserved');
        continue;
      }
      const where = `${requestLine(exchange)} (${exchange.response.status})`;
      // What the spec requires of this answer: the rate-limit headers everywhere, Retry-After on a 429.
      const required = ctx.validators.requiredHeaders(findOperation(ctx.spec, exchange.operationId), exchange.response.status);
      const missing = required.filter((n) => headers[n] === undefined);
      if (!report.expectOfAnswer(missing.length === 0, exchange, `${where} lacks ${missing.join(', ')}, which the spec requires on this answer: the contract puts the three rate-limit headers on every response and Retry-After on every 429.`, `missing ${missing.join()}`)) continue;
      const { limit, remaining, reset } = readRateHeaders(headers);
      const malformed = names.filter((_, i) => [limit, remaining, reset][i] === undefined);
      if (!report.expectOfAnswer(malformed.length === 0, exchange, `${where} has ${malformed.map((n) => `${n}: ${JSON.stringify(headers[n])}`).join(', ')}; each must be a non-negative integer.`, `malformed ${malformed.join()}`)) continue;
      report.expectOfAnswer(remaining! <= limit!, exchange, `${where} says X-RateLimit-Remaining ${remaining} above X-RateLimit-Limit ${limit}.`, 'remaining-above-limit');
      // Judge Reset by the deployment's own clock (its Date header) when it sends one, so a server
      // clock a little behind the suite's is not taken for a Reset in the past.
      // Judged by the earlier of the two clocks (the answer's Date, the request's departure): a
      // request counted just before a window's end may be answered, and dated, just after it.
      const serverDate = Date.parse(headers.date ?? '');
      const sentS = Number.isNaN(serverDate) ? exchange.sentAt / 1000 : Math.min(serverDate, exchange.sentAt) / 1000;
      const skew = Number.isNaN(serverDate) ? SKEW_S : 1;
      if (reset! < sentS - skew) {
        const hint = reset! < 1_000_000_000 ? ' It looks like seconds until the reset; the contract asks for a Unix timestamp.' : '';
        report.fail(exchange.operationId, `${where} says X-RateLimit-Reset ${reset}, which is in the past.${hint}`, exchange, 'reset-past');
      } else {
        report.expectOfAnswer(reset! <= sentS + LONGEST_S, exchange, `${where} says X-RateLimit-Reset ${reset}, more than two days ahead: not a plausible Unix time in seconds (milliseconds?).`, 'reset-far');
      }

      if (headers['retry-after'] !== undefined) {
        const retry = headers['retry-after'];
        report.expectOfAnswer(retryAfterMs(retry, exchange.sentAt) !== undefined, exchange, `${where} has Retry-After ${JSON.stringify(retry)}, neither delay-seconds nor an HTTP-date (RFC 9110, 10.2.3).`, 'retry-after');
      }

      // Successful requests on the run's key, one after another: each spends one. A window that
      // rolls or slides may give some back, so only a run of answers that never count down fails.
      if (exchange.bucket !== 'key') continue;
      if (exchange.response.status >= 200 && exchange.response.status < 300) {
        const before = previous ? readRateHeaders(previous.response.headers) : undefined;
        if (before && before.limit === limit && remaining === before.remaining) {
          flat.push(exchange);
          report.expectOfAnswer(flat.length < FLAT_RUN, exchange, `${where} says X-RateLimit-Remaining ${remaining}, and the ${FLAT_RUN} successful requests before it (from #${flat[0]!.seq}) never counted it down; each request spends one of the window's quota.`, 'not-decreasing');
        } else {
          flat = [];
        }
        previous = exchange;
      } else if (exchange.response.status === 429) {
        previous = undefined;
        flat = [];
      }
    }
  },
};
