// The RateLimit-Policy and RateLimit fields of the IETF httpapi draft (draft-ietf-httpapi-ratelimit-headers-11),
// judged wherever a deployment sends them: the contract names only X-RateLimit-*, so a deployment
// without the draft's fields is judged on nothing here; one that sends them must send them well
// formed, and must not say two different counts of what remains of one window.
import type { Exchange } from '../../http/exchange.ts';
import { readRateHeaders } from '../../http/rateLimitState.ts';
import { broken, held, questionable, type Judgement } from '../judgement.ts';
import { answeredAt } from '../judgeRate.ts';
import type { RequestView } from '../requestView.ts';
import { parseStructuredList, type BareItem, type StructuredItem } from './structuredList.ts';

/** How far apart the instant `t` gives and X-RateLimit-Reset may be, in seconds: Date's whole seconds, and transit. */
const resetSlackSeconds = 5;

const isCount = (item: BareItem | undefined) => item?.type === 'integer' && item.value >= 0;
const shown = (item: BareItem) => (item.type === 'string' ? JSON.stringify(item.value) : String(item.value));

/** Why a policy item breaks the draft's grammar (3.1), or undefined. */
function policyFault(item: StructuredItem): string | undefined {
  if (item.value.type !== 'string') return `the policy ${shown(item.value)} is not a String but ${item.value.type === 'integer' ? 'an' : 'a'} ${item.value.type} (3: "The Item[SF] value MUST be a String[SF]")`;
  const { q, w, qu, pk } = Object.fromEntries(item.params) as Record<string, BareItem | undefined>;
  if (!isCount(q)) return `the policy "${item.value.value}" has ${q === undefined ? 'no q' : `q=${shown(q)}`}; q is REQUIRED, a non-negative Integer (3.1.1)`;
  if (w !== undefined && !(w.type === 'integer' && w.value > 0)) return `the policy "${item.value.value}" has w=${shown(w)}; w is a non-zero, non-negative Integer of seconds (3.1.3)`;
  if (qu !== undefined && qu.type !== 'string') return `the policy "${item.value.value}" has qu=${shown(qu)}; qu is a String (3.1.2)`;
  if (pk !== undefined && pk.type !== 'byte-sequence') return `the policy "${item.value.value}" has pk=${shown(pk)}; pk is a Byte Sequence (3.1.4)`;
  return undefined;
}

/** Why a service-limit item breaks the draft's grammar (4.1), or undefined. */
function limitFault(item: StructuredItem): string | undefined {
  if (item.value.type !== 'string' && item.value.type !== 'token') return `the item ${shown(item.value)} is not a String but ${item.value.type === 'integer' ? 'an' : 'a'} ${item.value.type}; it names a quota policy (4.1)`;
  const { r, t, pk } = Object.fromEntries(item.params) as Record<string, BareItem | undefined>;
  if (!isCount(r)) return `the item "${item.value.value}" has ${r === undefined ? 'no r' : `r=${shown(r)}`}; r is REQUIRED, a non-negative Integer (4.1.1)`;
  if (t !== undefined && !isCount(t)) return `the item "${item.value.value}" has t=${shown(t)}; t is a non-negative Integer of seconds (4.1.2)`;
  if (pk !== undefined && pk.type !== 'byte-sequence') return `the item "${item.value.value}" has pk=${shown(pk)}; pk is a Byte Sequence (4.1.3)`;
  return undefined;
}

export function judgeDraftRateLimit(exchange: Exchange, view: RequestView): Judgement[] {
  const lines = (name: string) => exchange.response.rawHeaders.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
  const policyLines = lines('ratelimit-policy');
  const limitLines = lines('ratelimit');
  if (policyLines.length + limitLines.length === 0) return [];
  const op = view.operation ?? 'unlisted';
  const where = `#${exchange.seq} ${view.method} ${exchange.path} (${exchange.response.status})`;
  const out: Judgement[] = [];
  // Several field lines are one list (RFC 9651, 4.2; the draft, 3 and 4).
  const read = (name: string, field: string[], fault: (item: StructuredItem) => string | undefined) => {
    if (field.length === 0) return undefined;
    const joined = field.join(', ');
    const parsed = parseStructuredList(joined);
    const why = 'fault' in parsed ? parsed.fault : parsed.items.length === 0 ? 'an empty list' : parsed.items.map(fault).find((f) => f !== undefined);
    if (why !== undefined) {
      out.push(broken('ratelimit-draft.syntax', op, exchange, `${where} says ${name}: ${joined}, which is no ${name} of draft-ietf-httpapi-ratelimit-headers-11: ${why}. Send it as the draft writes it, e.g. ${name === 'RateLimit' ? '"minute";r=59;t=30' : '"minute";q=60;w=60, "day";q=1000;w=86400'}, or not at all.`));
      return undefined;
    }
    out.push(held('ratelimit-draft.syntax', op, exchange));
    return (parsed as { items: StructuredItem[] }).items;
  };
  const policies = read('RateLimit-Policy', policyLines, policyFault);
  const limits = read('RateLimit', limitLines, limitFault);
  const contract = readRateHeaders(exchange.response.headers);
  if (!limits || !policies || contract.limit === undefined || contract.remaining === undefined) return out;

  // The service limit of the window X-RateLimit-* describe: the one whose policy's quota is X-RateLimit-Limit.
  const quotaOf = new Map(policies.map((p) => [p.value.value as string, (p.params.get('q') as { value: number }).value]));
  const same = limits.filter((l) => quotaOf.get(String(l.value.value)) === contract.limit);
  if (same.length === 0) {
    out.push(questionable('ratelimit-draft.agrees', op, exchange, `${where} says X-RateLimit-Limit: ${contract.limit}, but no service limit in RateLimit: ${limitLines.join(', ')} belongs to a policy whose quota (q) is ${contract.limit} (RateLimit-Policy: ${policyLines.join(', ')}); a client reading either cannot tell which window the other describes. Give the window X-RateLimit-* describe a policy with q=${contract.limit}.`));
    return out;
  }
  for (const item of same) {
    const r = (item.params.get('r') as { value: number }).value;
    if (r !== contract.remaining) {
      out.push(broken('ratelimit-draft.agrees', op, exchange, `${where} says X-RateLimit-Remaining: ${contract.remaining} and RateLimit: ${limitLines.join(', ')}, r=${r} for the policy "${String(item.value.value)}" of the same quota (${contract.limit}): two different counts of what remains of one window. Send one count in both.`));
      continue;
    }
    const t = item.params.get('t');
    const apart = t === undefined || contract.reset === undefined ? 0 : Math.abs(Math.floor(answeredAt(exchange) / 1000) + (t.value as number) - contract.reset);
    if (apart > resetSlackSeconds) {
      out.push(questionable('ratelimit-draft.agrees', op, exchange, `${where} says X-RateLimit-Reset: ${contract.reset} but RateLimit t=${String(t!.value)} for the same window, ${apart} s away from it by the answer's Date; the draft lets t differ (4.1.2), but a client reading both is told two resets. Send t as the seconds until X-RateLimit-Reset.`));
    } else out.push(held('ratelimit-draft.agrees', op, exchange));
  }
  return out;
}
