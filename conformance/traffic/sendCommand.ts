// Turns a generated command into requests against the run's state (which pets exist, the last
// request sent with the key), and sends them.
import type { CheckContext } from '../check.ts';
import type { ApiRequest, Auth, Exchange } from '../http/exchange.ts';
import type { Command, KeyChoice, Spelling } from './commands.ts';
import { knownCategoryIds } from '../model/runFacts.ts';
import { integerText } from '../../common/json/losslessJson.ts';
import { hugeBody, idAliases, invalidBodies, malformedIds } from './values.ts';
import { idNearMisses, keyNearMisses, schemeSpellings } from './nearMisses.ts';
import { profileHeaders } from './clientProfiles.ts';
import { jsonMediaTypes, jsonSpellings, plainJson, type NewPetText } from './jsonSpellings.ts';
import type { Form } from './relations.ts';
import { decodableCodings } from '../http/transport.ts';
import { toolName, toolVersion } from '../version.ts';

export interface TrafficState {
  /** Ids the run created, newest last: the pets the model knows best. */
  created: string[];
  /** The last request sent with the key, for a keyless replay on the same connection. */
  lastKeyed?: ApiRequest;
  bursts: number;
  groups: number;
}

type Send = (request: ApiRequest) => Promise<Exchange | undefined>;

/** What the interpreter reads of the run: the suite's CheckContext, or a drift run's side (conformance/drift/). */
export type TrafficContext = Pick<CheckContext, 'apiKey' | 'apiKey2' | 'knownPets' | 'keyQuota' | 'anonymousQuota' | 'keylessSent' | 'otherSourceAddress'>;

/** A NewPet as JSON text, the categoryId written as its digits (exact past 2^53). */
export const jsonText = (name: string, categoryId: string, status?: string) => `{"name":${JSON.stringify(name)},"categoryId":${categoryId}${status !== undefined ? `,"status":${JSON.stringify(status)}` : ''}}`;

function authOf(spelling: Spelling, key: KeyChoice): Auth {
  if (spelling.authHeader === 'Authorization' && spelling.scheme === 'Bearer') return key;
  return { key, headerName: spelling.authHeader, scheme: spelling.scheme };
}

function spelledHeaders(spelling: Spelling, withBody: boolean): Pick<ApiRequest, 'headers' | 'omitHeaders'> {
  const headers: Record<string, string> = {};
  if (spelling.accept !== 'none') headers.accept = spelling.accept;
  if (withBody) headers[spelling.contentTypeHeader] = spelling.contentType;
  if (spelling.acceptEncoding !== 'none') headers['accept-encoding'] = spelling.acceptEncoding;
  if (spelling.ifNoneMatch && !withBody) headers['if-none-match'] = '"pets-conformance-matches-nothing"';
  return { headers, ...(spelling.accept === 'none' ? { omitHeaders: ['accept'] } : {}) };
}

const encodeAll = (value: string) => [...new TextEncoder().encode(value)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** `?a=1&b=2` from parameters in order, spelled as asked; values given raw are sent as they are. */
export function queryString(params: [string, string][], spelling?: Pick<Spelling, 'reverseQuery' | 'encodeQuery'>): string {
  const ordered = spelling?.reverseQuery ? [...params].reverse() : params;
  if (ordered.length === 0) return '';
  return `?${ordered.map(([k, v]) => `${k}=${spelling?.encodeQuery ? encodeAll(v) : encodeURIComponent(v)}`).join('&')}`;
}

/** The known pets' ids: the run's own first, then those listed; `pick` chooses one. */
function pickId(ctx: TrafficContext, state: TrafficState, pick: number): string | undefined {
  const known = [...state.created, ...ctx.knownPets().map((p) => p.idText)];
  return known.length === 0 ? undefined : known[pick % known.length];
}

function createRequest(name: string, categoryId: string, status: string | undefined, spelling: Spelling, key: KeyChoice, caseName: string): ApiRequest {
  return { method: 'POST', path: '/pets', auth: authOf(spelling, key), ...spelledHeaders(spelling, true), body: jsonText(name, categoryId, status), operationId: 'createPet', intent: 'valid', case: caseName };
}

function listRequest(limit: number | undefined, status: string | undefined, spelling: Spelling, key: KeyChoice, caseName: string): ApiRequest {
  const params: [string, string][] = [];
  if (limit !== undefined) params.push(['limit', String(limit)]);
  if (status !== undefined) params.push(['status', status]);
  return { method: 'GET', path: `/pets${queryString(params, spelling)}`, auth: authOf(spelling, key), ...spelledHeaders(spelling, false), operationId: 'listPets', intent: 'valid', case: caseName };
}

function getRequest(id: string, spelling: Spelling, key: KeyChoice, intent: ApiRequest['intent'], caseName: string): ApiRequest {
  return { method: 'GET', path: `/pets/${id}`, auth: authOf(spelling, key), ...spelledHeaders(spelling, false), operationId: 'getPet', intent, case: caseName };
}

/** A categoryId the deployment's own pets have (the contract lists no categories, so only these are surely valid). */
export function knownCategory(ctx: Pick<TrafficContext, 'knownPets'>, pick: number): string {
  const ids = knownCategoryIds(ctx.knownPets());
  return ids.length === 0 ? '1' : ids[pick % ids.length]!;
}

/** The id a create's 2xx gave, as exact digits; undefined for any other answer. */
export function createdId(exchange: Exchange | undefined): string | undefined {
  if (!exchange || exchange.response.status < 200 || exchange.response.status >= 300) return undefined;
  return integerText((exchange.response.value as { id?: unknown } | undefined)?.id);
}

/** Learns the id of a pet a create made, for later reads. */
function remember(state: TrafficState, exchange: Exchange | undefined): void {
  const id = createdId(exchange);
  if (id !== undefined) state.created.push(id);
}

/**
 * Whether a request without a valid key may be sent now: the client address's quota (the Free
 * plan's 60 a minute on the mock) is shared by every keyless request of the run, and a wait for
 * its window would cost a minute.
 */
export function keylessAllowed(ctx: Pick<TrafficContext, 'anonymousQuota' | 'keylessSent'>, reserve = 6): boolean {
  const { remaining } = ctx.anonymousQuota();
  if (ctx.keylessSent() >= keylessBudget) return false;
  return remaining === undefined || remaining >= reserve;
}

/**
 * Requests without a valid key a run sends at most: half the Free plan's minute, the quota a
 * client address gets, so that two runs in a row from one address never wait for each other.
 */
export const keylessBudget = 30;

/**
 * A near miss of the run's key as a credential (`key/change/end`, under the scheme spelled as
 * given), recorded as its description where the value would give the key away; undefined when the
 * key has no near miss of that kind.
 */
export function nearMissAuth(ctx: Pick<CheckContext, 'apiKey' | 'apiKey2'>, kind: string, scheme = 'Bearer '): Auth | undefined {
  const miss = keyNearMisses(ctx.apiKey, ctx.apiKey2 !== undefined ? [ctx.apiKey2] : [], scheme).find((n) => n.kind === kind);
  return miss ? { authorization: miss.value, ...(miss.shown !== undefined ? { shownAs: miss.shown } : {}) } : undefined;
}

/** Sends one command's requests; `caseName` prefixes each request's case. */
export async function sendCommand(ctx: TrafficContext, state: TrafficState, command: Command, caseName: string, send: Send): Promise<void> {
  const keyed = async (request: ApiRequest) => {
    const exchange = await send(request);
    if (request.auth !== 'none' && request.intent !== 'unauthenticated') state.lastKeyed = request;
    return exchange;
  };
  switch (command.kind) {
    case 'create': {
      const before = state.created.length;
      remember(state, await keyed(createRequest(command.name, knownCategory(ctx, command.category), command.status, command.spelling, command.key, `${caseName}/create`)));
      const id = state.created[before];
      if (command.readBack && id !== undefined) await keyed(getRequest(id, plain(), command.key, 'valid', `${caseName}/read-back`));
      return;
    }
    case 'create-edge': {
      const json = jsonText(command.name, command.categoryId ?? knownCategory(ctx, 0));
      const body = command.huge ? hugeBody(json) : json;
      remember(state, await keyed({ method: 'POST', path: '/pets', auth: 'key', headers: { 'content-type': 'application/json' }, body, operationId: 'createPet', intent: 'edge', case: `${caseName}/create-edge` }));
      return;
    }
    case 'create-invalid': {
      const { what, body } = invalidBodies[command.index]!;
      await keyed({ method: 'POST', path: '/pets', auth: 'key', headers: { 'content-type': 'application/json' }, body, operationId: 'createPet', intent: 'invalid', case: `${caseName}/create-invalid/${what.replaceAll(' ', '-')}` });
      return;
    }
    case 'list': {
      await keyed(listRequest(command.limit, command.status, command.spelling, command.key, `${caseName}/list`));
      return;
    }
    case 'list-alias': {
      await keyed({ method: 'GET', path: `/pets?limit=${encodeURIComponent(command.limit)}`, auth: 'key', operationId: 'listPets', intent: 'edge', case: `${caseName}/list-alias` });
      return;
    }
    case 'list-invalid': {
      const params: [string, string][] = [];
      if (command.limit !== undefined) params.push(['limit', command.limit]);
      if (command.status !== undefined) params.push(['status', command.status]);
      // A limit outside 1..100 is refused (any 4xx); a status that is no PetStatus alone may be
      // refused, or answered with the pets of exactly that status, none (data-integrity judges the list).
      await keyed({ method: 'GET', path: `/pets${queryString(params)}`, auth: 'key', operationId: 'listPets', intent: command.limit !== undefined ? 'invalid' : 'edge', case: `${caseName}/list-invalid` });
      return;
    }
    case 'get': {
      const id = pickId(ctx, state, command.pick);
      if (id === undefined) return;
      if (command.near === 'same') await keyed(getRequest(id, command.spelling, command.key, 'valid', `${caseName}/get`));
      else if (command.near === 'neighbour') {
        const misses = idNearMisses(BigInt(id));
        const next = misses[command.variant % misses.length];
        if (next) await keyed(getRequest(next.value, command.spelling, command.key, next.kind === 'id/leading-zero' ? 'edge' : 'valid', `${caseName}/get-neighbour`));
      } else if (command.near === 'alias') {
        const alias = idAliases(id)[command.variant % 5]!;
        await keyed(getRequest(alias, command.spelling, command.key, 'edge', `${caseName}/get-alias`));
      } else {
        const wrong = malformedIds(id)[command.variant % 3]!;
        await keyed(getRequest(wrong, command.spelling, command.key, 'invalid', `${caseName}/get-malformed`));
      }
      return;
    }
    case 'equivalent': {
      const group = `${caseName}#${++state.groups}`;
      const id = pickId(ctx, state, command.pick);
      for (const [index, spelling] of command.spellings.entries()) {
        const label = `${caseName}/equivalent-${command.of}/${describeSpelling(spelling)}`;
        let request: ApiRequest | undefined;
        if (command.of === 'list') request = listRequest(command.limit, command.status, spelling, 'key', label);
        else if (command.of === 'get' && id !== undefined) request = getRequest(id, spelling, 'key', 'valid', label);
        else if (command.of === 'create') request = createRequest(`${command.name} ${index + 1}`.slice(-40), knownCategory(ctx, 0), undefined, spelling, 'key', label);
        if (!request) return;
        const exchange = await keyed({ ...request, equivalence: group });
        if (command.of === 'create') remember(state, exchange);
      }
      return;
    }
    case 'unlisted': {
      const id = pickId(ctx, state, command.pick) ?? '1';
      const paths = { pets: '/pets', pet: `/pets/${id}`, 'pets-slash': '/pets/', 'pet-slash': `/pets/${id}/`, unknown: '/pet', nested: `/pets/${id}/owner` };
      const path = paths[command.target];
      const documented = (command.method === 'GET' && (command.target === 'pets' || command.target === 'pet')) || (command.method === 'POST' && command.target === 'pets');
      if (documented) return;
      const withBody = command.method === 'PUT' || command.method === 'PATCH' || command.method === 'POST';
      const request: ApiRequest = {
        method: command.method,
        path,
        auth: command.withKey ? 'key' : 'none',
        ...(withBody ? { headers: { 'content-type': 'application/json' }, body: jsonText('Changed by an unlisted method', knownCategory(ctx, 0), 'sold') } : {}),
        operationId: 'unlisted',
        intent: command.withKey ? 'valid' : 'unauthenticated',
        case: `${caseName}/unlisted/${command.method}/${command.target}/${command.withKey ? 'key' : 'no-key'}`,
      };
      if (!command.withKey && !keylessAllowed(ctx)) return;
      await (command.withKey ? keyed(request) : send(request));
      return;
    }
    case 'replay-keyless': {
      const last = state.lastKeyed;
      if (!last || last.method !== 'GET' || !keylessAllowed(ctx)) return;
      const misses = keyNearMisses(ctx.apiKey, ctx.apiKey2 !== undefined ? [ctx.apiKey2] : [], schemeSpellings[command.scheme % schemeSpellings.length]);
      const miss = misses[command.miss % misses.length]!;
      const auth: Auth =
        command.how === 'none' ? 'none' : command.how === 'empty' ? { authorization: '' } : command.how === 'other-scheme' ? { authorization: `Token ${ctx.apiKey}` } : { authorization: miss.value, ...(miss.shown !== undefined ? { shownAs: miss.shown } : {}) };
      const { equivalence: _group, burst: _burst, ...again } = last;
      await send({ ...again, auth, intent: 'unauthenticated', case: `${caseName}/replay-keyless/${command.how}` });
      return;
    }
    case 'relation': {
      const group = `${caseName}#${++state.groups}`;
      const id = command.of === 'get' ? pickId(ctx, state, command.pick) : undefined;
      if (command.of === 'get' && id === undefined) return;
      const category = knownCategory(ctx, state.groups);
      for (const [index, form] of [undefined, ...command.forms].entries()) {
        // A name with letters, a `/` and a letter outside ASCII, so that every JSON text differs.
        const pet = command.of === 'create' ? { name: `Zoë/Rex ${state.groups}.${index + 1}`, categoryId: category, ...(command.status !== undefined ? { status: command.status } : {}) } : undefined;
        const parts = await formParts(ctx, form, pet);
        if (!parts) continue;
        const path = command.of === 'list' ? `/pets${queryString([['limit', String(command.limit)], ...(command.status !== undefined ? [['status', command.status] as [string, string]] : [])])}` : command.of === 'get' ? `/pets/${id}` : '/pets';
        const exchange = await keyed({
          method: command.of === 'create' ? 'POST' : 'GET',
          path,
          auth: 'key',
          ...parts,
          operationId: command.of === 'list' ? 'listPets' : command.of === 'get' ? 'getPet' : 'createPet',
          intent: 'valid',
          case: `${caseName}/relation-${command.of}/${form?.name ?? 'plain'}`,
          equivalence: group,
        });
        if (command.of === 'create') remember(state, exchange);
      }
      return;
    }
    case 'order': {
      const id = pickId(ctx, state, command.pick);
      if (id === undefined) return;
      const list = { ...listRequest(command.limit, undefined, spellingPlain, 'key', `${caseName}/order/list`), equivalence: `${caseName}#${++state.groups}` };
      const get = { ...getRequest(id, spellingPlain, 'key', 'valid', `${caseName}/order/get`), equivalence: `${caseName}#${++state.groups}` };
      // A then B, then B then A: independent requests answered as they were, whichever comes first.
      for (const [request, again] of [[list, false], [get, false], [get, true], [list, true]] as const) await keyed({ ...request, ...(again ? { varies: ['order'] } : {}) });
      return;
    }
    case 'burst': {
      const burst = ++state.bursts;
      const requests: ApiRequest[] = [];
      for (let i = 0; i < command.creates; i++) requests.push(createRequest(`Burst ${burst}.${i + 1}`, knownCategory(ctx, i), 'pending', { ...spellingPlain }, command.key, `${caseName}/burst/create`));
      for (let i = 0; i < command.reads; i++) {
        const id = pickId(ctx, state, i);
        if (id !== undefined) requests.push(getRequest(id, spellingPlain, command.key, 'valid', `${caseName}/burst/get`));
      }
      for (let i = 0; i < command.lists; i++) requests.push(listRequest(i + 1, undefined, spellingPlain, command.key, `${caseName}/burst/list`));
      // The client paces parallel requests as one; a burst is just not worth a wait for the next window.
      const { remaining } = ctx.keyQuota(command.key);
      if (requests.length === 0 || (remaining !== undefined && remaining < requests.length + 2)) return;
      // Creates sent at once each get an id of their own (id: "Unique identifier assigned by the service on creation").
      const concurrent = requests.filter((r) => r.operationId === 'createPet').length > 1;
      const answers = await Promise.all(requests.map((r) => send({ ...r, burst, ...(concurrent && r.operationId === 'createPet' ? { varies: ['concurrency'] } : {}) })));
      // Each pet a parallel create made is then read back: a lost write shows as a 404.
      for (const answer of answers) {
        if (answer?.operationId !== 'createPet') continue;
        const before = state.created.length;
        remember(state, answer);
        const id = state.created[before];
        if (id !== undefined) await keyed(getRequest(id, spellingPlain, command.key, 'valid', `${caseName}/burst/read-back`));
      }
      return;
    }
  }
}

/** The suite's own product token, kept in a client's User-Agent (see `profileHeaders`). */
const suiteProduct = `${toolName}/${toolVersion}`;

/** The headers, body and connection of one form of a request (see relations.ts). */
async function formParts(ctx: Pick<TrafficContext, 'otherSourceAddress'>, form: Form | undefined, pet: NewPetText | undefined): Promise<Partial<ApiRequest> | undefined> {
  const parts: Partial<ApiRequest> = {};
  if (form?.headers) {
    parts.headers = profileHeaders(form.headers, decodableCodings, suiteProduct);
    // A client that sends no Accept sends none: only an intermediary adds to what the client sent.
    if (form.family !== 'gateway' && !form.headers.some(([n]) => n.toLowerCase() === 'accept')) parts.omitHeaders = ['accept'];
  }
  if (pet !== undefined) {
    parts.body = form?.jsonSpelling !== undefined ? jsonSpellings[form.jsonSpelling]!.write(pet) : plainJson(pet);
    parts.headers = { ...parts.headers, 'content-type': form?.mediaType !== undefined ? jsonMediaTypes[form.mediaType]! : 'application/json' };
  }
  if (form?.fresh) parts.connection = { fresh: true };
  if (form?.otherAddress) {
    const localAddress = await ctx.otherSourceAddress();
    if (localAddress === undefined) return undefined;
    parts.connection = { localAddress };
  }
  if (form) parts.varies = form.dimensions;
  return parts;
}

const plain = () => spellingPlain;
const spellingPlain: Spelling = { authHeader: 'Authorization', scheme: 'Bearer', accept: 'application/json', contentType: 'application/json', contentTypeHeader: 'Content-Type', acceptEncoding: 'none', ifNoneMatch: false, reverseQuery: false, encodeQuery: false };

/** `auth=AUTHORIZATION,scheme=bearer,accept=none`: what sets a spelling apart from the plain one. */
export function describeSpelling(spelling: Spelling): string {
  const parts: string[] = [];
  if (spelling.authHeader !== 'Authorization') parts.push(`header-${spelling.authHeader}`);
  if (spelling.scheme !== 'Bearer') parts.push(`scheme-${spelling.scheme}`);
  if (spelling.accept !== 'application/json') parts.push(`accept-${spelling.accept === 'none' ? 'absent' : spelling.accept.replace(/[^a-z*=.0-9]+/gi, '-')}`);
  if (spelling.contentType !== 'application/json') parts.push(`type-${spelling.contentType.replace(/[^a-z0-9=-]+/gi, '-')}`);
  if (spelling.contentTypeHeader !== 'Content-Type') parts.push(`type-header-${spelling.contentTypeHeader}`);
  if (spelling.acceptEncoding !== 'none') parts.push(`encoding-${spelling.acceptEncoding.replace(/[^a-z]+/g, '-')}`);
  if (spelling.ifNoneMatch) parts.push('if-none-match');
  if (spelling.reverseQuery) parts.push('query-reversed');
  if (spelling.encodeQuery) parts.push('query-percent-encoded');
  return parts.length === 0 ? 'plain' : parts.join(',');
}
