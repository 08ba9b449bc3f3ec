// The RateLimit-Policy and RateLimit fields of the IETF httpapi draft (draft-ietf-httpapi-ratelimit-headers-11,
// May 2026), sent beside the contract's X-RateLimit-* when the mock runs with `ratelimitHeaders: 'draft'`.
import type { RateDecision } from './rateLimiter.ts';

/** Which fields tell a client its window: the contract's X-RateLimit-* only, or the draft's beside them. */
export type RateLimitHeaders = 'contract' | 'draft';

export const rateLimitHeadersChoices: readonly RateLimitHeaders[] = ['contract', 'draft'];

/** The draft's fields named in CORS's exposed headers when they are sent. */
export const draftExposedHeaders = ['RateLimit-Policy', 'RateLimit'];

/** The window the decision's X-RateLimit-* describe: the day's when its limit is the day's quota, else the minute's. */
export function windowOf(decision: RateDecision): 'minute' | 'day' {
  if (decision.window) return decision.window;
  return decision.quotas && decision.limit === decision.quotas.perDay && decision.quotas.perDay !== decision.quotas.perMinute ? 'day' : 'minute';
}

/**
 * The draft's fields for a decision, at `nowMs` on the mock's clock, saying what X-RateLimit-* say:
 * `RateLimit-Policy` lists both quotas the plan enforces (draft 3: a List of Strings, `q` the quota,
 * `w` the window in seconds), `RateLimit` the window that binds, the one X-RateLimit-* describe
 * (draft 4: `r` the available quota, X-RateLimit-Remaining; `t` the seconds until X-RateLimit-Reset,
 * which in a ban is the ban's end). A decision that does not say its quotas gets only `RateLimit`,
 * with the limit's policy.
 */
export function draftRateLimitFields(decision: RateDecision, nowMs: number): Record<string, string> {
  const window = windowOf(decision);
  const t = Math.max(0, decision.reset - Math.floor(nowMs / 1000));
  const fields: Record<string, string> = { ratelimit: `"${window}";r=${decision.remaining};t=${t}` };
  if (decision.quotas) fields['ratelimit-policy'] = `"minute";q=${decision.quotas.perMinute};w=60, "day";q=${decision.quotas.perDay};w=86400`;
  else fields['ratelimit-policy'] = `"${window}";q=${decision.limit};w=${window === 'day' ? 86400 : 60}`;
  return fields;
}
