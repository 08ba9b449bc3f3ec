// The Date every answer carries (RFC 9110, 6.6.1), on the mock's clock: when a test moves that
// clock (past getPet's removal, to the end of a ban), Date moves with X-RateLimit-Reset,
// Retry-After, Sunset and every other time the mock gives, so a client reading times against
// Date reads them as the mock meant them. Nothing here needs Node.
import type { Clock } from '../state/clock.ts';

/** An instant as IMF-fixdate, the form a sender generates (RFC 9110, 5.6.7): "Thu, 05 Dec 2030 12:30:00 GMT". */
export const imfFixdate = (ms: number): string => new Date(ms).toUTCString();

/**
 * The Date field's text for `clock`'s now (or for an instant of it already read). The text changes
 * once a second, so it is made once per second of that clock (a frozen clock's, once), not per answer.
 */
export function dateFieldOf(clock: Pick<Clock, 'now'>): (now?: number) => string {
  let second = Number.NaN;
  let text = '';
  return (now = clock.now()) => {
    const at = Math.floor(now / 1000);
    if (at !== second) {
      second = at;
      text = imfFixdate(now);
    }
    return text;
  };
}
