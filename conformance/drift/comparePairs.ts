// The two answers to each generated request, paired and compared through the model: the status
// (and whether the contract pins it for what the request was), the Error `code`, the headers an
// open choice concerns, and the body's shape. Every difference is classified: a break (a judge
// failed the exchange on a side, or the contract pins the status one side did not give), an open
// choice (named, with its docs/contract-choices.md row), an open-choice difference no known choice
// names (reported with both sides' behaviour, never dropped), or meaningless (ids, which pets,
// messages, Date). A difference that follows from an earlier one (a pet one side refused to create,
// then read) is meaningless: differences do not cascade.
import { errorCodeOf, isErrorBody } from '../model/errorBody.ts';
import { errorChoice } from './errorChoice.ts';
import type { DeploymentProfile } from '../../mock/profile/profile.ts';
import { errorSituationOfStatus, generatedChoices, sentBody, situationOf, type GeneratedChoice, type SituationRequest } from './situationOf.ts';

/** One side's answer to one generated request. */
export interface SideAnswer {
  /** The pairing key: the command's case and the request's place in it (`generated/3/2/create#1`). */
  key: string;
  /** The record's seq on its side (what the judges' failures name). */
  seq: number;
  request: SituationRequest;
  /** `json`: the body as parseBody read it when the answer came. */
  response?: { status: number; headers: Record<string, string>; body: string; json: unknown };
  /** The step that made the pet its path reads (a create's key), or `listed`, when that side has it. */
  petOrigin?: string;
}

/** The id a `/pets/{id}` path reads, as sent. */
export const petIdOfPath = (path: string): string | undefined => /^\/pets\/([^/?#]+)(?:[?#].*)?$/.exec(path)?.[1];

export interface GeneratedPair {
  key: string;
  base?: SideAnswer;
  against?: SideAnswer;
}

export type DifferenceKind = 'break' | 'choice' | 'unnamed' | 'meaningless';

export interface GeneratedDifference {
  kind: DifferenceKind;
  /** The pair's key. */
  key: string;
  /** The request, as the base side sent it: `GET /pets?limit=0`. */
  request: string;
  /** What the request was (its situation). */
  situation: string;
  /** For a choice: its profile field (`errors.invalidQuery`) or a generated choice (`integerSpellings`). For a meaningless one: what (`ids`). */
  field?: string;
  /** For a break: the side(s) that broke it; `judged` when a judge failed the exchange, `pinned` when the contract pins the status. */
  sides?: ('base' | 'against')[];
  how?: 'judged' | 'pinned';
  /** The statuses the contract allows there, for a pinned break: `401`, `201 or 400`. */
  pinned?: string;
  base: string;
  against: string;
  /** The base side's value for the choice, as a profile writes it, when it has one. */
  baseValue?: unknown;
}

/** Pairs the answers of both sides by key, in the base side's order (the against side's unpaired ones after). */
export function pairAnswers(base: readonly SideAnswer[], against: readonly SideAnswer[]): GeneratedPair[] {
  const other = new Map(against.map((a) => [a.key, a]));
  const pairs: GeneratedPair[] = base.map((b) => {
    const a = other.get(b.key);
    other.delete(b.key);
    return { key: b.key, base: b, ...(a ? { against: a } : {}) };
  });
  for (const a of other.values()) pairs.push({ key: a.key, against: a });
  return pairs;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const petFields = new Set(['id', 'name', 'categoryId', 'status']);
const errorFields = new Set(['code', 'message', 'status']);
const extraKeys = (value: unknown, known: Set<string>): string[] => (isObject(value) ? Object.keys(value).filter((k) => !known.has(k)).sort() : []);
const shownKeys = (keys: readonly string[]) => (keys.length === 0 ? 'none' : keys.join(', '));
const essence = (type: string | undefined) => type?.split(';')[0]!.trim().toLowerCase();
const shownError = (status: number, body: unknown) => errorChoice(status, body).shown;
const requestLine = (a: SideAnswer) => `${a.request.method} ${a.request.path}`;
const retryForm = (value: string | undefined) => (value === undefined ? undefined : /^\s*\d+\s*$/.test(value) ? 'seconds' : 'http-date');
const corsForm = (allow: string | undefined, origin: string) => (allow === undefined ? 'none' : allow === '*' ? 'any' : allow === origin ? 'echo' : `other: ${allow}`);
const originOf = (headers: Record<string, string> | undefined) => Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'origin')?.[1];
/** A create that gave no status: what it answers shows the default status. */
const sentStatus = (request: SituationRequest): boolean => {
  const sent = sentBody(request)?.json;
  return isObject(sent) && 'status' in sent;
};

/**
 * Compares the pairs in order; `failed(side, seq)` says whether a judge failed that exchange.
 * `learnt`: the base side's profile from its probes, which tells why it refused a create body.
 */
export function comparePairs(pairs: readonly GeneratedPair[], failed: (side: 'base' | 'against', seq: number) => boolean, learnt?: DeploymentProfile): GeneratedDifference[] {
  const out: GeneratedDifference[] = [];
  /** Per side, the pet ids an earlier difference touched: what later reads of them show follows from it. */
  const tainted = { base: new Set<string>(), against: new Set<string>() };
  const taint = (pair: GeneratedPair) => {
    for (const side of ['base', 'against'] as const) {
      const answer = pair[side];
      if (!answer) continue;
      const id = petIdOfPath(answer.request.path);
      if (id !== undefined) tainted[side].add(id);
      const created = answer.request.operationId === 'createPet' && answer.response && answer.response.status < 300 ? answer.response.json : undefined;
      if (isObject(created) && (typeof created.id === 'number' || typeof created.id === 'string')) tainted[side].add(String(created.id));
    }
  };
  for (const pair of pairs) {
    const found = comparePair(pair, failed, tainted, learnt);
    // What changes a side's state: a request one side took and the other refused, or a pet made otherwise.
    const statusDiffers = pair.base?.response?.status !== pair.against?.response?.status;
    if (found.some((d) => d.kind !== 'meaningless' && (statusDiffers || d.field === 'defaultStatus'))) taint(pair);
    out.push(...found);
  }
  return out;
}

function comparePair(pair: GeneratedPair, failed: (side: 'base' | 'against', seq: number) => boolean, tainted: { base: Set<string>; against: Set<string> }, learnt: DeploymentProfile | undefined): GeneratedDifference[] {
  const { base: b, against: a } = pair;
  const first = (b ?? a)!;
  const at = { key: pair.key, request: requestLine(first) };
  if (!b || !a) {
    return [{ kind: 'meaningless', ...at, situation: 'sent to one side only', field: 'follows from an earlier difference', base: b ? 'sent' : 'not sent', against: a ? 'sent' : 'not sent' }];
  }
  const broke = (['base', 'against'] as const).filter((side) => failed(side, pair[side]!.seq));
  const known = (s: SideAnswer) => s.petOrigin !== undefined;
  const situation = situationOf(b.request, known(b) && known(a), learnt);
  const where = { ...at, situation: situation.what };
  const rb = b.response;
  const ra = a.response;
  if (!rb || !ra) {
    if (!rb && !ra) return [];
    return [{ kind: 'unnamed', ...where, base: rb ? String(rb.status) : 'no answer', against: ra ? String(ra.status) : 'no answer' }];
  }
  const differs = rb.status !== ra.status;
  if (broke.length > 0) return [{ kind: 'break', ...where, sides: broke, how: 'judged', base: String(rb.status), against: String(ra.status) }];
  const idB = petIdOfPath(b.request.path);
  const idA = petIdOfPath(a.request.path);
  if ((idB !== undefined && tainted.base.has(idB)) || (idA !== undefined && tainted.against.has(idA))) {
    return differs ? [{ kind: 'meaningless', ...where, field: 'follows from an earlier difference', base: String(rb.status), against: String(ra.status) }] : [];
  }
  // A 429 on one side only: that side's quota decided the answer, not the request.
  if (differs && (rb.status === 429) !== (ra.status === 429)) return [{ kind: 'meaningless', ...where, field: 'rate limited on one side (its quota, not the request, decided)', base: String(rb.status), against: String(ra.status) }];
  const [jb, ja] = [rb.json, ra.json];
  // "Error responses carry an Error body (`code`, `message`, `status`), with `status` equal to the HTTP status code": pinned, never a choice.
  const badError = (['base', 'against'] as const).filter((side) => !errorBodyHolds(pair[side]!.response!));
  if (badError.length > 0) return [{ kind: 'break', ...where, sides: badError, how: 'pinned', pinned: 'an Error body (`code`, `message`, `status`)', base: shownAnswer(rb.status, jb), against: shownAnswer(ra.status, ja) }];
  if (differs) {
    const allowed = situation.allowed;
    const outside = allowed ? (['base', 'against'] as const).filter((side) => !allowed.includes(pair[side]!.response!.status)) : [];
    if (allowed && outside.length > 0) return [{ kind: 'break', ...where, sides: outside, how: 'pinned', pinned: allowed.join(' or '), base: shownAnswer(rb.status, jb), against: shownAnswer(ra.status, ja) }];
    if (situation.dependsOnPets && [rb.status, ra.status].every((s) => s === 200 || s === 404)) return [{ kind: 'meaningless', ...where, field: 'which pets exist', base: String(rb.status), against: String(ra.status) }];
    const refused = rb.status >= 400 && rb.status < 500 && ra.status >= 400 && ra.status < 500;
    // Both refused: the refusal's status is the situation's Error choice; one served: whether to serve it is the choice.
    const field = refused && situation.error !== undefined ? `errors.${situation.error}` : situation.field;
    const shownB = shownAnswer(rb.status, jb);
    const shownA = shownAnswer(ra.status, ja);
    if (field === undefined || rb.status >= 500 || ra.status >= 500) return [{ kind: 'unnamed', ...where, base: shownB, against: shownA }];
    return [{ kind: 'choice', ...where, field, base: shownB, against: shownA, ...(field.startsWith('errors.') && rb.status >= 400 ? { baseValue: errorValue(rb.status, jb) } : {}) }];
  }
  return sameStatus(b, a, jb, ja, situation.error, where);
}

/** Whether a 4xx answer carries the Error the contract pins: `code` and `message` strings, `status` the HTTP status. */
const errorBodyHolds = ({ status, json }: { status: number; json: unknown }): boolean => status < 400 || status >= 500 || isErrorBody(json, status);

const shownAnswer = (status: number, body: unknown) => (status >= 400 ? shownError(status, body) : String(status));
const errorValue = (status: number, body: unknown) => errorChoice(status, body).value;

/** The differences of two answers with one status: the Error code, the headers choices concern, the body's shape, the pet through the model. */
function sameStatus(b: SideAnswer, a: SideAnswer, jb: unknown, ja: unknown, situationError: string | undefined, where: { key: string; request: string; situation: string }): GeneratedDifference[] {
  const rb = b.response!;
  const ra = a.response!;
  const status = rb.status;
  const out: GeneratedDifference[] = [];
  const choice = (field: string, base: string, against: string, baseValue?: unknown) => out.push({ kind: 'choice', ...where, field, base, against, ...(baseValue !== undefined ? { baseValue } : {}) });
  const meaningless = (field: string, base: string, against: string) => out.push({ kind: 'meaningless', ...where, field, base, against });
  const [hb, ha] = [rb.headers, ra.headers];
  const bodies = rb.body.trim() !== '' && ra.body.trim() !== '';
  if (!bodies) {
    // An answer with no body has no media type to compare.
  } else if (essence(hb['content-type']) !== essence(ra.headers['content-type'])) out.push({ kind: 'unnamed', ...where, field: 'Content-Type', base: hb['content-type'] ?? 'none', against: ha['content-type'] ?? 'none' });
  else if (hb['content-type'] !== ha['content-type']) meaningless('Content-Type parameters', hb['content-type'] ?? 'none', ha['content-type'] ?? 'none');
  if ((hb.date === undefined) !== (ha.date === undefined)) meaningless('Date', hb.date ?? 'none', ha.date ?? 'none');
  if (status >= 400) {
    const situation = situationError ?? errorSituationOfStatus(status, b.request.operationId);
    if (errorCodeOf(jb) !== errorCodeOf(ja)) {
      if (situation !== undefined) choice(`errors.${situation}`, shownError(status, jb), shownError(status, ja), errorValue(status, jb));
      else out.push({ kind: 'unnamed', ...where, field: 'Error code', base: shownError(status, jb), against: shownError(status, ja) });
    }
    const [xb, xa] = [extraKeys(jb, errorFields), extraKeys(ja, errorFields)];
    if (xb.join() !== xa.join()) choice('extraErrorFields', shownKeys(xb), shownKeys(xa), xb);
    if (isObject(jb) && isObject(ja) && jb.message !== ja.message) meaningless('messages', String(jb.message), String(ja.message));
    if (status === 401 && (hb['www-authenticate'] === undefined) !== (ha['www-authenticate'] === undefined)) {
      const shown = (v: string | undefined) => (v === undefined ? 'no WWW-Authenticate' : `WWW-Authenticate: ${v}`);
      choice('wwwAuthenticate', shown(hb['www-authenticate']), shown(ha['www-authenticate']), hb['www-authenticate'] !== undefined);
    }
    if (status === 429 && retryForm(hb['retry-after']) !== retryForm(ha['retry-after'])) choice('retryAfter', `Retry-After: ${hb['retry-after'] ?? 'none'}`, `Retry-After: ${ha['retry-after'] ?? 'none'}`, retryForm(hb['retry-after']));
    return out;
  }
  if (status < 200 || status >= 300) return out;
  // Headers an open choice concerns.
  const origin = originOf(b.request.headers);
  if (origin !== undefined && corsForm(hb['access-control-allow-origin'], origin) !== corsForm(ha['access-control-allow-origin'], originOf(a.request.headers) ?? origin)) {
    choice('cors', `Access-Control-Allow-Origin: ${hb['access-control-allow-origin'] ?? 'none'}`, `Access-Control-Allow-Origin: ${ha['access-control-allow-origin'] ?? 'none'}`, corsForm(hb['access-control-allow-origin'], origin));
  }
  if (b.request.operationId === 'getPet') {
    if (hb.deprecation !== ha.deprecation) choice('deprecation', hb.deprecation === undefined ? 'no Deprecation field' : `Deprecation: ${hb.deprecation}`, ha.deprecation === undefined ? 'no Deprecation field' : `Deprecation: ${ha.deprecation}`, hb.deprecation ?? null);
    if (hb.sunset !== ha.sunset) choice('sunset', hb.sunset === undefined ? 'no Sunset field' : `Sunset: ${hb.sunset}`, ha.sunset === undefined ? 'no Sunset field' : `Sunset: ${ha.sunset}`, hb.sunset ?? null);
  }
  if (status === 201 && (hb.location === undefined) !== (ha.location === undefined)) choice('location', hb.location === undefined ? 'no Location' : 'Location sent', ha.location === undefined ? 'no Location' : 'Location sent', hb.location !== undefined);
  // A 200 to a GET without ETag is the profile's `etag: null`; one with it shows ETag, not whether 304 follows (the probe tells).
  if ((hb.etag === undefined) !== (ha.etag === undefined)) choice('etag', hb.etag === undefined ? 'no ETag' : 'ETag sent', ha.etag === undefined ? 'no ETag' : 'ETag sent', hb.etag === undefined && status === 200 && b.request.method.toUpperCase() === 'GET' ? null : undefined);
  // The body's shape, and the pet through the model.
  if (Array.isArray(jb) !== Array.isArray(ja) || isObject(jb) !== isObject(ja)) {
    out.push({ kind: 'unnamed', ...where, field: 'body shape', base: Array.isArray(jb) ? 'a JSON array' : isObject(jb) ? 'a JSON object' : 'no JSON value', against: Array.isArray(ja) ? 'a JSON array' : isObject(ja) ? 'a JSON object' : 'no JSON value' });
    return out;
  }
  const itemsB = Array.isArray(jb) ? jb : [jb];
  const itemsA = Array.isArray(ja) ? ja : [ja];
  const keysOf = (items: unknown[]) => [...new Set(items.flatMap((p) => extraKeys(p, petFields)))].sort();
  const [kb, ka] = [keysOf(itemsB), keysOf(itemsA)];
  if (itemsB.length > 0 && itemsA.length > 0 && kb.join() !== ka.join()) choice('extraPetFields', shownKeys(kb), shownKeys(ka), kb);
  if (Array.isArray(jb)) {
    const ids = (items: unknown[]) => items.map((p) => (isObject(p) ? String(p.id) : '?')).join(',');
    if (ids(itemsB) !== ids(itemsA as unknown[])) meaningless('which pets', `${itemsB.length} pets`, `${itemsA.length} pets`);
    return out;
  }
  if (!isObject(jb) || !isObject(ja)) return out;
  if (String(jb.id) !== String(ja.id)) meaningless('ids', String(jb.id), String(ja.id));
  // A create, or a read of the pet one step made on each side: the same pet through the model.
  const samePet = b.request.operationId === 'createPet' || (b.petOrigin !== undefined && b.petOrigin === a.petOrigin && b.petOrigin !== 'listed');
  if (!samePet) {
    if (JSON.stringify({ ...jb, id: 0 }) !== JSON.stringify({ ...ja, id: 0 })) meaningless('which pets', 'another pet', 'another pet');
    return out;
  }
  const createdWithoutStatus = b.request.operationId === 'createPet' ? !sentStatus(b.request) : undefined;
  if (jb.status !== ja.status) {
    const shown = (v: unknown) => (v === undefined ? 'a pet created without a status has none' : `a pet created without a status gets ${JSON.stringify(v)}`);
    if (createdWithoutStatus === true) choice('defaultStatus', shown(jb.status), shown(ja.status), jb.status ?? null);
    else if (createdWithoutStatus === undefined) meaningless('follows from the default status (a read of a pet created without one)', String(jb.status), String(ja.status));
  }
  // `name` and `categoryId` are what each side was sent (its own categories): the judges hold each side's pet to what it sent.
  return out;
}

/** A choice's title and row: a profile field's (driftFields) or a generated choice's. */
export function generatedChoiceOf(field: string): { title: string; row: string } | undefined {
  return (generatedChoices as Record<string, { title: string; row: string }>)[field as GeneratedChoice];
}
