import { requestLine, type Check } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { readRateHeaders } from '../http/rateLimitState.ts';
import { allOperations } from './allOperations.ts';

const names = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;
/** Without a Date header, the suite's clock is the reference: allow a minute of clock skew. */
const SKEW_S = 60;
/** The day window is the longest the contract gives; a ban may run past it, so allow two. */
const LONGEST_S = 2 * 86_400;

export const rateLimitHeaders: Check = {
  id: 'rate-limit-headers',
  title: 'Rate-limit headers on every answer, well-formed',
  severity: 'high',
  description:
    'Every answer, whatever its status, carries X-RateLimit-Limit, -Remaining and -Reset as integers; ' +
    'Remaining is never above Limit; Reset is a Unix time in seconds, not in the past and at most two days ahead; ' +
    'and within one window Remaining goes down from one successful request to the next.',
  operations: allOperations,
  phase: 'passive',
  async run(ctx, report) {
    let previous: Exchange | undefined;
    for (const exchange of ctx.exchanges) {
      const { headers } = exchange.response;
      const where = `${requestLine(exchange)} (${exchange.response.status})`;
      const missing = names.filter((n) => headers[n] === undefined);
      if (!report.expect(missing.length === 0, exchange, `${where} lacks ${missing.join(', ')}. The contract puts the three rate-limit headers on every response.`, `missing ${missing.join()}`)) continue;
      const { limit, remaining, reset } = readRateHeaders(headers);
      const malformed = names.filter((_, i) => [limit, remaining, reset][i] === undefined);
      if (!report.expect(malformed.length === 0, exchange, `${where} has ${malformed.map((n) => `${n}: ${JSON.stringify(headers[n])}`).join(', ')}; each must be a non-negative integer.`, `malformed ${malformed.join()}`)) continue;
      report.expect(remaining! <= limit!, exchange, `${where} says X-RateLimit-Remaining ${remaining} above X-RateLimit-Limit ${limit}.`, 'remaining-above-limit');
      // Judge Reset by the deployment's own clock (its Date header) when it sends one, so a server
      // clock a little behind the suite's is not taken for a Reset in the past.
      const serverDate = Date.parse(headers.date ?? '');
      const sentS = Number.isNaN(serverDate) ? exchange.sentAt / 1000 : serverDate / 1000;
      const skew = Number.isNaN(serverDate) ? SKEW_S : 1;
      if (reset! < sentS - skew) {
        const hint = reset! < 1_000_000_000 ? ' It looks like seconds until the reset; the contract asks for a Unix timestamp.' : '';
        report.fail(exchange.operationId, `${where} says X-RateLimit-Reset ${reset}, which is in the past.${hint}`, exchange, 'reset-past');
      } else {
        report.expect(reset! <= sentS + LONGEST_S, exchange, `${where} says X-RateLimit-Reset ${reset}, more than two days ahead: not a plausible Unix time in seconds (milliseconds?).`, 'reset-far');
      }

      // Consecutive successful requests on the run's key, in one window: each spends one request.
      if (exchange.bucket !== 'key') continue;
      if (exchange.response.status >= 200 && exchange.response.status < 300) {
        if (previous) {
          const before = readRateHeaders(previous.response.headers);
          if (before.limit === limit && before.reset === reset && before.remaining !== undefined) {
            report.expect(remaining! < before.remaining, exchange, `${where} says X-RateLimit-Remaining ${remaining} after the previous successful request (#${previous.seq}) said ${before.remaining} in the same window; it must go down.`, 'not-decreasing');
          }
        }
        previous = exchange;
      } else if (exchange.response.status === 429) {
        previous = undefined;
      }
    }
  },
};
