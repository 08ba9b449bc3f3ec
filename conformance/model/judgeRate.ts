// Rate limits as accounting, per key and window: what each answer says of the window must agree
// with what the answers before it said and with the requests sent in between.
import type { Exchange } from '../http/exchange.ts';
import { readRateHeaders, retryAfterMs } from '../http/rateLimitState.ts';
import { broken, held, holds, questionable, type Judgement } from './judgement.ts';
import { isUnavailable } from '../http/pacedClient.ts';
import { ledger, type KeyLedger, type ModelState, type WindowObservation } from './modelState.ts';
import { keyToken, viewRequest, type KeyName, type RequestView } from './requestView.ts';

export interface RateOptions {
  /** Other clients may spend the key too (`--shared-key`): only what still holds is judged. */
  sharedKey: boolean;
}

/** Header dates and Unix times are whole seconds: this much either way is one tick, not a lie. */
const TICK_MS = 1000;

/**
 * How much shorter than the time to X-RateLimit-Reset a Retry-After may be: a tick for each of
 * the two whole-second clocks it is read against (the Date and the Reset). A 429 that came within
 * it of its Reset cannot show a Retry-After that is too short: the rule is not judged on it.
 */
export const retryAfterSlackMs = 2 * TICK_MS;

const opOf = (view: RequestView) => view.operation ?? 'unlisted';

/** When the deployment gave an answer: its own Date header (RFC 9110, 6.6.1), else `otherwise` (ms). */
export function dateOr(headers: Readonly<Record<string, string>>, otherwise: number): number {
  const date = Date.parse(headers.date ?? '');
  return Number.isNaN(date) ? otherwise : date;
}

/** When the deployment gave the answer: its own Date header, else when the request left. */
export function answeredAt(exchange: Exchange): number {
  return dateOr(exchange.response.headers, exchange.sentAt);
}

function observe(exchange: Exchange): WindowObservation | undefined {
  const { limit, remaining, reset } = readRateHeaders(exchange.response.headers);
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  const source = exchange.request.connection?.localAddress;
  return { seq: exchange.seq, limit, remaining, reset, at: answeredAt(exchange), ...(source !== undefined ? { source } : {}) };
}

/**
 * What one request can cost a key's window, at least and at most. The contract counts requests:
 * one accepted with the key (a documented operation, whatever its status) costs exactly one; one
 * refused as unauthenticated, throttled, or outside the documented operations costs one or none
 * (a deployment may count what it refuses, and a CORS preflight is free).
 */
function costTo(key: KeyName, view: RequestView, status: number): [number, number] {
  if (view.credential.kind === 'key' && view.credential.key === key) {
    if (status === 401 || status === 403 || status === 429 || isUnavailable(status) || view.operation === undefined) return [0, 1];
    return [1, 1];
  }
  // Another credential may still carry this key (`Token <key>`): a deployment may charge it.
  // The token whole, not the start of a longer one ($PETS_API_KEY within $PETS_API_KEY_2).
  const carries = new RegExp(`${keyToken(key).replace(/\$/g, '\\$')}(?![A-Za-z0-9_])`).test(view.headers.authorization ?? '');
  return carries ? [0, 1] : [0, 0];
}

/**
 * A window is the span that ends at its Reset: two answers with the same Reset are in one window,
 * as long as that Reset has not come. (A sliding window rounded to the second may free a request
 * and keep its Reset; once the announced instant has passed, nothing is held against it.)
 */
/**
 * Two answers speak of one window, the later more than a tick before its Reset: a sliding window
 * whose Reset is rounded to the second frees requests within that tick with Reset unchanged.
 */
export const sameWindow = (a: Pick<WindowObservation, 'reset'>, b: Pick<WindowObservation, 'reset' | 'at'>) => a.reset === b.reset && b.at < a.reset * 1000 - TICK_MS;

function judgeAgainstLast(out: Judgement[], ledgerOf: KeyLedger, obs: WindowObservation, exchange: Exchange, view: RequestView, options: RateOptions): void {
  const last = ledgerOf.last;
  if (!last) return;
  const op = opOf(view);
  const where = `#${exchange.seq} ${view.method} ${exchange.path}`;
  if (!sameWindow(last, obs)) {
    judgeResetKept(out, last, obs, ledgerOf, op, where, exchange);
    return;
  }
  const between = ledgerOf.since.length;
  out.push(holds(obs.limit === last.limit, 'rate.limit-steady', op, exchange, () => `${where} says X-RateLimit-Limit ${obs.limit}, where #${last.seq} said ${last.limit} for the same window (reset ${obs.reset}).`, [last.seq]));
  out.push(holds(obs.remaining <= last.remaining, 'rate.no-rise', op, exchange, () => `${where} says X-RateLimit-Remaining ${obs.remaining}, up from ${last.remaining} at #${last.seq}, in the same window (reset ${obs.reset}); requests remaining never rise before the reset.`, [last.seq]));
  if (obs.remaining > last.remaining) return;
  // Remaining 0 said, and a request of the key served after it in that window: over the limit.
  // Before a 429's Retry-After the closed window judges it (judgeRate); the first answer after it
  // may have a request a sliding window freed, so is not held to what the answer before said.
  const served = exchange.response.status >= 200 && exchange.response.status < 300 && view.operation !== undefined;
  const until = ledgerOf.closed?.until;
  const heldByTheClosedWindow = until !== undefined && (obs.at < until - TICK_MS || last.at < until);
  if (served && !heldByTheClosedWindow && last.remaining - ledgerOf.spentMin < 0 && !options.sharedKey) {
    out.push(broken('rate.over-limit-refused', op, exchange, `${where} was answered ${exchange.response.status}, yet #${last.seq} said X-RateLimit-Remaining ${last.remaining} until ${last.reset} and ${ledgerOf.spentMin} request${ledgerOf.spentMin === 1 ? '' : 's'} were counted since, this one included: it is over the limit and must get 429.`, [last.seq]));
  }
  const lowest = Math.max(0, last.remaining - ledgerOf.spentMax);
  const highest = Math.max(0, last.remaining - ledgerOf.spentMin);
  if (options.sharedKey) {
    // Other clients only spend more: the most that can remain still holds.
    out.push(holds(obs.remaining <= highest, 'rate.cost', op, exchange, () => `${where} says X-RateLimit-Remaining ${obs.remaining}; #${last.seq} said ${last.remaining} and the ${between} request${between === 1 ? '' : 's'} since cost at least ${ledgerOf.spentMin}.`, [last.seq]));
    return;
  }
  out.push(
    holds(obs.remaining >= lowest && obs.remaining <= highest, 'rate.cost', op, exchange, () => {
      const expected = lowest === highest ? `${lowest}` : `between ${lowest} and ${highest}`;
      return `${where} says X-RateLimit-Remaining ${obs.remaining}; #${last.seq} said ${last.remaining}, and the ${between} request${between === 1 ? '' : 's'} since (${ledgerOf.since.map((s) => `#${s}`).join(', ')}) cost one each${ledgerOf.spentMin !== ledgerOf.spentMax ? ' (a refused one, one or none)' : ''}, so ${expected} should remain. The run is the key's only user; if it is not, run with --shared-key.`;
    }, [last.seq]),
  );
}

/**
 * How much sooner than announced the whole quota may come back: a minute. The limiter and the
 * clock that writes Date may be two machines' (a store's TIME, an app host's), each "the best
 * available approximation" (RFC 9110, 5.6.7); a Reset a zone or a day off is hours off.
 */
const resetKeptSlackMs = 60_000;

/**
 * The whole quota back, under the same Limit, more than a minute before the Reset the answer
 * before announced: the limit reset sooner than the deployment said it would ("X-RateLimit-Reset |
 * Unix timestamp at which the limit resets"), a clock or zone error in the header. A fixed window
 * comes back whole at its Reset, and a sliding one or a token bucket no sooner than the Reset it
 * names (when its last counted request ages out). Other clients only spend more, so a whole
 * quota is evidence with --shared-key too.
 */
function judgeResetKept(out: Judgement[], last: WindowObservation, obs: WindowObservation, ledgerOf: KeyLedger, op: string, where: string, exchange: Exchange): void {
  const whole = obs.limit - ledgerOf.spentMax;
  // The latest the limiter can have counted it: a Date may be stamped when the request arrived.
  const decided = obs.at + exchange.response.durationMs;
  if (obs.limit !== last.limit || obs.reset <= last.reset || decided >= last.reset * 1000 - resetKeptSlackMs || last.remaining >= whole) return;
  const early = Math.round((last.reset * 1000 - decided) / 1000);
  out.push(holds(obs.remaining < whole, 'rate.reset-kept', op, exchange, () => `${where} says X-RateLimit-Remaining ${obs.remaining} of ${obs.limit}, the whole quota back, ${early} s before the X-RateLimit-Reset ${last.reset} that #${last.seq} announced (it said ${last.remaining} remained): the limit reset sooner than the deployment said. X-RateLimit-Reset is the Unix time the limit resets, in UTC seconds (a zone or clock error shifts it).`, [last.seq]));
}

/** Judges a 429 to the key against what the deployment itself said before it. */
function judge429(out: Judgement[], ledgerOf: KeyLedger, obs: WindowObservation | undefined, exchange: Exchange, view: RequestView, options: RateOptions): void {
  const op = opOf(view);
  const where = `#${exchange.seq} ${view.method} ${exchange.path}`;
  const headers = exchange.response.headers;
  const remaining = readRateHeaders(headers).remaining;
  if (remaining !== undefined) out.push(holds(remaining === 0, 'rate.429-says-zero', op, exchange, () => `${where} answered 429 saying X-RateLimit-Remaining ${remaining}; a request is over the limit only when none remain.`));
  const last = ledgerOf.last;
  const at = answeredAt(exchange);
  if (last && !options.sharedKey && at < last.reset * 1000 - TICK_MS && (!obs || sameWindow(last, obs))) {
    // Over the limit only if the requests before it can have spent what remained (a refused one may count).
    const left = last.remaining - ledgerOf.spentMax;
    out.push(holds(left <= 0, 'rate.429-only-when-spent', op, exchange, () => `${where} answered 429, yet #${last.seq} said X-RateLimit-Remaining ${last.remaining} until ${last.reset} and at most ${ledgerOf.spentMax} request${ledgerOf.spentMax === 1 ? '' : 's'} could have been counted since: ${left} should remain.`, [last.seq]));
  }
  const reset = obs?.reset ?? readRateHeaders(headers).reset;
  const retry = retryAfterMs(headers['retry-after'], at);
  if (reset !== undefined && retry !== undefined) {
    // When the client may retry, by the deployment's clock (its Date) or by the client's (the answer
    // came back after durationMs): short only if it is short by both, since either clock may be off.
    const received = exchange.sentAt + exchange.response.durationMs;
    const retryAt = /^\s*\d+\s*$/.test(headers['retry-after'] ?? '') ? Math.max(at, received) + retry : at + retry;
    const toReset = reset * 1000 - at;
    // Within the slack of its Reset any Retry-After, 0 among them, would hold: no judgement, not a
    // pass. Shorter, it is a warning: the contract does not tie Retry-After to the Reset, and a
    // sliding window frees a request before its whole quota is back; whether a client that retries
    // when told is served is judged on the retry itself (probe.retry-after-honoured).
    if (toReset > retryAfterSlackMs) {
      out.push(retryAt >= reset * 1000 - retryAfterSlackMs ? held('rate.retry-after-covers-reset', op, exchange) : questionable('rate.retry-after-covers-reset', op, exchange, `${where} answered 429 with Retry-After ${JSON.stringify(headers['retry-after'])} (${Math.round(retry / 1000)} s), but X-RateLimit-Reset ${reset} is ${Math.round(toReset / 1000)} s away: a client that retries when told is refused again, unless a request frees before the limit resets (a sliding window).`));
    }
  }
}

/**
 * Judges one answer, or one burst of parallel answers, for every key of the run. Reads the state;
 * `learnRate` moves it on.
 */
export function judgeRate(group: readonly { exchange: Exchange; view: RequestView }[], state: ModelState, options: RateOptions): Judgement[] {
  const out: Judgement[] = [];
  const keys = new Set<KeyName>(['key', ...state.ledgers.keys()]);
  for (const { exchange, view } of group) if (view.credential.kind === 'key') keys.add(view.credential.key);
  for (const key of keys) {
    const account = ledger(state, key);
    const own = ownAnswers(group, key, account);
    // After a 429 closed the window, no operation with the key is served before the reset it
    // announced, in any spelling of its path (`/pets/`, `/%70ets`): a route mounted before the
    // limiter is still the operation. Another undocumented request may cost nothing, so it may be.
    for (const { exchange, view } of own) {
      if (!account.closed || (view.operation === undefined && view.spells === undefined)) continue;
      const at = answeredAt(exchange);
      if (at >= account.closed.until - TICK_MS) continue;
      const served = exchange.response.status >= 200 && exchange.response.status < 300;
      out.push(holds(!served, 'rate.over-limit-refused', opOf(view), exchange, () => `#${exchange.seq} ${view.method} ${exchange.path} was answered ${exchange.response.status} after the 429 of #${account.closed!.seq}, before the reset it announced (${account.closed!.reset}) and before its Retry-After had passed${view.spells !== undefined ? `; it is ${view.spells} spelled another way, and serving it serves ${view.spells} over the limit` : ''}; requests over the limit receive 429.`, [account.closed!.seq]));
    }
    if (group.length === 1) {
      const only = own[0];
      if (!only) continue;
      const obs = observe(only.exchange);
      if (only.exchange.response.status === 429) judge429(out, account, obs, only.exchange, only.view, options);
      else if (obs) judgeAgainstLast(out, withOwnCost(account, only.view, only.exchange), obs, only.exchange, only.view, options);
      continue;
    }
    // A burst: the answers arrive in any order, so each is judged against the window before the
    // burst, and together they must each have been counted. A 429 among them must still say 0 and
    // when to retry.
    for (const { exchange, view } of own) {
      if (exchange.response.status === 429) judge429(out, { ...account, last: undefined }, observe(exchange), exchange, view, options);
    }
    // Only answers that each cost exactly one must differ.
    const observed = own
      .map(({ exchange, view }) => ({ exchange, view, obs: observe(exchange) }))
      .filter((o) => o.obs && o.exchange.response.status !== 429 && costTo(key, o.view, o.exchange.response.status)[0] === 1);
    const last = account.last;
    if (!last || observed.length < 2 || !observed.every((o) => sameWindow(last, o.obs!))) continue;
    const spentBefore = { min: account.spentMin, max: account.spentMax };
    let groupMin = 0;
    let groupMax = 0;
    for (const { exchange, view } of group) {
      const [min, max] = costTo(key, view, exchange.response.status);
      groupMin += min;
      groupMax += max;
    }
    const values = observed.map((o) => o.obs!.remaining);
    const repeated = values.filter((v, i) => values.indexOf(v) !== i);
    const first = observed[0]!;
    if (!options.sharedKey) {
      out.push(holds(repeated.length === 0, 'rate.concurrent-counted', opOf(first.view), first.exchange, () => `${observed.length} parallel requests with the key (#${observed.map((o) => o.exchange.seq).join(', #')}) were answered X-RateLimit-Remaining ${values.join(', ')}: ${[...new Set(repeated)].join(', ')} twice, so some were not counted. Each request costs one, however many arrive at once.`));
      const lowest = Math.max(0, last.remaining - spentBefore.max - groupMax);
      const highest = Math.max(0, last.remaining - spentBefore.min - 1);
      const outside = observed.filter((o) => o.obs!.remaining < lowest || o.obs!.remaining > highest);
      out.push(holds(outside.length === 0, 'rate.cost', opOf(first.view), first.exchange, () => `${observed.length} parallel requests with the key were answered X-RateLimit-Remaining ${values.join(', ')}; #${last.seq} said ${last.remaining} before them, so each must say between ${lowest} and ${highest}.`, [last.seq]));
    } else {
      out.push(held('rate.concurrent-counted', opOf(first.view), first.exchange));
    }
    for (const o of observed) {
      out.push(holds(o.obs!.limit === last.limit, 'rate.limit-steady', opOf(o.view), o.exchange, () => `#${o.exchange.seq} says X-RateLimit-Limit ${o.obs!.limit}, where #${last.seq} said ${last.limit} for the same window.`, [last.seq]));
    }
  }
  return out;
}

/** The answers of a group that speak of `key`'s window: its own, admitted (no 401, 403 or 5xx), under its window's Limit. */
function ownAnswers<T extends { exchange: Exchange; view: RequestView }>(group: readonly T[], key: KeyName, account: KeyLedger): T[] {
  return group.filter(({ view, exchange }) => view.credential.kind === 'key' && view.credential.key === key && exchange.response.status !== 401 && exchange.response.status !== 403 && !isUnavailable(exchange.response.status) && ofTheKeysWindow(account, view, exchange));
}

/**
 * Whether an answer to a request with the key speaks of the key's window. A documented operation
 * is authenticated, so its answer does. A request outside them need not be (a CORS preflight never
 * is; an edge may answer a method or path the service does not route), and its answer may carry
 * the client address's meter: it speaks of the key's window only under the Limit the key's last
 * answer announced, and never starts the key's account.
 */
function ofTheKeysWindow(account: KeyLedger, view: RequestView, exchange: Exchange): boolean {
  if (view.operation !== undefined || view.spells !== undefined) return true;
  const { limit } = readRateHeaders(exchange.response.headers);
  return account.last !== undefined && (limit === undefined || limit === account.last.limit);
}

/** The ledger as it stands once the answer's own request is counted. */
function withOwnCost(account: KeyLedger, view: RequestView, exchange: Exchange): KeyLedger {
  const key = view.credential.kind === 'key' ? view.credential.key : 'key';
  const [min, max] = costTo(key, view, exchange.response.status);
  return { ...account, spentMin: account.spentMin + min, spentMax: account.spentMax + max, since: [...account.since, exchange.seq] };
}

/**
 * A request that got no answer may still have reached the deployment and been counted: it costs
 * its key one or none, so a connection lost in the network is never a contract failure.
 */
export function learnUnanswered(headers: Record<string, string>, state: ModelState): void {
  const view = viewRequest({ path: '/', request: { method: 'GET', url: '', headers } });
  if (view.credential.kind !== 'key') return;
  const account = ledger(state, view.credential.key);
  account.spentMax += 1;
}

/** Moves every key's ledger on past one answer or burst. */
export function learnRate(group: readonly { exchange: Exchange; view: RequestView }[], state: ModelState): void {
  const keys = new Set<KeyName>(['key', ...state.ledgers.keys()]);
  for (const { view } of group) if (view.credential.kind === 'key') keys.add(view.credential.key);
  for (const key of keys) {
    const account = ledger(state, key);
    for (const { exchange, view } of group) {
      const [min, max] = costTo(key, view, exchange.response.status);
      account.spentMin += min;
      account.spentMax += max;
      if (min > 0 || max > 0) account.since.push(exchange.seq);
    }
    const own = ownAnswers(group, key, account);
    const observed = own.map(({ exchange }) => observe(exchange)).filter((o): o is WindowObservation => o !== undefined);
    for (const { exchange } of own) {
      if (exchange.response.status !== 429) continue;
      const reset = readRateHeaders(exchange.response.headers).reset;
      const at = answeredAt(exchange);
      const retry = retryAfterMs(exchange.response.headers['retry-after'], at);
      if (reset !== undefined) account.closed = { reset, seq: exchange.seq, until: Math.min(reset * 1000, retry === undefined ? Number.POSITIVE_INFINITY : at + retry) };
    }
    if (observed.length === 0) continue;
    // The state after the whole group: the latest window any answer spoke of (a window may roll
    // over, or a sliding Reset move a second on, within a burst), and the lowest Remaining of it,
    // whatever order the answers came back in.
    const latest = Math.max(...observed.map((o) => o.reset));
    const next = observed.filter((o) => o.reset === latest).reduce((a, b) => (b.remaining < a.remaining ? b : a));
    if (account.closed && next.reset !== account.closed.reset && next.at >= account.closed.reset * 1000 - TICK_MS) delete account.closed;
    account.last = next;
    account.spentMin = 0;
    account.spentMax = 0;
    account.since = [];
  }
}

