// Before the random sequences, one pass over every class of value and request the generator knows,
// so that each is met at least once whatever the seed: the random sequences then add combinations.
import type { CheckContext } from '../check.ts';
import type { ApiRequest, Exchange } from '../http/exchange.ts';
import { keylessMarker, onceMarker } from '../model/judgeData.ts';
import { createdId, jsonText, keylessAllowed, knownCategory, nearMissAuth, queryString } from './sendCommand.ts';
import { edgeCategoryIds, edgeNames, hugeBody } from './values.ts';
import { sendHttpProbes } from './httpProbes.ts';
import { idNearMisses, statusNearMisses } from './nearMisses.ts';
import { jsonSpellings } from './jsonSpellings.ts';

/** The kinds of status near miss the sweep sends every run; the sequences draw from them all. */
const sweptStatusMisses = ['status/prefix', 'status/cut-short', 'status/capitalised', 'status/padded-end', 'status/comma-list'];

type Send = (request: ApiRequest) => Promise<Exchange | undefined>;

/** Valid names, one per way careless code breaks them: each created, then read back by id. */
const sweepNames = ['🐕‍🦺 Max 𝒳𝓎', '<script>alert("pet")</script>', '<b>Bold</b> & "Quoted" \'single\'', 'C:\\pets\\rex \\u0041 \\n', 'Zoe\u0301 Cafe\u0301', 'ﬁﬂ Ⅻ ① Ｒｅｘ', 'Лайка 雪 כלב', 'Mixed Case NAME'];

const json = { 'content-type': 'application/json' };

export async function sweep(ctx: CheckContext, send: Send, created: string[]): Promise<void> {
  const readBack = async (id: string | undefined, caseName: string) => {
    if (id === undefined) return;
    created.push(id);
    await send({ method: 'GET', path: `/pets/${id}`, auth: 'key', operationId: 'getPet', intent: 'valid', case: `${caseName}/read-back` });
  };
  if (!ctx.options.readOnly) {
    for (const [i, name] of sweepNames.entries()) {
      const caseName = `generated/sweep/name-${i + 1}`;
      // The first as .NET's HttpClient sends every body and curl a large one: with `Expect:
      // 100-continue`, an expectation every HTTP/1.1 server meets (RFC 9110, 10.1.1: 417 is for one it cannot).
      const headers = i === 0 ? { ...json, expect: '100-continue' } : json;
      await readBack(createdId(await send({ method: 'POST', path: '/pets', auth: 'key', headers, body: jsonText(name, knownCategory(ctx, i), 'available'), operationId: 'createPet', intent: 'valid', case: caseName })), caseName);
    }
    // Every other JSON text of one NewPet the generator knows (whitespace, member order, escapes in
    // names and values), once each whatever the seed: each is the same value (RFC 8259), so created.
    for (const spelling of jsonSpellings) {
      const text = spelling.write({ name: `Spelled ${spelling.name}`, categoryId: knownCategory(ctx, 0), status: 'available' });
      await send({ method: 'POST', path: '/pets', auth: 'key', headers: json, body: text, operationId: 'createPet', intent: 'valid', case: `generated/sweep/json-text/${spelling.name}` });
    }
    // Values a deployment may refuse with a 4xx, and must keep exactly if it takes them.
    const edges: [string, string][] = [...edgeNames.map((name, i): [string, string] => [`name-${i + 1}`, jsonText(name, knownCategory(ctx, 0))]), ['huge-body', hugeBody(jsonText('Huge body', knownCategory(ctx, 0)))], ...edgeCategoryIds.map((id): [string, string] => [`categoryId-${id}`, jsonText('Edge category', id)])];
    for (const [what, text] of edges) {
      const caseName = `generated/sweep/edge/${what}`;
      await readBack(createdId(await send({ method: 'POST', path: '/pets', auth: 'key', headers: json, body: text, operationId: 'createPet', intent: 'edge', case: caseName })), caseName);
    }
  }
  const target = created[0] ?? ctx.knownPets()[0]?.idText;
  // Other spellings of a known id (hex, an exponent, a sign, a fraction): refused, or read as that
  // id, never as another pet; and an id with trailing text, which no reading makes an integer.
  if (target !== undefined) {
    for (const [what, id] of [['hex', `0x${BigInt(target).toString(16)}`], ['exponent', `${target}e0`], ['sign', `+${target}`], ['fraction', `${target}.0`]]) {
      await send({ method: 'GET', path: `/pets/${id}`, auth: 'key', operationId: 'getPet', intent: 'edge', case: `generated/sweep/malformed-id/${what}` });
    }
    await send({ method: 'GET', path: `/pets/${target}abc`, auth: 'key', operationId: 'getPet', intent: 'invalid', case: 'generated/sweep/malformed-id/trailing' });
  }
  // Ids next to the newest pet, read first, in digits and in bits: each names no pet (404) or the
  // pet with exactly that id; a cache keyed on part of the id answers the pet read before. The next
  // id is, where ids count up, the one the next create gets: asked for before it exists, as a
  // client polling for a pet it was told of does, it must not stay missing once created.
  const newest = created.at(-1) ?? target;
  if (newest !== undefined) {
    await send({ method: 'GET', path: `/pets/${newest}`, auth: 'key', operationId: 'getPet', intent: 'valid', case: 'generated/sweep/near-miss-id/same' });
    for (const miss of idNearMisses(BigInt(newest))) {
      const path = `/pets/${miss.value}`;
      const what = miss.kind.slice('id/'.length);
      await send({ method: 'GET', path, auth: 'key', operationId: 'getPet', intent: miss.kind === 'id/leading-zero' ? 'edge' : 'valid', case: `generated/sweep/near-miss-id/${what}` });
      // HEAD as GET, the same request without content (RFC 9110, 9.3.2): for an id past 2^32 from
      // the newest, which no pet has as likely as not and no other client's create takes between the
      // two (the next id might), the status GET just got.
      if (miss.kind === 'id/past-2^32' && !ctx.options.readOnly) await send({ method: 'HEAD', path, auth: 'key', operationId: 'unlisted', intent: 'valid', case: `generated/sweep/near-miss-id/${what}/head` });
    }
  }
  // Near misses of a status, one of each kind a filter gets wrong (a prefix, a cut, another case,
  // padding, a list, the parameter twice), of a status drawn by the seed: refused with any 4xx, or
  // a list of only pets with exactly that status (so none), which data-integrity judges.
  const statuses = ['available', 'pending', 'sold'];
  const drawn = statuses[Math.floor(ctx.random() * statuses.length)]!;
  const misses = statusNearMisses(drawn, statuses).filter((n) => sweptStatusMisses.includes(n.kind));
  const other = statuses.find((s) => s !== drawn)!;
  const statusQueries: [string, [string, string][]][] = [...misses.map((n): [string, [string, string][]] => [n.kind.slice('status/'.length), [['status', n.value], ['limit', '100']]]), ['repeated', [['status', drawn], ['status', other], ['limit', '100']]]];
  for (const [what, params] of statusQueries) {
    await send({ method: 'GET', path: `/pets${queryString(params)}`, auth: 'key', operationId: 'listPets', intent: 'edge', case: `generated/sweep/near-miss-status/${what}` });
  }
  // Lists a status with room for every pet of it (under 100), so that a new pet of that status
  // shows: the status with the fewest pets, as the deployment lists them.
  const counts: [string, number][] = [];
  for (const status of ['available', 'pending', 'sold']) {
    const page = await send({ method: 'GET', path: `/pets${queryString([['status', status], ['limit', '100']])}`, auth: 'key', operationId: 'listPets', intent: 'valid', case: `generated/sweep/count/${status}` });
    if (page && Array.isArray(page.response.value)) counts.push([status, page.response.value.length]);
  }
  const roomy = counts.sort((a, b) => a[1] - b[1]).find(([, n]) => n < 98)?.[0];
  // Seeded, and marked with the run: the same seed sends the same names in a later run otherwise.
  const token = () => `${ctx.runMark}-${Math.floor(ctx.random() * 1e9).toString(36)}`;
  // One create of a name no other request sends: one pet, under the id its 201 gave.
  if (roomy !== undefined && !ctx.options.readOnly) {
    await readBack(createdId(await send({ method: 'POST', path: '/pets', auth: 'key', headers: json, body: jsonText(`${onceMarker}${token()}`, knownCategory(ctx, 0), roomy), operationId: 'createPet', intent: 'valid', case: 'generated/sweep/once' })), 'generated/sweep/once');
  }
  // Requests without a key that would change or reveal state if a route forgot the key.
  // Most telling first: the client address's keyless quota may run out before the end.
  const keyless: ApiRequest[] = [];
  if (target !== undefined && !ctx.options.readOnly) {
    keyless.push(
      { method: 'POST', path: '/pets', auth: 'none', headers: json, body: jsonText(`${keylessMarker}${token()}`, knownCategory(ctx, 0), roomy ?? 'sold'), operationId: 'createPet', intent: 'unauthenticated' },
      { method: 'DELETE', path: `/pets/${target}`, auth: 'none', operationId: 'unlisted', intent: 'unauthenticated' },
      { method: 'PUT', path: `/pets/${target}`, auth: 'none', headers: json, body: jsonText('Overwritten without a key', '1', 'sold'), operationId: 'unlisted', intent: 'unauthenticated' },
    );
  }
  if (!ctx.options.readOnly) keyless.push({ method: 'HEAD', path: '/pets', auth: 'none', operationId: 'unlisted', intent: 'unauthenticated' });
  // Other spellings of the path, each with a near miss of the key the auth check does not send
  // (the bare key, an edit at its start): two dimensions in one request, as the keyless quota is small.
  const carried = ['key/alone', 'key/add/start', 'key/remove/start'];
  for (const [i, path] of ['/pets/', '/%70ets', '/PETS'].entries()) {
    const auth = nearMissAuth(ctx, carried[i]!);
    keyless.push({ method: 'GET', path, auth: auth ?? 'none', operationId: 'unlisted', intent: 'unauthenticated', ...(auth ? { case: `generated/sweep/near-miss-key/GET${path}` } : {}) });
  }
  for (const request of keyless) {
    if (!keylessAllowed(ctx, 3)) break;
    await send({ ...request, case: request.case ?? `generated/sweep/no-key/${request.method}${request.path.replace(/\/\d+$/, '/{id}')}` });
  }
  // The state those requests must not have touched, read with the key.
  if (target !== undefined) await send({ method: 'GET', path: `/pets/${target}`, auth: 'key', operationId: 'getPet', intent: 'valid', case: 'generated/sweep/no-key/read-back' });
  if (roomy !== undefined) {
    await send({ method: 'GET', path: `/pets${queryString([['status', roomy], ['limit', '100']])}`, auth: 'key', operationId: 'listPets', intent: 'valid', case: 'generated/sweep/no-key/list' });
  }
  // One list in four spellings HTTP makes equivalent: each gets the same status.
  const spellings: [string, Partial<ApiRequest>][] = [
    ['plain', { auth: 'key' }],
    ['header-AUTHORIZATION,scheme-bearer,accept-absent', { auth: { key: 'key', headerName: 'AUTHORIZATION', scheme: 'bearer' }, omitHeaders: ['accept'] }],
    ['accept-q-values,query-reversed,if-none-match', { auth: 'key', headers: { accept: 'application/json;q=0.9, */*;q=0.1', 'if-none-match': '"pets-conformance-matches-nothing"' }, path: `/pets${queryString([['status', 'available'], ['limit', '5']])}` }],
    // Every octet of the values percent-encoded: the same URI (RFC 3986, 6.2.2.2).
    ['query-percent-encoded', { auth: 'key', path: `/pets${queryString([['limit', '5'], ['status', 'available']], { reverseQuery: false, encodeQuery: true })}` }],
  ];
  for (const [what, spelling] of spellings) {
    await send({ method: 'GET', path: `/pets${queryString([['limit', '5'], ['status', 'available']])}`, operationId: 'listPets', intent: 'valid', equivalence: 'generated/sweep/equivalent', ...spelling, auth: spelling.auth ?? 'key', case: `generated/sweep/equivalent/${what}` } as ApiRequest);
  }
  // The default of limit holds for every list, a filtered one too ("default 20": the status with
  // the most pets, which may have more than 20); and a parameter the
  // contract does not name is ignored or refused with a 4xx, never a server error.
  const fullest = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? drawn;
  await send({ method: 'GET', path: `/pets${queryString([['status', fullest]])}`, auth: 'key', operationId: 'listPets', intent: 'valid', case: 'generated/sweep/status-without-limit' });
  await send({ method: 'GET', path: `/pets${queryString([['limit', '5'], ['sort', 'name']])}`, auth: 'key', operationId: 'listPets', intent: 'edge', case: 'generated/sweep/unknown-parameter' });
  // Compression asked for: the answer, once decoded as it says, is the same answer.
  if (target !== undefined) {
    for (const encoding of ['gzip', 'gzip, deflate, br']) {
      await send({ method: 'GET', path: `/pets/${target}`, auth: 'key', headers: { 'accept-encoding': encoding }, operationId: 'getPet', intent: 'valid', case: `generated/sweep/accept-encoding/${encoding.replace(/[^a-z]+/g, '-')}` });
    }
  }
  // Every coding refused by its qvalue (RFC 9110, 12.5.3: q=0 is "not acceptable"), on the largest
  // page, which a deployment that compresses above a size compresses if any: sent without one.
  await send({ method: 'GET', path: '/pets?limit=100', auth: 'key', headers: { 'accept-encoding': 'gzip;q=0, deflate;q=0, br;q=0, identity' }, operationId: 'listPets', intent: 'valid', case: 'generated/sweep/accept-encoding/refused' });
  // Six requests at once (eight with a second key): each answered as alone, and each counted.
  const burst: ApiRequest[] = [];
  for (let i = 0; i < 2 && !ctx.options.readOnly; i++) burst.push({ method: 'POST', path: '/pets', auth: 'key', headers: json, body: jsonText(`Sweep burst ${i + 1}`, knownCategory(ctx, i), 'pending'), operationId: 'createPet', intent: 'valid' });
  for (const id of [target, created[1] ?? target]) if (id !== undefined) burst.push({ method: 'GET', path: `/pets/${id}`, auth: 'key', operationId: 'getPet', intent: 'valid' });
  for (const limit of ['3', '7', '11', '13']) if (burst.length < 6) burst.push({ method: 'GET', path: `/pets?limit=${limit}`, auth: 'key', operationId: 'listPets', intent: 'valid' });
  // With a second key, two of its lists in the same burst: each answer carries its own key's
  // limit and count, whatever else is in flight (a limiter that keeps the plan of the request at
  // hand in one shared place gives one key's answers the other's).
  const second = ctx.keyQuota('key2').remaining;
  if (ctx.apiKey2 !== undefined && (second === undefined || second >= 4)) for (const limit of ['2', '4']) burst.push({ method: 'GET', path: `/pets?limit=${limit}`, auth: 'key2', operationId: 'listPets', intent: 'valid' });
  // The client paces parallel requests as one; a burst is just not worth a wait for the next window.
  const { remaining } = ctx.keyQuota();
  if (remaining === undefined || remaining >= burst.length + 2) {
    const answers = await Promise.all(burst.map((request, i) => send({ ...request, burst: -1, case: `generated/sweep/burst/${i + 1}` })));
    for (const [i, answer] of answers.entries()) {
      if (answer?.operationId === 'createPet') await readBack(createdId(answer), `generated/sweep/burst/${i + 1}`);
    }
  }
  // Errors are JSON whatever the client accepts.
  for (const accept of ['*/*', 'text/html,application/xhtml+xml,*/*;q=0.8']) {
    await send({ method: 'GET', path: '/pets?limit=0', auth: 'key', headers: { accept }, operationId: 'listPets', intent: 'invalid', case: `generated/sweep/error-accept/${accept.split(',')[0]!.replace('/', '-').replace('*-*', 'any')}` });
  }
  await sendHttpProbes(ctx, send, target);
  // Undocumented methods with the key: served or refused, never a 5xx (none of them with --read-only: only GETs).
  for (const method of ctx.options.readOnly ? [] : (['HEAD', 'OPTIONS', 'PUT'] as const)) {
    await send({ method, path: '/pets', auth: 'key', ...(method === 'PUT' ? { headers: json, body: '[]' } : {}), operationId: 'unlisted', intent: 'valid', case: `generated/sweep/with-key/${method}/pets` });
  }
  // The collection's method on an item: a router that shares one method table between the two
  // answers 405 with an Allow naming the method it refused.
  if (!ctx.options.readOnly && target !== undefined) {
    await send({ method: 'POST', path: `/pets/${target}`, auth: 'key', headers: json, body: jsonText('Posted to an item', knownCategory(ctx, 0), 'available'), operationId: 'unlisted', intent: 'valid', case: 'generated/sweep/with-key/POST/pet' });
  }
}
