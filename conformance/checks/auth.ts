import type { Check, CheckContext } from '../check.ts';
import type { ApiRequest, Auth } from '../http/exchange.ts';
import { allOperations } from './allOperations.ts';
import { newPetBody } from './newPetBody.ts';
import { toJsonText } from '../../common/json/losslessJson.ts';
import { judgeAuth } from '../model/judgeAuthCases.ts';
import { describeEdit, keyNearMisses, schemeSpellings } from '../traffic/nearMisses.ts';

type BaseRequest = Omit<ApiRequest, 'auth' | 'intent' | 'case'>;

/** A request that would succeed with the key, per operation. Writes only outside --read-only. */
function requestFor(ctx: CheckContext, operationId: string): BaseRequest | undefined {
  switch (operationId) {
    case 'listPets':
      return { method: 'GET', path: '/pets?limit=1', operationId };
    case 'createPet':
      if (ctx.options.readOnly) return undefined;
      return { method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: toJsonText(newPetBody(ctx, true)), operationId };
    case 'getPet': {
      const known = ctx.knownPets()[0];
      return { method: 'GET', path: known ? ctx.petPath(known) : '/pets/1', operationId };
    }
    case 'listStoreOrders':
      return { method: 'GET', path: '/store/orders', operationId };
    default:
      return undefined;
  }
}

interface Variant {
  name: string;
  what: string;
  auth: Auth;
  /** Where the key goes instead of the Authorization header. */
  query?: string;
  headers?: Record<string, string>;
}

/** Ways of presenting no key, or a key where the contract does not take it; each must get 401 (contract, Authentication 3). */
function wrongKeys(ctx: CheckContext): Variant[] {
  const key = ctx.apiKey;
  const q = encodeURIComponent(key);
  return [
    { name: 'no-header', what: 'no Authorization header', auth: 'none' },
    { name: 'empty-header', what: 'an empty Authorization header', auth: { authorization: '' } },
    { name: 'basic-scheme', what: 'the key under the Basic scheme', auth: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } },
    { name: 'no-space', what: 'the key glued to the scheme ("Bearer<key>")', auth: { authorization: `Bearer${key}` } },
    { name: 'scheme-only', what: 'the Bearer scheme with no key', auth: { authorization: 'Bearer' } },
    // RFC 6750 (2.3) defines access_token in the query; the contract allows only the header.
    { name: 'key-in-query', what: 'the key in the query string, with no header', auth: 'none', query: `access_token=${q}&api_key=${q}&apiKey=${q}&key=${q}` },
    { name: 'key-in-other-header', what: 'the key in X-API-Key and API-Key headers, with no Authorization', auth: 'none', headers: { 'x-api-key': key, 'api-key': key } },
  ];
}

/**
 * The near misses of the key every run sends, one request each: one character changed at the
 * start and at the end, and the middle one replaced by SQL LIKE's any-character wildcard `_` (same
 * length: a compare loop one short, a prefix or suffix match, a LIKE where `=` was meant, a compare
 * that skips the middle), one added and one removed at the end (a prefix match either way), one
 * letter's case flipped, the key with a word after it or before it (a split on spaces), under
 * another scheme. Where a kind gives nothing for this key (a key with `_` in its middle is its own
 * LIKE pattern), the next kind listed for that place is sent. The rest of `keyNearMisses` (a bare
 * key, the other edits and wildcards) the sweep and the generated sequences send: the keyless
 * requests a run may send are counted (keylessBudget), and these leave the generated sequences
 * their share. Each goes to another operation in turn, under the scheme spelled another way in turn
 * from a seeded start: an invalid key is refused everywhere, however the scheme is written.
 */
const sentNearMisses: readonly (readonly string[])[] = [['key/change/start'], ['key/wildcard/like-one', 'key/change/middle'], ['key/change/end'], ['key/add/end'], ['key/remove/end'], ['key/case/middle'], ['key/word-after'], ['key/word-before'], ['key/other-scheme']];

/**
 * The scheme's spelling at `turn`, for near misses of `kinds`. A near miss shows how the key is
 * compared only under a spelling the grammar allows (RFC 6750, 2.1: `Bearer 1*SP b64token`; after a
 * tab the header is refused whatever key it holds), so an edited key takes the next such spelling
 * in turn. A word beside the key shows a split on spaces only where one space parts the scheme from
 * the key (under two spaces, the second word is empty): those take the next spelling with one.
 */
function schemeFor(kinds: readonly string[], turn: number): string {
  const spelled = (t: number) => schemeSpellings[t % schemeSpellings.length]!;
  const fits = kinds.some((kind) => kind.startsWith('key/word-')) ? /^\S+ $/ : kinds.some((kind) => /^key\/((change|add|remove|case|wildcard)\/|quoted|second-credentials)/.test(kind)) ? /^\S+ +$/ : /[^]*/;
  for (let t = turn; t < turn + schemeSpellings.length; t++) if (fits.test(spelled(t))) return spelled(t);
  return spelled(turn);
}

function nearMissVariants(ctx: CheckContext): (Variant & { operationId: string })[] {
  const operations = ctx.options.readOnly ? ['listPets', 'getPet'] : ['listPets', 'createPet', 'getPet'];
  const first = Math.floor(ctx.random() * schemeSpellings.length);
  const others = ctx.apiKey2 !== undefined ? [ctx.apiKey2] : [];
  return sentNearMisses.flatMap((kinds, i) => {
    const scheme = schemeFor(kinds, first + i);
    const misses = keyNearMisses(ctx.apiKey, others, scheme);
    const miss = kinds.map((kind) => misses.find((n) => n.kind === kind)).find((n) => n !== undefined);
    if (!miss) return [];
    const { kind } = miss;
    const shown = miss.shown ?? miss.value.replaceAll(ctx.apiKey, '$PETS_API_KEY');
    return [{ operationId: operations[i % operations.length]!, name: `near-miss/${kind.slice('key/'.length).replace('/', '-')}`, what: `a near miss of the key (${describeEdit(kind)}): Authorization ${JSON.stringify(shown)}`, auth: { authorization: miss.value, ...(miss.shown !== undefined ? { shownAs: miss.shown } : {}) } }];
  });
}

interface InvalidTwice {
  name: string;
  what: string;
  request: BaseRequest;
  /** No key, an unknown one, or a near miss of the run's key (a kind of `keyNearMisses`): two dimensions in one request, as the keyless quota is small. */
  key: 'none' | 'unknown' | 'key/quoted' | 'key/second-credentials';
  /**
   * Malformed JSON: many servers parse every body before any route runs, so a 400 for it, ahead of
   * the 401, is a warning. A body that parses but is invalid must get the 401.
   */
  parsedFirst?: boolean;
}

/** Requests that are wrong twice: no valid key, and a bad body, limit or status, or an unknown id. The key comes first. */
function invalidTwice(ctx: CheckContext): InvalidTwice[] {
  const unknownId = ctx.knownPets().reduce((max, p) => (Number.isSafeInteger(p.id) && p.id > max ? p.id : max), 0) + 1_000_000;
  const cases: InvalidTwice[] = [
    // The key in double quotes: a b64token has none (RFC 6750, 2.1), so no key; a parser that unquotes it validates first.
    { name: 'bad-limit', what: 'limit=0', key: 'key/quoted', request: { method: 'GET', path: '/pets?limit=0', operationId: 'listPets' } },
    { name: 'unknown-id', what: 'an id no pet has', key: 'unknown', request: { method: 'GET', path: `/pets/${unknownId}`, operationId: 'getPet' } },
  ];
  if (!ctx.options.readOnly) {
    const json = { 'content-type': 'application/json' };
    cases.push(
      // The key as the second of two credentials: Authorization holds one (RFC 9110, 11.6.2).
      { name: 'empty-object', what: 'a body missing every field', key: 'key/second-credentials', request: { method: 'POST', path: '/pets', headers: json, body: '{}', operationId: 'createPet' } },
      { name: 'malformed-body', what: 'malformed JSON', key: 'none', parsedFirst: true, request: { method: 'POST', path: '/pets', headers: json, body: '{"name": ', operationId: 'createPet' } },
    );
  }
  return cases;
}

/**
 * The wrong presentations each operation gets. Requests without a valid key spend the client
 * address's quota (the Free plan's 60 a minute), which a default run keeps within half, so that two
 * runs in a row from one address never wait for each other: every one on listPets, the
 * commonest on the others (the generated traffic replays near misses on every operation too).
 */
const variantsFor: Record<string, readonly string[]> = {
  createPet: ['no-header'],
  getPet: ['no-header'],
  listStoreOrders: ['no-header'],
};

/** `If-None-Match` and `If-Modified-Since` from an answer's ETag and Last-Modified, where it gave them. */
function validatorsOf(headers: Readonly<Record<string, string>>): Record<string, string> {
  return { ...(headers.etag !== undefined ? { 'if-none-match': headers.etag } : {}), ...(headers['last-modified'] !== undefined ? { 'if-modified-since': headers['last-modified'] } : {}) };
}

const opCase = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export const auth: Check = {
  id: 'auth',
  title: 'Every operation needs a valid bearer key, checked first',
  severity: 'critical',
  description:
    'On every operation, each wrong presentation of a key gets 401 with an Error body: no header, an empty one, ' +
    'the key under Basic, glued to the scheme, the scheme alone, the key in the query string or in an X-API-Key header, and near misses of ' +
    'the key spread over the operations: a character changed at its start and end, the middle one replaced by SQL LIKE\'s wildcard _, one added or removed, a letter\'s case flipped, ' +
    'a word after or before it, another scheme, each under the scheme spelled another way. The run\'s key is accepted, also ' +
    'as "bearer" in lower case (RFC 9110: schemes are case-insensitive). A request with ' +
    'no valid key that is also invalid otherwise (a bad body, an unknown id, a bad limit or status) gets 401, not 400 or 404.',
  operations: allOperations,
  phase: 'active',
  async send(ctx, notes) {
    for (const operationId of allOperations) {
      const base = requestFor(ctx, operationId);
      if (!base) {
        notes.skip(operationId, 'it writes, and --read-only is on');
        continue;
      }
      const prefix = `auth/${opCase(operationId)}`;
      // The run's key is accepted here, as the preflight found on GET /pets.
      const accepted = await ctx.send({ ...base, ...(base.body ? { body: toJsonText(newPetBody(ctx, true)) } : {}), auth: 'key', intent: 'valid', case: `${prefix}/valid-key`, expect: { rule: 'auth.key-accepted', answer: 'accept', what: 'the run\'s key' } });
      // A read without a key carries the validators the key's answer gave: a cache or an edge that
      // revalidates before authentication answers 304 with the key's headers. Preconditions are
      // ignored where the answer without them is no 2xx (RFC 9110, 13.2.1): a 401 all the same.
      const validators = base.method === 'GET' && accepted ? validatorsOf(accepted.response.headers) : {};
      await ctx.send({ ...base, ...(base.body ? { body: toJsonText(newPetBody(ctx, true)) } : {}), auth: { authorization: `bearer ${ctx.apiKey}`, spends: 'key' }, intent: 'valid', case: `${prefix}/lowercase-scheme`, expect: { rule: 'auth.scheme-case', answer: 'accept', what: 'the key under "bearer" in lower case' } });
      const nearMisses = nearMissVariants(ctx).filter((v) => v.operationId === operationId);
      for (const variant of [...wrongKeys(ctx).filter((v) => variantsFor[operationId]?.includes(v.name) ?? true), ...nearMisses]) {
        const path = variant.query ? `${base.path}${base.path.includes('?') ? '&' : '?'}${variant.query}` : base.path;
        const headers = { ...base.headers, ...variant.headers, ...(variant.name === 'no-header' ? validators : {}) };
        await ctx.send({ ...base, path, ...(Object.keys(headers).length > 0 ? { headers } : {}), auth: variant.auth, intent: 'unauthenticated', case: `${prefix}/${variant.name}`, expect: { rule: 'auth.wrong-key-401', answer: 'refuse', status: 401, what: variant.what, because: 'every operation needs the key as "Authorization: Bearer <API_KEY>"' } });
      }
    }

    for (const { name, what, request, key, parsedFirst } of invalidTwice(ctx)) {
      const miss = key.startsWith('key/') ? keyNearMisses(ctx.apiKey, ctx.apiKey2 !== undefined ? [ctx.apiKey2] : [], 'Bearer ').find((n) => n.kind === key) : undefined;
      const authVariant: Auth = key === 'none' ? 'none' : miss ? { authorization: miss.value } : { authorization: `Bearer pets-conformance-unknown-${Math.floor(ctx.random() * 1e9)}` };
      const described = `${what} with ${key === 'none' ? 'no key' : miss ? `the key ${describeEdit(key)}` : 'an unknown key'}`;
      await ctx.send({ ...request, auth: authVariant, intent: 'unauthenticated', case: `auth/first/${name}/${key === 'none' ? 'no-key' : miss ? `${key.slice('key/'.length)}-key` : 'unknown-key'}`, expect: { rule: 'auth.key-first', answer: 'refuse', status: 401, what: described, because: 'authentication comes before validation: a request without a valid key gets 401 whatever else is wrong with it', ...(parsedFirst ? { parsedFirst: true } : {}) } });
    }
  },
  judge: (input) => judgeAuth(input.exchanges, input),
};
