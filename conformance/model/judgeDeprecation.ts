// Declared facts: where a deployment states deprecation, it states the contract's.
import type { Exchange } from '../http/exchange.ts';
import { broken, held, holds, questionable, type Judgement } from './judgement.ts';
import { httpDateFault } from './http/judgeValidatorFields.ts';
import type { RequestView } from './requestView.ts';
import { answeredAt } from './judgeRate.ts';
import { isUnavailable } from '../http/pacedClient.ts';

/** "to be removed on 5 December 2030": any instant of that UTC day. */
const removalDay = Date.UTC(2030, 11, 5);
const dayMs = 86_400_000;
const hourMs = 3_600_000;

/** RFC 9745, 2.1: a structured-field Date (RFC 9651, 3.3.7): `@` and an sf-integer of at most 15 digits. */
const sfDate = /^@-?\d{1,15}$/;

/** A Deprecation header's instant: `@<unix>` (RFC 9745), an HTTP-date (its drafts), or `true` (now). */
function deprecationAt(value: string): number | 'true' | undefined {
  const trimmed = value.trim();
  if (sfDate.test(trimmed)) return Number(trimmed.slice(1)) * 1000;
  if (/^true$/i.test(trimmed)) return 'true';
  const date = Date.parse(trimmed);
  return /[a-z]/i.test(trimmed) && !Number.isNaN(date) ? date : undefined;
}

/**
 * The fields' grammar, wherever they are sent: Deprecation an sf-date (RFC 9745, 2.1; `true` and an
 * HTTP-date, its drafts' forms, are warnings), Sunset an IMF-fixdate (RFC 8594, 3).
 */
function judgeGrammar(exchange: Exchange, view: RequestView): Judgement[] {
  const { rawHeaders } = exchange.response;
  const op = view.operation ?? 'unlisted';
  const where = `#${exchange.seq} ${view.method} ${exchange.path} (${exchange.response.status})`;
  const out: Judgement[] = [];
  const deprecations = rawHeaders.filter(([n]) => n === 'deprecation').map(([, v]) => v);
  const sunsets = rawHeaders.filter(([n]) => n === 'sunset').map(([, v]) => v);
  if (deprecations.length + sunsets.length === 0) return out;
  if (deprecations.length > 1 || sunsets.length > 1) {
    return [broken('deprecation.field-grammar', op, exchange, `${where} sends ${deprecations.length > 1 ? `Deprecation ${deprecations.length} times` : `Sunset ${sunsets.length} times`}; each is one date (RFC 9110, 5.3). Send it once.`)];
  }
  const deprecation = deprecations[0];
  if (deprecation !== undefined) {
    if (sfDate.test(deprecation)) out.push(held('deprecation.field-grammar', op, exchange));
    else if (deprecationAt(deprecation) !== undefined) out.push(questionable('deprecation.field-grammar', op, exchange, `${where} says Deprecation: ${deprecation}, a form of the drafts before RFC 9745; the header's value is a structured-field date, @ and the Unix seconds (Deprecation: @1688169599), which clients of RFC 9745 read.`));
    else out.push(broken('deprecation.field-grammar', op, exchange, `${where} says Deprecation: ${JSON.stringify(deprecation)}, no date; it is @ and the Unix seconds of the deprecation (RFC 9745, 2.1), e.g. Deprecation: @1688169599.`));
  }
  const sunset = sunsets[0];
  if (sunset !== undefined) {
    const fault = httpDateFault(sunset);
    out.push(holds(fault === undefined, 'deprecation.field-grammar', op, exchange, () => `${where} says Sunset: ${JSON.stringify(sunset)}, ${fault}; Sunset is an HTTP-date (RFC 8594, 3), e.g. Sunset: Thu, 05 Dec 2030 00:00:00 GMT.`));
  }
  // RFC 9745, 4: "The timestamp given in the Sunset HTTP header field MUST NOT be earlier than the
  // one given in the Deprecation header field." Judged where both give an instant.
  const deprecatedAt = deprecation === undefined ? undefined : deprecationAt(deprecation);
  const sunsetAt = sunset === undefined ? Number.NaN : Date.parse(sunset);
  if (typeof deprecatedAt === 'number' && !Number.isNaN(sunsetAt)) {
    out.push(holds(sunsetAt >= deprecatedAt, 'deprecation.sunset-not-before', op, exchange, () => `${where} says Deprecation: ${deprecation} (${new Date(deprecatedAt).toISOString()}) but Sunset: ${sunset}, earlier; the removal cannot come before the deprecation (RFC 9745, 4). Send a Sunset at or after the Deprecation date.`));
  }
  return out;
}

export function judgeDeprecation(exchange: Exchange, view: RequestView): Judgement[] {
  if (isUnavailable(exchange.response.status)) return [];
  return [...judgeGrammar(exchange, view), ...judgeDeclaredFacts(exchange, view)];
}

/**
 * The operations the contract lists and calls current: "The last operation is deprecated" speaks of
 * its three, listPets being getPet's replacement. GET /store/orders is only mentioned ("Other
 * endpoints (for example the store-orders listing): not shown"), so nothing is known of its
 * deprecation; there, as on any request the spec does not list, only the fields' grammar is judged.
 */
const current = new Set(['listPets', 'createPet']);

/** What the fields state, held to the contract: only getPet is deprecated, to be removed on 5 December 2030. */
function judgeDeclaredFacts(exchange: Exchange, view: RequestView): Judgement[] {
  const op = view.operation;
  if (op === undefined || exchange.response.status === 429) return [];
  if (op !== 'getPet' && !current.has(op)) return [];
  const { headers } = exchange.response;
  const where = `#${exchange.seq} ${view.method} ${exchange.path} (${exchange.response.status})`;
  const sunset = headers.sunset;
  const deprecation = headers.deprecation;
  if (op !== 'getPet') {
    const stated = [sunset !== undefined ? `Sunset: ${sunset}` : '', deprecation !== undefined ? `Deprecation: ${deprecation}` : ''].filter(Boolean);
    return [holds(stated.length === 0, 'deprecation.only-get-pet', op, exchange, () => `${where} declares ${stated.join(' and ')}, but ${op} is not deprecated: only getPet is.`)];
  }
  const out: Judgement[] = [];
  if (sunset !== undefined) {
    const at = Date.parse(sunset);
    // "5 December 2030" in some zone: from its start east of UTC (+14 h) to its end west of it (-12 h).
    out.push(holds(!Number.isNaN(at) && at >= removalDay - 14 * hourMs && at < removalDay + dayMs + 12 * hourMs, 'deprecation.sunset-date', op, exchange, () => `${where} says Sunset: ${sunset}; getPet is to be removed on 5 December 2030.`));
  }
  if (deprecation !== undefined) {
    const at = deprecationAt(deprecation);
    // "This operation is deprecated": the instant it took effect is past (a day of slack for clocks).
    const now = answeredAt(exchange);
    out.push(holds(at === 'true' || (at !== undefined && at <= now + dayMs && at < removalDay), 'deprecation.sunset-date', op, exchange, () => `${where} says Deprecation: ${deprecation}, which says getPet is not deprecated yet; the contract says it is deprecated now (an instant in the past, as @<unix> per RFC 9745), and removed on 5 December 2030.`));
  }
  return out;
}
