// What an answer to a request without a valid key shows of the limits such requests are counted
// at: X-RateLimit-Limit is "the limit in force", and X-RateLimit-Reset the Unix time it resets
// (the contract's Limits). The contract's plans count per minute and per day, so a window that
// resets within two minutes is taken as the minute's, one that resets later as the day's.
import type { TransportResponse } from '../http/transport.ts';
import { dateOr } from '../model/judgeRate.ts';

/** The keyless limit a side showed, as a profile writes it (its `keylessLimit`). */
export type KeylessWindow = { perMinute: number } | { perDay: number };

/** A reset further than this from the answer is the day's window, not the minute's. */
const minuteWindowReach = 120;

/**
 * The window an answer shows, and how: undefined when its X-RateLimit-Limit is not a whole number.
 * `now` is the side's clock (ms), used when the answer has no readable Date field (RFC 9110, 6.6.1).
 */
export function keylessWindow(answer: TransportResponse, now: number): { value: KeylessWindow; shown: string } | undefined {
  const limit = answer.headers['x-ratelimit-limit'];
  if (limit === undefined || !/^\d+$/.test(limit.trim())) return undefined;
  const value = Number(limit);
  const reset = answer.headers['x-ratelimit-reset'];
  const at = dateOr(answer.headers, now);
  if (reset === undefined || !/^\d+$/.test(reset.trim())) return { value: { perMinute: value }, shown: `X-RateLimit-Limit: ${limit}, taken as per minute (no X-RateLimit-Reset to tell the window)` };
  const inSeconds = Number(reset) - Math.floor(at / 1000);
  return inSeconds > minuteWindowReach
    ? { value: { perDay: value }, shown: `X-RateLimit-Limit: ${limit} of the day (X-RateLimit-Reset ${inSeconds} s away)` }
    : { value: { perMinute: value }, shown: `X-RateLimit-Limit: ${limit} a minute` };
}
