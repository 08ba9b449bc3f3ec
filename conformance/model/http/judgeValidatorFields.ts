// The fields that date and tag an answer: Date (RFC 9110, 6.6.1), Last-Modified (8.8.2) and
// ETag (8.8.3), each one value of its grammar, and Last-Modified never after Date.
import { readRateHeaders } from '../../http/rateLimitState.ts';
import { broken, held, holds, questionable, type Judgement } from '../judgement.ts';
import { sentTwice, type Answer } from './answerFields.ts';
import { parseEntityTag } from './entityTag.ts';
import { imfFixdate, parseHttpDate } from './httpDate.ts';

/** Why an HTTP-date field is not the IMF-fixdate a sender must generate (5.6.7), or undefined. */
export function httpDateFault(value: string): string | undefined {
  const date = parseHttpDate(value);
  if (!date) return 'not an HTTP-date (IMF-fixdate is "Sun, 06 Nov 1994 08:49:37 GMT": the day-name of that date, two-digit day, GMT)';
  if (date.form !== 'imf') return `an obsolete ${date.form === 'rfc850' ? 'RFC 850' : 'asctime'} date, which recipients read but a sender must not generate (IMF-fixdate: ${imfFixdate(date.at)})`;
  return undefined;
}

function judgeDate(answer: Answer): Judgement[] {
  const value = answer.field('date');
  const { exchange, where, status } = answer;
  if (value === undefined) {
    // 6.6.1: optional on 1xx and 5xx. Elsewhere a MUST of HTTP, but not the contract's: a warning.
    if (status < 200 || status >= 500) return [];
    return [questionable('http.date', answer.op, exchange, `${where} has no Date; an origin server with a clock sends one on every 2xx, 3xx and 4xx (RFC 9110, 6.6.1), and caches and clients read times (Retry-After, X-RateLimit-Reset) against it.`)];
  }
  const twice = sentTwice(answer, 'http.date', 'Date');
  if (twice) return [twice];
  const fault = httpDateFault(value);
  if (fault) return [broken('http.date', answer.op, exchange, `${where} has Date ${JSON.stringify(value)}: ${fault}.`)];
  return [held('http.date', answer.op, exchange), ...judgeDateCurrent(answer, parseHttpDate(value)!.at)];
}

/**
 * How far apart two machines' clocks may be before a Date is not the time it was sent: five
 * minutes, the skew Kerberos tolerates by default (RFC 4120, 1.6) and more than any two machines
 * kept by NTP drift apart.
 */
export const clockSkewMs = 5 * 60_000;

/**
 * Date is when the answer was made (RFC 9110, 6.6.1), on "a reasonable approximation of the current
 * instant in Coordinated Universal Time" (5.6.7): between the request leaving and its answer
 * arriving, by the run's clock, give or take `clockSkewMs` and the second Date cannot show. An
 * answer a cache kept says how long with Age (RFC 9111, 5.1). A deployment whose whole clock is set
 * elsewhere (a staging server moved to a later date to try the removal of getPet) gives a Date and
 * an X-RateLimit-Reset that agree with each other: it is judged on its own time. What fails is a Date
 * off the run's clock while the same answer's X-RateLimit-Reset, a minute window's end, keeps the
 * run's time: a clock set to local time and labelled GMT, or one that no longer keeps time beside
 * the limiter's, which shifts every time a client reads against Date.
 */
function judgeDateCurrent(answer: Answer, at: number): Judgement[] {
  const { exchange, where } = answer;
  const ageText = answer.field('age');
  const age = ageText !== undefined && /^\s*\d+\s*$/.test(ageText) ? Number(ageText) * 1000 : 0;
  const sent = exchange.sentAt;
  const received = sent + exchange.response.durationMs;
  const before = sent - (at + age) - 1000;
  const after = at - received;
  const off = before > clockSkewMs ? `${minutes(before + 1000)} before the request was sent${age > 0 ? ` (its Age ${ageText} counted)` : ''}` : after > clockSkewMs ? `${minutes(after)} after the answer arrived` : undefined;
  if (off === undefined) return [held('http.date-current', answer.op, exchange)];
  // The limiter's clock: a Reset within a minute of the run's clock (a per-minute window, the
  // contract's shortest, ending) that is not within a minute of the answer's Date. A day's window
  // in force, or the run's own clock set wrong, tells nothing.
  const resetS = readRateHeaders(exchange.response.headers).reset;
  if (resetS === undefined) return [];
  const reset = resetS * 1000;
  const withinAMinute = (from: number) => reset - from >= -2000 && reset - from <= 62_000;
  if (!withinAMinute(sent) || withinAMinute(at)) return [];
  return [broken('http.date-current', answer.op, exchange, `${where} has Date ${JSON.stringify(answer.field('date'))}, ${off} (${new Date(sent).toUTCString()} by the run's clock), while its X-RateLimit-Reset ${reset / 1000} keeps the run's time: Date is when the answer was made (RFC 9110, 6.6.1 and 5.6.7), and a client reads Retry-After and the reset against it. Keep the server's clock on UTC, synchronised (NTP), and write Date from it.`)];
}

const minutes = (ms: number) => (ms >= 2 * 3_600_000 ? `${(ms / 3_600_000).toFixed(1)} hours` : `${Math.round(ms / 60_000)} minutes`);

function judgeLastModified(answer: Answer): Judgement[] {
  const value = answer.field('last-modified');
  if (value === undefined) return [];
  const { exchange, where } = answer;
  const twice = sentTwice(answer, 'http.last-modified', 'Last-Modified');
  if (twice) return [twice];
  const fault = httpDateFault(value);
  if (fault) return [broken('http.last-modified', answer.op, exchange, `${where} has Last-Modified ${JSON.stringify(value)}: ${fault}.`)];
  const modified = parseHttpDate(value)!.at;
  const date = answer.lines('date').length === 1 ? parseHttpDate(answer.field('date')!) : undefined;
  if (!date) return [held('http.last-modified', answer.op, exchange)];
  return [holds(modified <= date.at, 'http.last-modified', answer.op, exchange, () => `${where} says Last-Modified ${value}, later than its own Date ${answer.field('date')}; a server must not claim a modification after the time it answers (RFC 9110, 8.8.2.1), and a client's If-Modified-Since with that date would never match.`)];
}

function judgeEtag(answer: Answer): Judgement[] {
  const value = answer.field('etag');
  if (value === undefined) return [];
  const twice = sentTwice(answer, 'http.etag', 'ETag');
  if (twice) return [twice];
  return [holds(parseEntityTag(value) !== undefined, 'http.etag', answer.op, answer.exchange, () => `${answer.where} has ETag ${JSON.stringify(value)}, not an entity-tag: it is a quoted string, W/ before it when weak ("abc", W/"abc"), without spaces, quotes or controls inside (RFC 9110, 8.8.3). A client echoes it in If-None-Match as it came, so a malformed tag never matches.`)];
}

export function judgeValidatorFields(answer: Answer): Judgement[] {
  return [...judgeDate(answer), ...judgeLastModified(answer), ...judgeEtag(answer)];
}
