// Grades the clients the mock served by how they behave over time, against what the contract
// expects of a client (issue 19): the mock sees every request, its timing and its own rate-limit
// decisions. Pure: the same observations give the same report, in whatever order they come, so a
// frozen clock gives one verdict on every host.
import type { ClientObservation } from './clientObservation.ts';
import { retryChains, retryWindowMs } from './retryChains.ts';
import { inSendingOrder, sentAt, told } from './told.ts';
import { deprecatedUse, type DeprecatedOperation, type DeprecatedUse } from './deprecatedUse.ts';

export type { DeprecatedOperation, DeprecatedUse } from './deprecatedUse.ts';

export interface ClientFinding {
  rule: ClientRule;
  level: 'failure' | 'warning';
  /** The contract's sentence the rule rests on. */
  quote: string;
  /** The client, as reports name it: a redacted key or an address. */
  client: string;
  message: string;
  /** What the client should do instead. */
  instead: string;
  /** The requests the finding rests on (at most ten), oldest first. */
  requests: { time: string; method: string; path: string; status: number }[];
}

export interface ClientReport {
  /** False only when there is a failure: warnings alone pass. */
  passed: boolean;
  findings: ClientFinding[];
  /**
   * Each client's use of deprecated operations (getPet), one entry per client and operation, with
   * the days left until the removal; empty when no client used one. With `?key=`, that client's.
   */
  deprecatedUse: DeprecatedUse[];
}

/** What the report judges use of deprecated operations by: which they are, and the mock's clock now. */
export interface DeprecationContext {
  deprecated: readonly DeprecatedOperation[];
  /** Unix ms on the mock's clock: when the report is made. */
  now: number;
}

export type ClientRule =
  | 'client.retry-after'
  | 'client.backoff'
  | 'client.banned'
  | 'client.quota'
  | 'client.limit-range'
  | 'client.new-pet'
  | 'client.bearer'
  | 'client.key-in-header'
  | 'client.post-retry'
  | 'client.deprecated';

const quotes: Record<ClientRule, string> = {
  'client.retry-after': '429 | Rate limit exceeded. The client should back off and retry after the time given in the `Retry-After` header.',
  'client.backoff': 'Requests over the limit receive 429 Too Many Requests. Clients are expected to use exponential backoff.',
  'client.banned': 'Repeated requests after a 429 response may lead to a temporary ban of the API key.',
  'client.quota': 'X-RateLimit-Remaining | Requests remaining in the current window. … Requests over the limit receive 429 Too Many Requests.',
  'client.limit-range': 'limit | integer | no | Minimum 1, maximum 100, default 20. Maximum number of animals returned.',
  'client.new-pet': 'Adds an animal. The request body is required, is `application/json`, and has the shape NewPet (`name` and `categoryId` required).',
  'client.bearer': 'The client sends its API key in the header `Authorization` as a bearer token: `Authorization: Bearer <API_KEY>`.',
  'client.key-in-header': 'The client sends its API key in the header `Authorization` as a bearer token: `Authorization: Bearer <API_KEY>`.',
  'client.post-retry': 'POST /pets (operation `createPet`) Adds an animal. (POST is not idempotent, RFC 9110 9.2.2: sent twice, it may add two.)',
  'client.deprecated': '`GET /pets/{petId}` is deprecated, with removal on 5 December 2030.',
};

/** The first gaps of a run of retries that are judged: a capped backoff stops growing after a few. */
const judgedGaps = 5;
/**
 * When the gaps between retries are one fixed interval (not a backoff), by how many there are: all
 * within `abs` ms (the jitter of timers and of the network on a real clock) plus `rel` of the
 * largest, each at least `least` ms. Every gap is over `atOnceMs` (a request sent sooner after a
 * failure counts as sent with it: told.ts). Backoff with full jitter (a random wait from 0 to
 * base·2ⁿ) draws gaps anywhere below a doubling cap, in any order, so only gaps that are nearly
 * equal tell a fixed interval from it, and the more gaps, the looser that can be. With two gaps
 * only an exact repeat of a wait of 100 ms or more counts (on the mock's clock a fixed interval
 * repeats to the millisecond): small random waits tie too often. Full jitter from a base of 100 ms
 * draws gaps this flat in about 0.1% of its runs, from 1 s in under 0.05%; the test this replaces
 * (gaps within 1.5× of each other, or all under 250 ms) failed 62% and 2% of runs of four tries.
 */
const flatWithin: Record<number, { abs: number; rel: number; least: number }> = {
  2: { abs: 0.5, rel: 0, least: 100 },
  3: { abs: 3, rel: 0.03, least: 0 },
  4: { abs: 3, rel: 0.2, least: 0 },
  5: { abs: 3, rel: 1 / 3, least: 0 },
};
/** The most requests a finding lists. */
const listed = 10;

const pathOf = (url: string) => url.split('?')[0]!;

/**
 * The report on every client in `observations`: a function of what each client sent and was
 * answered, on the mock's clock, whatever order its host handed the requests over in (told.ts).
 */
export function gradeClients(observations: readonly ClientObservation[], deprecation: DeprecationContext = { deprecated: [], now: 0 }): ClientReport {
  const byClient = new Map<string, ClientObservation[]>();
  for (const o of observations) {
    const list = byClient.get(o.client) ?? [];
    list.push(o);
    byClient.set(o.client, list);
  }
  const findings: ClientFinding[] = [];
  // Clients in the order of their first request, as sent; of one instant, by name.
  const clients = [...byClient.values()].map(inSendingOrder).sort(([a], [b]) => sentAt(a!) - sentAt(b!) || compare(a!.clientLabel, b!.clientLabel) || compare(a!.client, b!.client));
  for (const requests of clients) findings.push(...gradeOne(requests));
  return { passed: !findings.some((f) => f.level === 'failure'), findings, deprecatedUse: deprecatedUse(clients, deprecation.deprecated, deprecation.now) };
}

/** One client's findings, from its requests in sending order. */
function gradeOne(requests: readonly ClientObservation[]): ClientFinding[] {
  const out: ClientFinding[] = [];
  const client = requests[0]!.clientLabel;
  const add = (rule: ClientRule, level: ClientFinding['level'], evidence: readonly ClientObservation[], message: string, instead: string) =>
    out.push({ rule, level, quote: quotes[rule], client, message, instead, requests: evidence.slice(0, listed).map(shown) });

  // After each 429, what the client sent once told of it, before its Retry-After had passed.
  let spellUntil = -Infinity;
  for (const throttled of requests) {
    if (throttled.status !== 429 || throttled.retryAfter === undefined || throttled.at < spellUntil) continue;
    const until = throttled.at + throttled.retryAfter * 1000;
    const early = requests.filter((r) => told(throttled, r) && sentAt(r) < until);
    if (early.length === 0) continue;
    const first = early[0]!;
    add('client.retry-after', 'failure', [throttled, ...early],
      `${early.length} ${plural(early.length, 'request')} came after the 429 of ${clock(throttled.at)} (Retry-After: ${throttled.retryAfter}) before it had passed; the first ${seconds(until - sentAt(first))} early.`,
      `Wait until Retry-After has passed before the next request (${throttled.retryAfter} s after this 429), and then back off further if the next is refused too.`);
    // One finding a throttled spell: the requests it lists already cover the next 429s of it.
    spellUntil = until;
  }

  // Retries of one request after failures, whose gaps do not grow. Requests for other queries sent
  // together (a page loading three lists at once) are not retries of each other, and requests sent
  // together for one query are each a chain of retries of its own (retryChains).
  // Chains of one request sent together and retried alike are one finding.
  const flat = new Map<string, { gaps: number[]; chains: ClientObservation[][] }>();
  for (const chain of retryChains(requests)) {
    const gaps = fixedGaps(chain);
    if (!gaps) continue;
    const id = `${chain[0]!.method} ${chain[0]!.url}`;
    const seen = flat.get(id) ?? { gaps, chains: [] };
    seen.chains.push(chain);
    flat.set(id, seen);
  }
  for (const [id, { gaps, chains }] of flat) {
    add('client.backoff', 'failure', inSendingOrder(chains.flat()),
      `${id} was retried after failures at gaps of ${gaps.map(seconds).join(', ')}: they do not grow${chains.length > 1 ? ` (so were ${chains.length - 1} more tries of it, sent together with this one)` : ''}.`,
      'Back off exponentially between retries (for example 1 s, 2 s, 4 s, with jitter), never sooner than Retry-After, and give up after a few tries.');
  }

  // Requests sent while a ban the client had been told of was in force. The request that earns a
  // ban is answered API_KEY_BANNED too, but the client could not know of the ban before it, nor
  // could the requests it sent with that one: what led to it (requests sent before Retry-After)
  // is client.retry-after's.
  const bans = requests.filter((r) => r.code === 'API_KEY_BANNED');
  const banned = bans.filter((r) => bans.some((ban) => ban.retryAfter !== undefined && told(ban, r) && sentAt(r) < ban.at + ban.retryAfter * 1000));
  if (banned.length > 0) {
    add('client.banned', 'failure', banned,
      `${banned.length} ${plural(banned.length, 'request')} came while the key was banned (from ${clock(banned[0]!.at)} to ${clock(banned[banned.length - 1]!.at)}).`,
      'Stop sending when a 429 comes, wait for its Retry-After, and back off exponentially: repeated requests after a 429 are what gets a key banned.');
  }

  // 429s met after an answer had said nothing remained in that window. One is how a client that
  // does not read Remaining learns of the limit, and is judged by what it does next (Retry-After),
  // as are the ones it sent with that one; a 429 sent once told of another in the same window is
  // a client polling past its quota.
  const spent = requests.filter((r) => r.remaining === 0 && r.status !== 429 && r.reset !== undefined);
  const refusedForRate = (r: ClientObservation) => r.status === 429 && r.code !== 'API_KEY_BANNED';
  const past = new Set<ClientObservation>();
  for (const r of requests) {
    if (!refusedForRate(r)) continue;
    const window = spent.find((s) => told(s, r) && sentAt(r) < s.reset! * 1000);
    const learned = window && requests.find((l) => l !== r && refusedForRate(l) && sentAt(l) >= sentAt(window) && told(l, r));
    if (learned) past.add(learned).add(r);
  }
  const overshoot = requests.filter((r) => past.has(r));
  if (overshoot.length > 0) {
    const draft = spent.some((s) => s.draftFields);
    add('client.quota', 'failure', overshoot,
      `${overshoot.length} ${plural(overshoot.length, 'request')} met 429 after an answer had said X-RateLimit-Remaining: 0${draft ? ' (and RateLimit r=0)' : ''} for that window.`,
      draft
        ? 'Read X-RateLimit-Remaining and -Reset, or the draft\'s RateLimit r and t, on every answer, and hold requests once Remaining (r) is 0 until the Reset it gives (t seconds later).'
        : 'Read X-RateLimit-Remaining and -Reset on every answer, and hold requests once Remaining is 0 until the Reset it gives.');
  }

  const refused: [ClientRule, (r: ClientObservation) => boolean, string, string][] = [
    ['client.limit-range', (r) => r.operationId === 'listPets' && r.code === 'INVALID_QUERY_PARAMETER' && /[?&]limit=/.test(r.url),
      'asked for a limit outside 1 to 100 (or not a whole number)', 'Ask for at most 100 pets a page (limit from 1 to 100), and no more than the screen shows.'],
    ['client.new-pet', (r) => r.operationId === 'createPet' && ['INVALID_BODY', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE'].includes(r.code ?? ''),
      'sent a body that is not a NewPet in JSON', 'Send Content-Type: application/json and a NewPet: {"name": string, "categoryId": integer, "status"?: "available"|"pending"|"sold"}; check it before sending.'],
    ['client.bearer', (r) => r.auth === 'scheme',
      'presented a key with another scheme than Bearer, or a malformed Authorization header', 'Send Authorization: Bearer <API_KEY>.'],
    ['client.key-in-header', (r) => r.keyElsewhere === true,
      'sent a key outside the Authorization header (a query parameter or another header)', 'Send the key only as Authorization: Bearer <API_KEY>: a key in a URL ends up in logs and browser history.'],
  ];
  for (const [rule, matches, what, instead] of refused) {
    const hits = requests.filter(matches);
    if (hits.length > 0) add(rule, 'failure', hits, `${hits.length} ${plural(hits.length, 'request')} ${what}, which the contract refuses.`, instead);
  }

  // A POST sent again with the same body once the client had been told of a 5xx or of no answer.
  // Sent again after that one failed too, it is the same create still retried: one warning for
  // the whole chain of resends, listing each, never one a resend.
  const failedPost = (r: ClientObservation) => r.method === 'POST' && r.bodyDigest !== undefined && (r.status === 0 || r.status >= 500);
  const resendOf = (first: ClientObservation) => {
    const again = requests.find((r) => r.method === 'POST' && pathOf(r.url) === pathOf(first.url) && told(first, r));
    return again && again.bodyDigest === first.bodyDigest && sentAt(again) - first.at <= retryWindowMs ? again : undefined;
  };
  const resent = new Set<ClientObservation>();
  for (const first of requests) {
    if (!failedPost(first) || resent.has(first)) continue;
    const chain = [first];
    for (let again = resendOf(first); again !== undefined && !chain.includes(again); again = failedPost(again) ? resendOf(again) : undefined) chain.push(again);
    if (chain.length === 1) continue;
    for (const r of chain) resent.add(r);
    const again = chain[1]!;
    const more = chain.length > 2 ? ` (and ${chain.length - 2} more ${plural(chain.length - 2, 'time')} after that failed too: ${chain.length} sends in all)` : '';
    add('client.post-retry', 'warning', chain,
      `POST ${pathOf(first.url)} was sent again with the same body ${seconds(sentAt(again) - first.at)} after it was answered ${first.status === 0 ? 'with no answer at all' : first.status}${more}; the first may have created the pet.`,
      'Before sending a create again, check whether the first one took (list the pets, or look for the new one), or let the person retry.');
  }

  const deprecated = requests.filter((r) => r.operationId === 'getPet');
  if (deprecated.length > 0) {
    add('client.deprecated', 'warning', deprecated,
      `${deprecated.length} ${plural(deprecated.length, 'request')} used GET /pets/{petId}, which is deprecated and is removed on 5 December 2030.`,
      'Move to GET /pets with the status filter, the replacement the contract names, before 5 December 2030.');
  }
  return out;
}

/**
 * The gaps of a chain of retries (retryChains) when they are one fixed interval, not a backoff;
 * undefined when they grow, spread, or are too few to tell.
 */
function fixedGaps(chain: readonly ClientObservation[]): number[] | undefined {
  // The first retries after failures, each timed from the answer it retries to when it was sent.
  // A gap that waited what that answer said (Retry-After) is backing off as told. The others must
  // not all be the same: a fixed interval. Backoff with jitter draws them below a growing cap, so
  // they spread.
  const gaps = chain.slice(1, judgedGaps + 1).map((r, k) => sentAt(r) - chain[k]!.at);
  const untold = gaps.filter((gap, k) => gap < (chain[k]!.retryAfter ?? Infinity) * 1000);
  const within = flatWithin[untold.length];
  if (!within) return undefined;
  const widest = Math.max(...untold);
  const least = Math.min(...untold);
  return least >= within.least && widest - least <= within.abs + within.rel * widest ? gaps : undefined;
}

const shown = (r: ClientObservation) => ({ time: new Date(r.at).toISOString(), method: r.method, path: r.url, status: r.status });
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 23);
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
