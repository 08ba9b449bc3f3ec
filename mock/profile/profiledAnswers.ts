// The mock's answers bent to a deployment profile: each answer the core gives is rewritten to make
// the profile's choice (an error's status and code, the list's order, Retry-After's form, ...), and
// the few choices made before the core answers (a create body the deployment would refuse, store
// orders it does not serve) are made by handing the core a request it refuses or does not route,
// so admission, rate limits and the request log stay the core's own.
import { API_PREFIX } from '../core/prefixes.ts';
import type { CoreAnswer, CoreRequest } from '../core/coreTypes.ts';
import { utf8Length } from '../core/utf8Length.ts';
import type { DeploymentProfile } from './profile.ts';
import { situationOfCode } from './situations.ts';
import { tagged } from './entityTags.ts';
import { bodyRefusal, screensCreates, type BodyRefusal } from './bodyRefusal.ts';
import { parseJsonExact } from '../../common/json/exactJson.ts';
import { stringifyExact } from '../../common/json/losslessJson.ts';

const notServed = `${API_PREFIX}/store/orders/--not-served--`;

type Answerer = (request: CoreRequest) => Promise<CoreAnswer>;

const bytesOf = (text: string) => new TextEncoder().encode(text);

/** What the core is handed instead, and the message a refusal it causes gets. `screens`: screensCreates(profile). */
async function beforeCore(profile: DeploymentProfile, screens: boolean, request: CoreRequest): Promise<{ request: CoreRequest; refusal?: BodyRefusal; path: string }> {
  const [path = '', search = ''] = request.url.split(/(?=\?)/);
  if (profile.storeOrders === 'absent' && path.replace(/\/+$/, '') === `${API_PREFIX}/store/orders`) return { request: { ...request, url: `${notServed}${search}` }, path };
  if (!screens || request.method.toUpperCase() !== 'POST' || path !== `${API_PREFIX}/pets`) return { request, path };
  const bytes = request.body ?? (await request.readBody?.());
  let refusal: BodyRefusal | undefined;
  try {
    refusal = bytes ? bodyRefusal(profile, parseJsonExact(new TextDecoder().decode(bytes))) : undefined;
  } catch {
    refusal = undefined;
  }
  // The body read: handed on as bytes. A refused one becomes `{}`, which the core refuses as the
  // deployment would (400 after the key and the quota), creating nothing.
  const body = refusal ? bytesOf('{}') : bytes;
  const headers = body && refusal ? { ...request.headers, 'content-length': String(body.byteLength) } : request.headers;
  return { request: { ...request, headers, body, readBody: undefined }, ...(refusal ? { refusal } : {}), path };
}

function withExtra(value: unknown, extra: Record<string, unknown> | undefined): unknown {
  if (!extra || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return { ...value, ...extra };
}

/** A pet's or the pets' path: the answers whose pets a profile may change. */
const petsPath = new RegExp(`^${API_PREFIX}/pets(/[^/]+)?$`);

/**
 * What the profile may change in this answer's body (an Error, a page of pets, a pet), or
 * undefined when it has no choice about it: only then is the body parsed and written again. A
 * profile of header choices alone leaves every body as the core wrote it, its kept page text included.
 */
function bodyBend(profile: DeploymentProfile, request: CoreRequest, path: string, status: number, refusal: BodyRefusal | undefined): 'error' | 'list' | 'pet' | undefined {
  if (status >= 400) return refusal !== undefined || profile.errors !== undefined || profile.extraErrorFields !== undefined || profile.storeOrders === 'absent' ? 'error' : undefined;
  if (status >= 300 || !petsPath.test(path)) return undefined;
  const list = path === `${API_PREFIX}/pets` && request.method.toUpperCase() === 'GET';
  if (list && (profile.listOrder === 'oldest-first' || profile.listOrder === 'unstable')) return 'list';
  if (profile.extraPetFields === undefined) return undefined;
  return list ? 'list' : 'pet';
}

/** The answer rewritten to the profile's choices. */
function afterCore(profile: DeploymentProfile, request: CoreRequest, path: string, answer: CoreAnswer, now: number, refusal: BodyRefusal | undefined, lists: { reads: number }): CoreAnswer {
  const headers = { ...answer.headers };
  let body = answer.body;
  const api = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
  const json = body !== null && /^application\/json/i.test(headers['content-type'] ?? '');
  const bend = api && json ? bodyBend(profile, request, path, answer.status, refusal) : undefined;
  if (bend) {
    let value: unknown;
    try {
      value = parseJsonExact(body!);
    } catch {
      value = undefined;
    }
    let changed: unknown = value;
    if (bend === 'error' && value !== null && typeof value === 'object' && typeof (value as { code?: unknown }).code === 'string') {
      const error = value as { code: string; message: string; status: number };
      const situation = situationOfCode(error.code);
      // A body refused for a reason of the profile's (the core answered the `{}` it was handed): the reason's answer, else invalidBody's.
      const reason = refusal && error.code === 'INVALID_BODY' ? refusal : undefined;
      const choice = (reason ? profile.errors?.[reason.reason] : undefined) ?? (situation ? profile.errors?.[situation] : undefined);
      const status = choice?.status ?? answer.status;
      const message = reason ? reason.message : error.message.replaceAll(notServed, `${API_PREFIX}/store/orders`);
      changed = withExtra({ code: choice?.code ?? error.code, message, status }, profile.extraErrorFields);
      answer = { ...answer, status };
    } else if (bend === 'list' && Array.isArray(value)) {
      const page = profile.listOrder === 'oldest-first' ? [...value].reverse() : profile.listOrder === 'unstable' ? rotated(value, lists.reads++) : value;
      changed = page.map((pet) => withExtra(pet, profile.extraPetFields));
    } else if (bend !== 'error') {
      changed = withExtra(value, profile.extraPetFields);
    }
    if (changed !== value) {
      body = stringifyExact(changed);
      headers['content-length'] = String(utf8Length(body));
    }
  }
  if (api && profile.retryAfter === 'http-date' && /^\d+$/.test(headers['retry-after'] ?? '')) headers['retry-after'] = new Date(now + Number(headers['retry-after']) * 1000).toUTCString();
  if (api && profile.deprecation !== undefined && headers.deprecation !== undefined) {
    if (profile.deprecation === null) delete headers.deprecation;
    else headers.deprecation = profile.deprecation;
  }
  // Sunset only where the mock sends one (before the removal): its day is the contract's, checkProfile holds a chosen one to it.
  if (api && profile.sunset !== undefined && headers.sunset !== undefined) {
    if (profile.sunset === null) delete headers.sunset;
    else headers.sunset = profile.sunset;
  }
  if (api && answer.status === 201 && profile.location === false) delete headers.location;
  if (api && answer.status === 401 && profile.wwwAuthenticate === false) delete headers['www-authenticate'];
  if (api && answer.status === 401 && profile.wwwAuthenticate === true) headers['www-authenticate'] ??= 'Bearer realm="pets"';
  if (profile.cors !== undefined && headers['access-control-allow-origin'] !== undefined) {
    if (profile.cors === 'none') {
      for (const name of Object.keys(headers)) if (name.startsWith('access-control-')) delete headers[name];
    } else if (profile.cors === 'any') headers['access-control-allow-origin'] = '*';
    else if (request.headers.origin !== undefined) {
      headers['access-control-allow-origin'] = request.headers.origin;
      headers.vary = headers.vary ? `${headers.vary}, Origin` : 'Origin';
    }
  }
  // The ETag last: a tag of the body as sent, and a 304 keeps every field set above.
  if (api && profile.etag && answer.status === 200 && request.method.toUpperCase() === 'GET' && body !== null) return tagged({ ...answer, headers, body }, request.headers['if-none-match'], profile.etag === 'conditional');
  return { ...answer, headers, body };
}

/** An answerer making the profile's choices around the core's `answer`. */
export function profiledAnswers(profile: DeploymentProfile, answer: Answerer, now: () => number): Answerer {
  const screens = screensCreates(profile);
  // How many lists were read: an unstable order turns each page one place further than the last.
  const lists = { reads: 0 };
  return async (request) => {
    const before = await beforeCore(profile, screens, request);
    const bend = (answered: CoreAnswer) => afterCore(profile, request, before.path, answered, now(), before.refusal, lists);
    // The API's pipeline bends its answer before recording it (`finish`), so the request log keeps
    // what the client got; any other answer (the control API, a path outside the API) and a HEAD,
    // whose body the core drops after the pipeline, are bent here as they come back.
    let bent = false;
    const finish = request.method.toUpperCase() === 'HEAD' ? undefined : (answered: CoreAnswer) => ((bent = true), bend(answered));
    const answered = await answer(finish ? { ...before.request, finish } : before.request);
    return bent ? answered : bend(answered);
  };
}

/**
 * The page turned `by` places: the order of a deployment whose reads of one list come in different
 * orders (`listOrder: 'unstable'`). Turned one place more on each read, two reads in a row of a
 * page of two or more pets never show the same order, as a random order might.
 */
export function rotated<T>(page: readonly T[], by: number): T[] {
  const n = page.length;
  if (n < 2) return [...page];
  const at = by % n;
  return [...page.slice(at), ...page.slice(0, at)];
}

/** The ban rule of a deployment that bans no key: a spell of refusals never reaches it. */
const noBan = { threshold: Number.MAX_SAFE_INTEGER } as const;

/** The choices of a profile the core's pipeline makes before the answer exists (admission, the CORS step). */
export interface ProfileCoreChoices {
  keylessUnlisted?: 'routed' | 'unauthorized';
  preflight?: 'answered' | 'unlisted';
}

/** The options of openMock a profile sets: its choices the core and the state make themselves. */
export function profileMockOptions(profile: DeploymentProfile): ProfileCoreChoices & {
  defaultStatus?: DeploymentProfile['defaultStatus'];
  strict?: boolean;
  ban?: { threshold?: number; seconds?: number };
  keylessLimits?: { perMinute?: number; perDay?: number };
  bodyLimit?: number;
} {
  const keyless = profile.keylessLimit;
  return {
    ...(profile.defaultStatus !== undefined ? { defaultStatus: profile.defaultStatus } : {}),
    ...(profile.unknownQueryParameters !== undefined ? { strict: profile.unknownQueryParameters === 'refused' } : {}),
    ...(profile.ban !== undefined ? { ban: profile.ban ?? noBan } : {}),
    ...(keyless !== undefined ? { keylessLimits: typeof keyless === 'number' ? { perMinute: keyless } : keyless } : {}),
    ...(profile.bodyLimit !== undefined ? { bodyLimit: profile.bodyLimit } : {}),
    ...(profile.keylessUnlisted !== undefined ? { keylessUnlisted: profile.keylessUnlisted } : {}),
    ...(profile.preflight !== undefined ? { preflight: profile.preflight } : {}),
  };
}
