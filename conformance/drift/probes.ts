// The probes of a drift run: a few requests per open choice, sent to each side alike, and what
// each answer shows of the side's choice. The same requests go to both sides, so a difference in
// what they show is a difference in their choices (or a contract break, which the judges tell).
// Ids, which pets, messages and timestamps are recorded as incidental: the contract makes their
// differences meaningless.
import { parseBody } from '../http/exchange.ts';
import type { TransportResponse } from '../http/transport.ts';
import { integerText, parseLossless, type LosslessValue } from '../../common/json/losslessJson.ts';
import { situations, type SituationName } from '../../mock/profile/situations.ts';
import type { DriftSide } from './driftSide.ts';
import { errorChoice } from './errorChoice.ts';
import { keylessWindow } from './keylessWindow.ts';
import { banChoice, defaultProbeBanMaxRequests, watchForBan } from './banProbe.ts';
import { bodyLimitChoice, defaultProbeMaxBody, findBodyLimit, paddedBody } from './bodyLimitProbe.ts';

export interface Observation {
  field: string;
  /** The side's choice, as a profile writes it (JSON). */
  value: unknown;
  /** What was seen, in a report's words. */
  shown: string;
  /** The probe whose exchanges show it. */
  probe: string;
}

/** What one side showed: its choices, and the incidental values the contract makes meaningless. */
export interface SideObservations {
  choices: Map<string, Observation>;
  incidental: Map<string, string>;
  /** Why the side could not be judged (its key refused, no answer), when it could not. */
  cannotJudge?: string;
}

export interface ProbeOptions {
  /** Spend the keyless quota of this client's address on purpose, to see a 429 and its Retry-After. */
  probeRateLimit: boolean;
  /** The most keyless requests the rate-limit probe may send. */
  probeMaxRequests: number;
  /**
   * Get the side's key banned on purpose, to see the ban rule (banProbe.ts): its quota spent to a
   * 429, then refusals until a ban shows. The key stays banned for the ban's length. Default false.
   */
  probeBan?: boolean;
  /** The most requests the ban probe may send. Default 2,000. */
  probeBanMaxRequests?: number;
  /** The largest body the body-limit probe sends, in bytes (bodyLimitProbe.ts); 0: no such probe. Default 2 MiB. */
  probeMaxBody?: number;
}

const jsonOf = (response: TransportResponse | undefined): unknown => (response ? parseBody(response.body).json : undefined);
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The top-level ids of a pet or a list of pets, exactly (an id past 2^53 is read losslessly): the probes compare them by text. */
/**
 * The list order two reads show of two pets created one after the other (A, then B): unstable when
 * the reads differ; told by creation only when the ids rise with it, since a list ordered by id, of
 * ids given at random, would show either order from run to run and a profile must not hold one.
 */
export function listOrderChoice(listed: readonly string[], again: readonly string[] | undefined, idA: string, idB: string): { value: string; shown: string } | undefined {
  if (again !== undefined && again.join(',') !== listed.join(',')) return { value: 'unstable', shown: 'two reads of the same list come in different orders' };
  const [at, bt] = [listed.indexOf(idA), listed.indexOf(idB)];
  if (at < 0 || bt < 0 || !idsRise(idA, idB)) return undefined;
  return bt < at ? { value: 'newest-first', shown: 'the pet created last comes first' } : { value: 'oldest-first', shown: 'the pet created first comes first' };
}

/** Whether the id given second is the greater (ids as integer texts): ids that rise with creation. */
function idsRise(first: string, second: string): boolean {
  try {
    return BigInt(second) > BigInt(first);
  } catch {
    return false;
  }
}

function idsIn(body: string): string[] {
  let value: LosslessValue;
  try {
    value = parseLossless(body);
  } catch {
    return [];
  }
  const idOf = (pet: LosslessValue) => (pet !== null && typeof pet === 'object' && !Array.isArray(pet) && (typeof pet.id === 'bigint' || typeof pet.id === 'number') ? String(pet.id) : undefined);
  return (Array.isArray(value) ? value.map(idOf) : [idOf(value)]).filter((id): id is string => id !== undefined);
}
const shownValue = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));
const petFields = ['id', 'name', 'categoryId', 'status'];
const errorFields = ['code', 'message', 'status'];

class Observer {
  readonly out: SideObservations = { choices: new Map(), incidental: new Map() };
  constructor(readonly side: DriftSide) {}
  choice(probe: string, field: string, value: unknown, shown: string): void {
    this.out.choices.set(field, { field, value, shown, probe });
  }
  incidental(what: string, value: string): void {
    this.out.incidental.set(what, value);
  }
  /** An Error answer's status and code, as the situation's choice. */
  error(probe: string, name: SituationName, response: TransportResponse | undefined): Record<string, unknown> | undefined {
    if (!response || response.status < 400) return undefined;
    const body = jsonOf(response);
    const { value, shown } = errorChoice(response.status, body);
    this.choice(probe, `errors.${name}`, value, shown);
    if (isObject(body) && typeof body.message === 'string') this.incidental(`message of ${situations[name].title}`, body.message);
    return isObject(body) ? body : undefined;
  }
}

const newPet = (name: string) => JSON.stringify({ name, categoryId: 1 });
const jsonHeaders = { 'content-type': 'application/json' };

/** Runs every probe on one side, in order, and returns what it showed. */
export async function observeSide(side: DriftSide, options: ProbeOptions): Promise<SideObservations> {
  const o = new Observer(side);
  const first = await side.send('key', { method: 'GET', path: '/pets?limit=1' });
  if (!first) return { ...o.out, cannotJudge: `${side.target.label} gave no answer to GET /pets?limit=1 (${side.exchanges[0]?.error ?? 'no answer'})` };
  if (first.status !== 200) return { ...o.out, cannotJudge: `${side.target.label} answered GET /pets?limit=1 with its key ${first.status}, not 200: check the key and the base URL` };

  // Default status, and the extra fields of a pet.
  const a = await side.send('defaultStatus', { method: 'POST', path: '/pets', headers: jsonHeaders, body: newPet('Drift probe A') });
  const created = a?.status === 201 ? jsonOf(a) : undefined;
  const idA = a?.status === 201 ? idsIn(a.body)[0] : undefined;
  if (a?.status === 201) o.choice('defaultStatus', 'location', a.headers.location !== undefined, a.headers.location === undefined ? 'a 201 carries no Location' : 'a 201 carries Location');
  if (isObject(created)) {
    o.choice('defaultStatus', 'defaultStatus', created.status ?? null, created.status === undefined ? 'a pet created without a status has none' : `a pet created without a status gets ${shownValue(created.status)}`);
    const extra = Object.fromEntries(Object.entries(created).filter(([k]) => !petFields.includes(k)));
    o.choice('defaultStatus', 'extraPetFields', extra, Object.keys(extra).length === 0 ? 'none' : Object.keys(extra).join(', '));
    if (idA !== undefined) o.incidental('id of a created pet', idA);
  }

  // List order: two pets created one after the other, then where the list puts them.
  const b = await side.send('listOrder', { method: 'POST', path: '/pets', headers: jsonHeaders, body: newPet('Drift probe B') });
  const idB = b?.status === 201 ? idsIn(b.body)[0] : undefined;
  const list = await side.send('listOrder', { method: 'GET', path: '/pets?limit=100' });
  // Read again: an order that changes between two reads is neither.
  const again = await side.send('listOrder', { method: 'GET', path: '/pets?limit=100' });
  if (list?.status === 200 && idA !== undefined && idB !== undefined) {
    const ids = idsIn(list.body);
    const order = listOrderChoice(ids, again?.status === 200 ? idsIn(again.body) : undefined, idA, idB);
    if (order) o.choice('listOrder', 'listOrder', order.value, order.shown);
    o.incidental('pets listed', `${ids.length} pets, ids ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}`);
  }

  // The deprecated operation's Deprecation field.
  if (idA !== undefined) {
    const got = await side.send('deprecation', { method: 'GET', path: `/pets/${idA}` });
    if (got?.status === 200) {
      o.choice('deprecation', 'deprecation', got.headers.deprecation ?? null, got.headers.deprecation === undefined ? 'no Deprecation field' : `Deprecation: ${got.headers.deprecation}`);
      o.choice('deprecation', 'sunset', got.headers.sunset ?? null, got.headers.sunset === undefined ? 'no Sunset field' : `Sunset: ${got.headers.sunset}`);
    }
  }

  // ETag on a 200 to a GET, and whether the same GET sending it back in If-None-Match gets 304 (RFC 9110, 13.1.2).
  if (idA !== undefined) {
    const read = await side.send('etag', { method: 'GET', path: `/pets/${idA}` });
    const tag = read?.status === 200 ? read.headers.etag : undefined;
    const again = tag === undefined ? undefined : await side.send('etag', { method: 'GET', path: `/pets/${idA}`, headers: { 'if-none-match': tag } });
    const etag = etagChoice(read, again);
    if (etag) o.choice('etag', 'etag', etag.value, etag.shown);
  }

  // The Error of each situation a probe can bring about without harm.
  o.error('petNotFound', 'petNotFound', await side.send('petNotFound', { method: 'GET', path: '/pets/9223372036854775806' }));
  const invalidQuery = o.error('invalidQuery', 'invalidQuery', await side.send('invalidQuery', { method: 'GET', path: '/pets?limit=0' }));
  if (invalidQuery) {
    const extra = Object.fromEntries(Object.entries(invalidQuery).filter(([k]) => !errorFields.includes(k)));
    o.choice('invalidQuery', 'extraErrorFields', extra, Object.keys(extra).length === 0 ? 'none' : Object.keys(extra).join(', '));
  }
  o.error('invalidPathParameter', 'invalidPathParameter', await side.send('invalidPathParameter', { method: 'GET', path: '/pets/not-a-number' }));
  o.error('invalidBody', 'invalidBody', await side.send('invalidBody', { method: 'POST', path: '/pets', headers: jsonHeaders, body: '{"categoryId":1}' }));
  o.error('malformedJson', 'malformedJson', await side.send('malformedJson', { method: 'POST', path: '/pets', headers: jsonHeaders, body: '{"name":' }));
  o.error('unsupportedMediaType', 'unsupportedMediaType', await side.send('unsupportedMediaType', { method: 'POST', path: '/pets', headers: { 'content-type': 'text/plain' }, body: 'name=Rex&categoryId=1' }));
  o.error('routeNotFound', 'routeNotFound', await side.send('routeNotFound', { method: 'GET', path: '/drift-probe-no-such-route' }));
  o.error('methodNotAllowed', 'methodNotAllowed', await side.send('methodNotAllowed', { method: 'DELETE', path: '/pets' }));

  // Without a key: the 401's code, WWW-Authenticate, and the limit such requests are counted at.
  const keyless = await side.send('unauthorized', { method: 'GET', path: '/pets?limit=1', withKey: false });
  o.error('unauthorized', 'unauthorized', keyless);
  if (keyless?.status === 401) {
    o.choice('unauthorized', 'wwwAuthenticate', keyless.headers['www-authenticate'] !== undefined, keyless.headers['www-authenticate'] === undefined ? 'no WWW-Authenticate' : `WWW-Authenticate: ${keyless.headers['www-authenticate']}`);
    const window = keylessWindow(keyless, side.target.now());
    if (window) o.choice('unauthorized', 'keylessLimit', window.value, window.shown);
  }

  // Without a key, an unserved method and an unserved path: 401 first, or told as with a key (404/405).
  const keylessMethod = await side.send('keylessUnlisted', { method: 'DELETE', path: '/pets', withKey: false });
  const keylessPath = await side.send('keylessUnlisted', { method: 'GET', path: '/drift-probe-no-such-route', withKey: false });
  const unlisted = keylessUnlistedChoice(keylessMethod?.status, keylessPath?.status);
  if (unlisted) o.choice('keylessUnlisted', 'keylessUnlisted', unlisted.value, unlisted.shown);
  // A page's CORS preflight, which carries no key (Fetch standard, 4.8): answered, or OPTIONS is a method the API does not serve.
  const preflight = await side.send('preflight', { method: 'OPTIONS', path: '/pets', withKey: false, headers: { origin: 'https://drift-probe.example', 'access-control-request-method': 'POST' } });
  if (preflight && preflight.status < 300) o.choice('preflight', 'preflight', 'answered', `OPTIONS without a key answers ${preflight.status}`);
  else if (preflight && preflight.status >= 400 && preflight.status < 500) o.choice('preflight', 'preflight', 'unlisted', `OPTIONS without a key answers ${preflight.status}`);

  // A query parameter the contract does not define.
  const offset = await side.send('unknownQueryParameters', { method: 'GET', path: '/pets?limit=1&offset=1' });
  if (offset?.status === 200) o.choice('unknownQueryParameters', 'unknownQueryParameters', 'ignored', '`?offset=1` is ignored (200)');
  else if (offset && offset.status >= 400 && offset.status < 500) {
    o.choice('unknownQueryParameters', 'unknownQueryParameters', 'refused', `\`?offset=1\` is refused (${offset.status})`);
    o.error('unknownQueryParameters', 'unknownQuery', offset);
  }

  // A field NewPet lacks.
  const colour = await side.send('unknownBodyFields', { method: 'POST', path: '/pets', headers: jsonHeaders, body: JSON.stringify({ name: 'Drift probe C', categoryId: 1, colour: 'brown' }) });
  if (colour?.status === 201) o.choice('unknownBodyFields', 'unknownBodyFields', 'ignored', 'a body with `colour` is taken (201)');
  else if (colour && colour.status >= 400 && colour.status < 500) {
    o.choice('unknownBodyFields', 'unknownBodyFields', 'refused', `a body with \`colour\` is refused (${colour.status})`);
    o.error('unknownBodyFields', 'unknownBodyField', colour);
  }

  // The longest name taken, among a few lengths, longest first; the refusal of the next longer one is the Error of a name too long.
  let longer: TransportResponse | undefined;
  for (const length of [1000, 256, 255, 128, 100, 64, 50, 32]) {
    const named = await side.send('maxNameLength', { method: 'POST', path: '/pets', headers: jsonHeaders, body: newPet('n'.repeat(length)) });
    if (named?.status === 201) {
      o.choice('maxNameLength', 'maxNameLength', length === 1000 ? null : length, length === 1000 ? 'a name of 1,000 characters is taken' : `a name of ${length} characters is taken, one of the next longer length tried is refused`);
      if (longer) o.error('maxNameLength', 'nameTooLong', longer);
      break;
    }
    if (!named || named.status < 400 || named.status >= 500) break;
    longer = named;
  }

  // The categoryIds a create takes, below 1 (the contract lists no categories): 0, then -1; and past
  // 2^53 - 1 at either end (the int64 the contract types it as holds them): 2^53 + 1, -(2^53 + 1).
  const zero = await side.send('categoryIdRange', { method: 'POST', path: '/pets', headers: jsonHeaders, body: JSON.stringify({ name: 'Drift probe D', categoryId: 0 }) });
  const negative = await side.send('categoryIdRange', { method: 'POST', path: '/pets', headers: jsonHeaders, body: JSON.stringify({ name: 'Drift probe E', categoryId: -1 }) });
  const refusals = [zero, negative];
  const past = async (name: string, digits: string): Promise<BigCategoryAnswer | undefined> => {
    const answer = await side.send('categoryIdRange', { method: 'POST', path: '/pets', headers: jsonHeaders, body: `{"name":${JSON.stringify(name)},"categoryId":${digits}}` });
    refusals.push(answer);
    return answer && { status: answer.status, answered: categoryIdTextOf(answer) };
  };
  const range = categoryIdRangeChoice(zero?.status, negative?.status, { above: await past('Drift probe F', pastSafe.above), below: await past('Drift probe G', pastSafe.below) });
  if (range) o.choice('categoryIdRange', 'categoryIdRange', range.value, range.shown);
  // A range the profile holds: the first of its refusals is the Error of a categoryId outside it.
  if (range && typeof range.value === 'object') o.error('categoryIdRange', 'categoryOutOfRange', refusals.find((r) => refusedOrTaken(r?.status) === 'refused'));

  // CORS for a page's request.
  const origin = 'https://drift-probe.example';
  const cors = await side.send('cors', { method: 'GET', path: '/pets?limit=1', headers: { origin } });
  if (cors?.status === 200) {
    const allow = cors.headers['access-control-allow-origin'];
    o.choice('cors', 'cors', allow === undefined ? 'none' : allow === '*' ? 'any' : allow === origin ? 'echo' : `other: ${allow}`, allow === undefined ? 'no Access-Control-Allow-Origin' : `Access-Control-Allow-Origin: ${allow}`);
  }

  // The store orders the contract only mentions.
  const orders = await side.send('storeOrders', { method: 'GET', path: '/store/orders' });
  if (orders?.status === 200) o.choice('storeOrders', 'storeOrders', 'served', 'GET /store/orders answers 200');
  else if (orders?.status === 404) o.choice('storeOrders', 'storeOrders', 'absent', 'GET /store/orders answers 404');

  const maxBody = options.probeMaxBody ?? defaultProbeMaxBody;
  if (maxBody > 0) await probeBodyLimit(side, o, maxBody);
  return o.out;
}

/** Keyless requests until a 429: the form of its Retry-After, and its code. */
async function probeRetryAfter(side: DriftSide, o: Observer, max: number): Promise<void> {
  for (let i = 0; i < max; i++) {
    const answer = await side.send('retryAfter', { method: 'GET', path: '/pets?limit=1', withKey: false });
    if (!answer) return;
    if (answer.status !== 429) continue;
    const value = answer.headers['retry-after'];
    if (value !== undefined) o.choice('retryAfter', 'retryAfter', /^\d+$/.test(value.trim()) ? 'seconds' : 'http-date', `Retry-After: ${value}`);
    o.error('retryAfter', 'rateLimited', answer);
    return;
  }
}

/** Create bodies of growing size, each invalid, until one is refused for its size: the body limit and its Error. */
async function probeBodyLimit(side: DriftSide, o: Observer, cap: number): Promise<void> {
  const outcome = await findBodyLimit((size) => side.send('bodyLimit', { method: 'POST', path: '/pets', headers: jsonHeaders, body: paddedBody(size) }), cap);
  const choice = bodyLimitChoice(outcome, cap);
  if (choice) o.choice('bodyLimit', 'bodyLimit', choice.value, choice.shown);
  if (outcome.kind === 'limit') o.error('bodyLimit', 'payloadTooLarge', outcome.answer);
}

/** The key's quota spent to a 429, then refusals until a ban shows: its threshold, length and Error. */
async function probeBan(side: DriftSide, o: Observer, max: number): Promise<void> {
  const outcome = await watchForBan(() => side.send('ban', { method: 'GET', path: '/pets?limit=1' }), max, () => side.target.now());
  const choice = banChoice(outcome);
  if (choice) o.choice('ban', 'ban', choice.value, choice.shown);
  if (outcome.kind === 'no-ban' || outcome.kind === 'banned') {
    // The 429 of a spent quota, when the keyless rate-limit probe did not show one.
    if (!o.out.choices.has('errors.rateLimited')) o.error('ban', 'rateLimited', outcome.firstRefusal);
  }
  if (outcome.kind === 'banned') o.error('ban', 'banned', outcome.answer);
}

/**
 * The probes that spend a quota, sent after everything else (the generated traffic would starve):
 * the keyless rate-limit probe, then the ban probe, last because the key stays banned after it.
 * What they show joins `seen`.
 */
export async function observeSpentQuota(side: DriftSide, seen: SideObservations, options: ProbeOptions): Promise<void> {
  if (seen.cannotJudge) return;
  const o = new Observer(side);
  if (options.probeRateLimit) await probeRetryAfter(side, o, options.probeMaxRequests);
  if (options.probeBan) await probeBan(side, o, options.probeBanMaxRequests ?? defaultProbeBanMaxRequests);
  for (const [field, observation] of o.out.choices) seen.choices.set(field, observation);
  for (const [what, value] of o.out.incidental) seen.incidental.set(what, value);
}

type Choice = { value: unknown; shown: string } | undefined;

/** The categoryIds just past the whole numbers a double holds (2^53 + 1 and its negative), as sent. */
export const pastSafe = { above: '9007199254740993', below: '-9007199254740993' } as const;

/** A create's answer to a categoryId past 2^53 - 1: its status and the categoryId it answered, exactly. */
export interface BigCategoryAnswer {
  status: number;
  answered?: string | undefined;
}

/** The categoryId of a create's answer as its exact digits (read losslessly), if it has one. */
function categoryIdTextOf(response: TransportResponse): string | undefined {
  try {
    const value = parseLossless(response.body);
    return isObject(value) ? integerText(value.categoryId) : undefined;
  } catch {
    return undefined;
  }
}
const refusedOrTaken = (status: number | undefined): 'taken' | 'refused' | undefined => (status === 201 ? 'taken' : status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 429 ? 'refused' : undefined);

/**
 * The range a side's answers to categoryId 0 and -1 show: none below (both taken), from 1 (both
 * refused), from 0 (-1 refused); and past 2^53 - 1 (`past`, when probed): refused, the bound
 * 9007199254740991 at that end (as a deployment whose JSON numbers are doubles refuses them), taken
 * with the digits sent, no bound. Else a value the profile has no room for: 0 refused with -1 taken,
 * or a categoryId past 2^53 - 1 taken and answered as another number (rounded, as a double holds
 * it), which the mock never does: the judges call it a break (data.created-as-sent).
 */
export function categoryIdRangeChoice(zero: number | undefined, negative: number | undefined, past: { above?: BigCategoryAnswer | undefined; below?: BigCategoryAnswer | undefined } = {}): Choice {
  const [z, n] = [refusedOrTaken(zero), refusedOrTaken(negative)];
  if (z === undefined || n === undefined) return undefined;
  let shown = `categoryId 0 is ${z} (${zero}), -1 is ${n} (${negative})`;
  if (z === 'refused' && n === 'taken') return { value: `other: ${shown}`, shown };
  const range: { minimum?: number; maximum?: number } = z === 'refused' ? { minimum: 1 } : n === 'refused' ? { minimum: 0 } : {};
  // The negative end past 2^53 - 1 says something only when the range has no minimum yet.
  const ends = [['above', pastSafe.above, past.above], ...(range.minimum === undefined ? [['below', pastSafe.below, past.below] as const] : [])] as const;
  for (const [end, digits, answer] of ends) {
    const seen = refusedOrTaken(answer?.status);
    if (seen === undefined) continue;
    const exact = seen === 'refused' || answer!.answered === digits;
    shown += `, ${digits} is ${seen} (${answer!.status}${seen === 'taken' ? (exact ? ', kept exactly' : `, answered as ${answer!.answered ?? 'no categoryId'}`) : ''})`;
    if (!exact) return { value: `other: ${shown}`, shown };
    if (seen === 'refused') range[end === 'above' ? 'maximum' : 'minimum'] = end === 'above' ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
  }
  return { value: range, shown };
}

/**
 * What a 200 to a GET and the same GET with its ETag in If-None-Match show: no ETag (null); ETag,
 * and 304 to the tag sent back (`conditional`); ETag, and the tag sent back ignored (`sent`, 200).
 * Any other second answer (a 429, a break the judges tell) shows nothing of the choice.
 */
export function etagChoice(read: Pick<TransportResponse, 'status' | 'headers'> | undefined, again: Pick<TransportResponse, 'status'> | undefined): Choice {
  if (read?.status !== 200) return undefined;
  const tag = read.headers.etag;
  if (tag === undefined) return { value: null, shown: 'a 200 to a GET carries no ETag' };
  if (again?.status === 304) return { value: 'conditional', shown: `a 200 to a GET carries ETag (${tag}), and the GET sending it in If-None-Match gets 304` };
  if (again?.status === 200) return { value: 'sent', shown: `a 200 to a GET carries ETag (${tag}), and the GET sending it in If-None-Match gets 200 again` };
  return undefined;
}

/** What a side's keyless answers to an unserved method and an unserved path show: 401 first, or routed as with a key; the two unlike is a value the profile has no room for. */
export function keylessUnlistedChoice(method: number | undefined, path: number | undefined): Choice {
  const form = (status: number | undefined) => (status === 401 ? 'unauthorized' : status === 404 || status === 405 ? 'routed' : undefined);
  const [m, p] = [form(method), form(path)];
  if (m === undefined || p === undefined) return undefined;
  const shown = `without a key, DELETE /pets answers ${method} and an unknown path ${path}`;
  return { value: m === p ? m : `other: ${shown}`, shown };
}
