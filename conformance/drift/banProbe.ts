// The ban probe (`--probe-ban`): the contract's Authentication 4, "Repeated requests after a 429
// response may lead to a temporary ban of the API key". It spends the side's key's quota to a 429,
// keeps sending, and watches for the answer that shows a ban. The key stays banned for the ban's
// length afterwards: the probe runs only when asked for, and last.
//
// How a ban is recognised, among the refused answers in a row after the first 429 (an answer that
// is served starts the count again: the window turned, that spell ended without a ban):
//  - another status than 429 (a 401 or 403 for the banned key), or
//  - another Error `code` than the first 429's, or
//  - a Retry-After that jumps: over 2 s more than the previous refusal's. A spent window's
//    Retry-After only counts down to the same reset; a ban sets a new, later deadline. (2 s: an
//    HTTP-date has whole seconds, and is read against the answer's own Date or the side's clock.)
// A ban whose answer shows none of these (the same code, its length within the window) cannot be
// told from a spent window, and is reported as no ban seen. The contract says "may": a deployment
// that bans no key keeps it, and that is what "no ban observed" means.
import type { TransportResponse } from '../http/transport.ts';
import { errorCodeOfText } from '../model/errorBody.ts';
import { retryAfterMs } from '../http/rateLimitState.ts';
import { dateOr } from '../model/judgeRate.ts';

/** The most requests the ban probe sends to a side unless told otherwise: a Business key's minute and a ban's worth after it. */
export const defaultProbeBanMaxRequests = 2000;

/** Over this many seconds more than the previous refusal's Retry-After is a jump: a ban's new deadline. */
const retryAfterJump = 2;

export type BanOutcome =
  /** The ban showed: at the `threshold`-th refused answer in a row, the first 429 included. */
  | { kind: 'banned'; threshold: number; seconds: number | undefined; answer: TransportResponse; firstRefusal: TransportResponse; how: string; sent: number }
  /** 429s came, and no answer showed a ban before the cap. */
  | { kind: 'no-ban'; refused: number; firstRefusal: TransportResponse; sent: number }
  /** No 429 within the cap, or the side answered what the probe cannot read (no answer, a 5xx, a 401 before any 429). */
  | { kind: 'not-observed'; reason: string; sent: number };

/** Seconds a refusal asks a client to wait: delay-seconds, or an HTTP-date less the answer's Date (else `now`). */
export function retryAfterSeconds(answer: TransportResponse, now: number): number | undefined {
  const ms = retryAfterMs(answer.headers['retry-after'], dateOr(answer.headers, now));
  return ms === undefined ? undefined : Math.round(ms / 1000);
}

/** Why this refusal shows a ban, against the spell's first 429 and the refusal before it; undefined when it does not. */
export function banShown(answer: TransportResponse, first: TransportResponse, previous: TransportResponse, now: number): string | undefined {
  if (answer.status !== 429) return `its status, ${answer.status} where the spent quota got 429`;
  const [code, firstCode] = [errorCodeOfText(answer.body), errorCodeOfText(first.body)];
  if (code !== firstCode) return `its code, ${code ?? 'none'} where the spent quota got ${firstCode ?? 'none'}`;
  const [seconds, before] = [retryAfterSeconds(answer, now), retryAfterSeconds(previous, now)];
  if (seconds !== undefined && before !== undefined && seconds > before + retryAfterJump) return `its Retry-After, which jumped from ${before} s to ${seconds} s`;
  return undefined;
}

/**
 * Sends `send()` until a ban shows, at most `max` times: the quota spent to a 429, then refusals
 * until one differs from a spent window's (`banShown`). `now` reads the side's clock.
 */
export async function watchForBan(send: () => Promise<TransportResponse | undefined>, max: number, now: () => number): Promise<BanOutcome> {
  let first: TransportResponse | undefined;
  let previous: TransportResponse | undefined;
  let refused = 0;
  for (let sent = 1; sent <= max; sent++) {
    const answer = await send();
    if (!answer) return { kind: 'not-observed', reason: `request ${sent} of the ban probe got no answer`, sent };
    if (answer.status >= 500) return { kind: 'not-observed', reason: `request ${sent} of the ban probe got ${answer.status}`, sent };
    if (answer.status < 400) {
      // Served: the window turned (or the quota was not spent yet). A spell starts again at the next 429.
      [first, previous, refused] = [undefined, undefined, 0];
      continue;
    }
    if (!first || !previous) {
      if (answer.status !== 429) return { kind: 'not-observed', reason: `request ${sent} of the ban probe got ${answer.status} before any 429: its key was refused`, sent };
      [first, previous, refused] = [answer, answer, 1];
      continue;
    }
    refused++;
    const how = banShown(answer, first, previous, now());
    if (how) return { kind: 'banned', threshold: refused, seconds: retryAfterSeconds(answer, now()), answer, firstRefusal: first, how, sent };
    previous = answer;
  }
  return first ? { kind: 'no-ban', refused, firstRefusal: first, sent: max } : { kind: 'not-observed', reason: `no 429 within the probe's ${max} requests: the key's quota is larger (raise --probe-ban-max-requests)`, sent: max };
}

const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;

/** The ban a side showed, as a profile writes it (`ban`), in a report's words; undefined when not observed. */
export function banChoice(outcome: BanOutcome): { value: { threshold: number; seconds?: number } | null; shown: string } | undefined {
  if (outcome.kind === 'not-observed') return undefined;
  if (outcome.kind === 'no-ban') return { value: null, shown: `no ban observed: ${outcome.refused} refused requests in a row after the quota was spent, up to the probe's cap` };
  const { threshold, seconds, how } = outcome;
  return {
    value: { threshold, ...(seconds !== undefined && seconds >= 1 ? { seconds } : {}) },
    shown: `banned at the ${ordinal(threshold)} refused request in a row (${threshold - 1} after the first 429)${seconds !== undefined ? `, for ${seconds} s` : ''}, told by ${how}`,
  };
}
