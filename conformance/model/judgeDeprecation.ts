// Declared facts: where a deployment states deprecation, it states the contract's.
import type { Exchange } from '../http/exchange.ts';
import { holds, type Judgement } from './judgement.ts';
import type { RequestView } from './requestView.ts';
import { answeredAt } from './judgeRate.ts';
import { isUnavailable } from '../http/pacedClient.ts';

/** "to be removed on 5 December 2030": any instant of that UTC day. */
const removalDay = Date.UTC(2030, 11, 5);
const dayMs = 86_400_000;
const hourMs = 3_600_000;

/** A Deprecation header's instant: `@<unix>` (RFC 9745), an HTTP-date (its drafts), or `true` (now). */
function deprecationAt(value: string): number | 'true' | undefined {
  const trimmed = value.trim();
  if (/^@-?\d+$/.test(trimmed)) return Number(trimmed.slice(1)) * 1000;
  if (/^true$/i.test(trimmed)) return 'true';
  const date = Date.parse(trimmed);
  return /[a-z]/i.test(trimmed) && !Number.isNaN(date) ? date : undefined;
}

export function judgeDeprecation(exchange: Exchange, view: RequestView): Judgement[] {
  const op = view.operation;
  if (op === undefined || exchange.response.status === 429 || isUnavailable(exchange.response.status)) return [];
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
