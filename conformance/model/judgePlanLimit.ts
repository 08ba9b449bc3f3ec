// A key whose plan the run is told: the limit it is served under is its plan's row of the contract.
import type { Exchange } from '../http/exchange.ts';
import { isUnavailable } from '../http/pacedClient.ts';
import { readRateHeaders } from '../http/rateLimitState.ts';
import { contractPlanLimits, type KeyPlans } from './contractPlans.ts';
import { holds, type Judgement } from './judgement.ts';
import type { RequestView } from './requestView.ts';
import { answeredAt } from './judgeRate.ts';

const plainNumber = (n: number) => n.toLocaleString('en-US');

/**
 * "Rate limits by plan" and "X-RateLimit-Limit | The limit in force": an answer to a key of a known
 * plan (not Enterprise, whose limits are custom) announces that plan's requests per minute or per
 * day, whichever window it speaks of. Only answers the key was admitted on are judged: a 401 or 403
 * may speak of another bucket (the address's), and a 5xx of no limiter at all.
 */
export function judgePlanLimit(exchange: Exchange, view: RequestView, plans: KeyPlans | undefined): Judgement[] {
  if (view.credential.kind !== 'key' || plans === undefined) return [];
  const plan = plans[view.credential.key];
  const row = plan === undefined ? undefined : contractPlanLimits[plan];
  const status = exchange.response.status;
  // A 429 may be the temporary ban the contract allows (Authentication 4), whose limit in force may be none.
  if (row === undefined || status === 401 || status === 403 || status === 429 || isUnavailable(status)) return [];
  const { limit, reset } = readRateHeaders(exchange.response.headers);
  if (limit === undefined) return [];
  const option = view.credential.key === 'key' ? '--api-key-plan' : '--api-key-2-plan';
  const planName = `the ${plan![0]!.toUpperCase()}${plan!.slice(1)} plan (${option} ${plan})`;
  const where = `#${exchange.seq} ${view.method} ${exchange.path} (${status})`;
  const out = [
    holds(limit === row.perMinute || limit === row.perDay, 'rate.plan-limit', view.operation ?? 'unlisted', exchange, () =>
      `${where} says X-RateLimit-Limit ${limit} for a key of ${planName}, whose limits are ${plainNumber(row.perMinute)} requests a minute and ${plainNumber(row.perDay)} a day ("Rate limits by plan"). Serve the key under its plan's limits, or give the run the key's real plan.`),
  ];
  // The minute's limit in force on an answer that served the key (a refusal may be a ban, whose end
  // is its own): its window is a minute, so it resets within a minute of the answer, by its Date.
  // (Business's 1,000 a minute is Free's 1,000 a day: the plan says which.)
  // From the latest the limiter can have decided: a Date may be stamped when the request arrived,
  // and the answer took its time to come.
  const toReset = reset === undefined ? undefined : reset * 1000 - answeredAt(exchange) - exchange.response.durationMs;
  if (limit === row.perMinute && limit !== row.perDay && status >= 200 && status < 300 && toReset !== undefined) {
    out.push(holds(toReset <= MINUTE_MS + CLOCKS_MS, 'rate.plan-limit', view.operation ?? 'unlisted', exchange, () =>
      `${where} says X-RateLimit-Limit ${limit}, ${planName}'s requests a minute, with X-RateLimit-Reset ${reset}, ${Math.round(toReset! / 1000)} s after its Date: a minute's limit resets within a minute. Give the Unix time the minute's window ends.`));
  }
  return out;
}

const MINUTE_MS = 60_000;
/**
 * How far apart the clock that writes Date and the limiter's may be: a minute. They may be two
 * machines' (an app host's, a store's TIME), each "the best available approximation" (RFC 9110,
 * 5.6.7); a Reset in the wrong zone is hours off.
 */
const CLOCKS_MS = 60_000;
