// The fields that date and tag an answer: Date (RFC 9110, 6.6.1), Last-Modified (8.8.2) and
// ETag (8.8.3), each one value of its grammar, and Last-Modified never after Date.
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
  return [holds(fault === undefined, 'http.date', answer.op, exchange, () => `${where} has Date ${JSON.stringify(value)}: ${fault}.`)];
}

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
