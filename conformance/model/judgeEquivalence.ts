// Metamorphic relations: one request sent in several forms that the contract makes the same
// request (header sets of real clients and intermediaries, header-name and scheme case, Accept,
// the JSON text of one value, spellings of application/json, parameter order and encoding, a fresh
// connection or another source address) gets the same outcome: the same status and the same kind
// of Error (not its free-text message or its open `code`), the same data read back, and the same
// cost to the key's window. The contract lets an answer depend on the method, the path, the
// parameters it names, the key, the body's JSON value, the clock and the quota, and on nothing
// else. Each form is judged against the first answer of its group.
import { isErrorBody } from './errorBody.ts';
import { isUnavailable } from '../http/pacedClient.ts';
import type { Exchange } from '../http/exchange.ts';
import { readRateHeaders } from '../http/rateLimitState.ts';
import { answeredAt, sameWindow } from './judgeRate.ts';
import { isRemovedGetPet } from './removedOperation.ts';
import { integerText, toJsonText, type LosslessValue } from '../../common/json/losslessJson.ts';
import { held, holds, questionable, broken, type Judgement } from './judgement.ts';
import type { GroupFirst, ModelState } from './modelState.ts';
import { viewRequest, type RequestView } from './requestView.ts';

export interface EquivalenceOptions {
  /** Others spend the key too (`--shared-key`): what a request costs cannot be told. */
  sharedKey: boolean;
}

type Obj = Record<string, LosslessValue>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const carriesError = (exchange: Exchange): boolean => isErrorBody(exchange.response.json, exchange.response.status);

/** How the request differs from the plain one, in words for a finding: its case's last part, and the connection. */
function describeDifference(exchange: Exchange): string | undefined {
  const parts = [exchange.case?.split('/').pop()];
  if (exchange.request.connection?.localAddress !== undefined) parts.push(`sent from ${exchange.request.connection.localAddress}`);
  if (exchange.request.connection?.fresh) parts.push('on a fresh connection');
  const shown = parts.filter((p): p is string => p !== undefined && p !== '');
  return shown.length > 0 ? [...new Set(shown)].join(', ') : undefined;
}

/**
 * What the request cost its key's window: the Remaining the answer before it said, less this
 * answer's, when nothing else was counted between them and both speak of one window (as the rate
 * judge reads it: not within a tick of its Reset). Undefined when that cannot be told (another
 * key's request between, a new window, a burst).
 */
export function measuredCost(exchange: Exchange, view: RequestView, state: ModelState, { sameSource = false } = {}): number | undefined {
  if (view.credential.kind !== 'key' || exchange.burst !== undefined) return undefined;
  const account = state.ledgers.get(view.credential.key);
  const last = account?.last;
  const { remaining, reset } = readRateHeaders(exchange.response.headers);
  if (!account || !last || remaining === undefined || reset === undefined || account.since.length > 0 || !sameWindow(last, { reset, at: answeredAt(exchange) })) return undefined;
  if (sameSource && last.source !== exchange.request.connection?.localAddress) return undefined;
  return last.remaining - remaining;
}

const fields = ['id', 'name', 'categoryId', 'status'] as const;
const show = (v: LosslessValue | undefined) => (v === undefined ? '(none)' : toJsonText(v));
const same = (a: LosslessValue | undefined, b: LosslessValue | undefined) => (a === undefined && b === undefined) || (a !== undefined && b !== undefined && toJsonText(a) === toJsonText(b));

/** The fields of one pet where two answers differ, as `name "Rex" where #3 said "Max"`. */
function petDifferences(a: Obj, b: Obj): (typeof fields)[number][] {
  return fields.filter((f) => !same(a[f], b[f]));
}

/** The judgements of the data two answers to the same read give back. */
function judgeData(out: Judgement[], first: GroupFirst, exchange: Exchange, view: RequestView, state: ModelState, op: string, where: string): void {
  const a = first.exchange.response.value;
  const b = exchange.response.value;
  if (first.status < 200 || first.status >= 300 || exchange.response.status !== first.status) return;
  // "Transitions: not shown": a status another hand changed between two reads is not this rule's to
  // fail, unless the pet is the run's own, whose status only the run sets.
  const verdict = (id: string, diff: string[], message: () => string) => {
    if (diff.length === 0) return held('equivalent.same-data', op, exchange);
    const onlyStatus = diff.every((d) => d === 'status');
    return onlyStatus && !state.pets.get(id)?.created ? questionable('equivalent.same-data', op, exchange, message()) : broken('equivalent.same-data', op, exchange, message(), [first.seq]);
  };
  if (view.operation === 'getPet' && isObject(a) && isObject(b)) {
    const diff = petDifferences(a, b);
    out.push(verdict(integerText(a.id) ?? '', diff, () => `${where} gave ${diff.map((f) => `${f} ${show(b[f])}`).join(', ')} where the same request spelled another way (#${first.seq}) gave ${diff.map((f) => show(a[f])).join(', ')}; the pet read back is the same however the request is spelled.`));
  }
  if (view.operation === 'listPets' && Array.isArray(a) && Array.isArray(b)) {
    const before = new Map(a.filter(isObject).flatMap((p) => (integerText(p.id) !== undefined ? [[integerText(p.id)!, p] as const] : [])));
    const diffs: { id: string; diff: (typeof fields)[number][]; was: Obj; now: Obj }[] = [];
    for (const pet of b.filter(isObject)) {
      const id = integerText(pet.id);
      const was = id !== undefined ? before.get(id) : undefined;
      if (was) diffs.push({ id: id!, diff: petDifferences(was, pet), now: pet, was });
    }
    const changed = diffs.filter((d) => d.diff.length > 0);
    const worst = changed.find((d) => d.diff.some((f) => f !== 'status') || state.pets.get(d.id)?.created) ?? changed[0];
    if (!worst) out.push(held('equivalent.same-data', op, exchange));
    else out.push(verdict(worst.id, worst.diff, () => `${where} lists pet ${worst.id} with ${worst.diff.map((f) => `${f} ${show(worst.now[f])}`).join(', ')} where the same request spelled another way (#${first.seq}) listed ${worst.diff.map((f) => show(worst.was[f])).join(', ')}${changed.length > 1 ? ` (and ${changed.length - 1} more pets differ)` : ''}; what is read back is the same however the request is spelled.`));
  }
}

export function judgeEquivalence(exchange: Exchange, view: RequestView, state: ModelState, options: EquivalenceOptions = { sharedKey: false }): Judgement[] {
  const group = exchange.equivalence;
  const op = view.operation;
  if (group === undefined || op === undefined) return [];
  const status = exchange.response.status;
  if (status === 429 || isUnavailable(status)) return [];
  const first = state.equivalents.get(group);
  if (!first) return [];
  // getPet removed between the two (Versioning: removed on 5 December 2030): the clock, which an
  // answer may depend on, moved across the removal, not the spelling.
  if (isRemovedGetPet(exchange) !== isRemovedGetPet(first.exchange)) return [];
  const out: Judgement[] = [];
  const where = `#${exchange.seq} ${view.method} ${exchange.path}`;
  const diff = describeDifference(exchange);
  const because = diff ? `; this one differs only in ${diff}` : '';
  if (first.status !== status) {
    // A CORS policy may refuse a cross-origin request (the Fetch standard lets a server refuse any
    // Origin it does not serve, and the contract says nothing of browsers): a 403 to a request with an
    // Origin is the one difference allowed, and questionable, since it keeps a web app out.
    if (status === 403 && view.headers.origin !== undefined) {
      out.push(questionable('equivalent.same-status', op, exchange, `${where} was answered 403 where the same request without Origin ${JSON.stringify(view.headers.origin)} (#${first.seq}) was answered ${first.status}${because}: a CORS policy may refuse an origin, but a web app on it cannot use the API.`));
    } else {
      out.push(broken('equivalent.same-status', op, exchange, `${where} was answered ${status}, but the same request spelled another way (#${first.seq} ${first.path}) was answered ${first.status}${because}. The contract lets an answer depend on the method, the path, its parameters, the key and the body's JSON value, and HTTP makes these spellings the same request (RFC 9110: header names, the auth scheme and media types are case-insensitive; RFC 8259: whitespace, member order and escapes do not change a JSON value).`, [first.seq]));
    }
  } else if (exchange.response.keptInPart !== undefined || first.exchange.response.keptInPart !== undefined) {
    // A body kept only in part (the run's own budget) says nothing of its kind or its Error: the
    // same status is all that is judged, and the data is not compared.
    out.push(held('equivalent.same-status', op, exchange));
  } else if (status >= 400) {
    // The Error's meaning is its status; the message and the open `code` may differ.
    const firstIsError = carriesError(first.exchange);
    out.push(holds(!firstIsError || carriesError(exchange), 'equivalent.same-status', op, exchange, () => `${where} was refused with ${status} as the same request spelled another way (#${first.seq}) was, but without the Error body {code, message, status: ${status}} that one had${because}; the body is ${JSON.stringify(exchange.response.body.slice(0, 80))}.`, [first.seq]));
  } else {
    const kind = (e: Exchange) => (Array.isArray(e.response.value) ? 'a JSON array' : isObject(e.response.value) ? 'a JSON object' : 'no JSON value');
    out.push(holds(kind(first.exchange) === kind(exchange), 'equivalent.same-status', op, exchange, () => `${where} was answered ${status} with ${kind(exchange)}, where the same request spelled another way (#${first.seq}) got ${kind(first.exchange)}${because}.`, [first.seq]));
  }

  // What a form costs: exactly what the first cost (one, for a request the key's window counts).
  const cost = measuredCost(exchange, view, state);
  if (!options.sharedKey && cost !== undefined && first.cost !== undefined && view.credential.kind === 'key') {
    out.push(holds(cost === first.cost, 'equivalent.same-cost', op, exchange, () => `${where} moved X-RateLimit-Remaining by ${cost} (${cost < 0 ? 'up: another window' : cost === 0 ? 'not counted' : `${cost} requests`}), where the same request spelled another way (#${first.seq}) moved it by ${first.cost}${because}. The key's window is the key's ("Rate limits by plan"), whatever else the request carries or wherever it comes from.`, [first.seq]));
  }
  if (exchange.response.keptInPart === undefined && first.exchange.response.keptInPart === undefined) judgeData(out, first, exchange, view, state, op, where);
  return out;
}

/** The first answer of each group is what the others are judged against; 429s and 5xx teach nothing. */
export function learnEquivalence(exchange: Exchange, state: ModelState, view: RequestView = viewRequest(exchange)): void {
  const group = exchange.equivalence;
  const status = exchange.response.status;
  if (group === undefined || state.equivalents.has(group) || status === 429 || isUnavailable(status)) return;
  // The cost every form is held to: measured only against an answer to the same client address,
  // so that a window kept per address (which the source-address form shows) is not taken for it.
  const cost = measuredCost(exchange, view, state, { sameSource: true });
  state.equivalents.set(group, { seq: exchange.seq, status, path: exchange.path, exchange, ...(cost !== undefined ? { cost } : {}) });
}
