// The judges of the checks that send their own cases, on hand-built exchanges carrying what their
// plans expect of them: no server, no run.
import { describe, expect, it } from 'vitest';
import { testSpec } from '../../mock/testing.ts';
import type { Exchange, Expectation } from '../http/exchange.ts';
import { SpecValidators } from '../specValidators.ts';
import { exchange, rateHeaders } from '../testing/exchanges.ts';
import { judgeAuth } from './judgeAuthCases.ts';
import { judgeCreatePet, readBackCase } from './judgeCreateCases.ts';
import { judgeGeneratedInput } from './judgeGeneratedInput.ts';
import { judgeGetPet, knownPetCase } from './judgeGetPetCases.ts';
import { conditionalOn, judgeLifecycle, lifecycleCases } from './judgeLifecycle.ts';
import { judgeRateProbe, lastRefusal, probeCases, retryWaitMs } from './judgeRateProbe.ts';
import type { Judgement } from './judgement.ts';
import { runModel } from './runModel.ts';
import { modelOptions } from './testing/modelExchanges.ts';
import type { KnownPet, RunFacts } from './runFacts.ts';

const known: KnownPet[] = [{ id: 1, idText: '1', name: 'Rex', categoryId: 2, status: 'available' }];
const facts = async (more: Partial<RunFacts> = {}): Promise<RunFacts> => ({ validators: new SpecValidators(await testSpec()), knownPets: known, probeMaxRequests: 3, ...more });
const errorOf = (status: number) => JSON.stringify({ code: 'E', message: 'no', status });
const pet = (id: number | string, more = '') => `{"id":${id},"name":"Rex","categoryId":2,"status":"available"${more}}`;
const withExpect = (e: Exchange, expect: Expectation): Exchange => ({ ...e, expect });
const notHeld = (judged: Judgement[]) => judged.filter((j) => j.outcome !== 'held').map((j) => [j.rule, j.outcome, j.message]);

describe('the auth check\'s judge', () => {
  const wrongKey = (status: number, body: string, headers: Record<string, string> = {}, operationId = 'listPets') => withExpect(exchange({ status, body, headers, operationId, intent: 'unauthenticated', bucket: 'anonymous', case: 'auth/list-pets/no-header' }), { rule: 'auth.wrong-key-401', answer: 'refuse', status: 401, what: 'no Authorization header', because: 'every operation needs the key as "Authorization: Bearer <API_KEY>"' });

  it('holds a wrong presentation refused with 401 and an Error, and fails one served', async () => {
    expect(notHeld(judgeAuth([wrongKey(401, errorOf(401))], await facts()))).toEqual([]);
    expect(notHeld(judgeAuth([wrongKey(200, '[]')], await facts()))).toEqual([['auth.wrong-key-401', 'failure', 'GET /pets accepted no Authorization header (200); every operation needs the key as "Authorization: Bearer <API_KEY>", so it must be refused with 401.']]);
  });

  it('fails a 401 whose Error says another status', async () => {
    expect(notHeld(judgeAuth([wrongKey(401, errorOf(400))], await facts()))[0]![2]).toMatch(/an Error whose status is 400; it must equal the HTTP status/);
  });

  it('warns of GET /store/orders not served and skips its authentication, with why', async () => {
    const judged = judgeAuth([{ ...wrongKey(404, errorOf(404), {}, 'listStoreOrders'), path: '/store/orders' }], await facts());
    expect(judged.map((j) => j.outcome)).toEqual(['warning', 'skipped']);
    expect(judged[1]!.message).toBe('GET /store/orders answered 404: the deployment does not serve it, which the contract leaves open');
  });

  it('warns, rather than fails, of malformed JSON refused 400 before the key was checked', async () => {
    const malformed = withExpect(exchange({ method: 'POST', status: 400, body: errorOf(400), operationId: 'createPet', intent: 'unauthenticated', bucket: 'anonymous', case: 'auth/first/malformed-body/no-key' }), { rule: 'auth.key-first', answer: 'refuse', status: 401, what: 'malformed JSON with no key', parsedFirst: true });
    expect(judgeAuth([malformed], await facts()).map((j) => j.outcome)).toEqual(['warning', 'held']);
  });

  it('fails the run\'s key refused with 401 on an operation, once per operation', async () => {
    const valid = () => withExpect(exchange({ status: 401, body: errorOf(401), operationId: 'getPet', path: '/pets/1', case: 'auth/get-pet/valid-key' }), { rule: 'auth.key-accepted', answer: 'accept', what: 'the run\'s key' });
    const judged = judgeAuth([valid(), valid()], await facts());
    expect(judged.map((j) => [j.outcome, j.kind])).toEqual([['failure', 'auth.key-accepted'], ['failure', 'auth.key-accepted']]);
  });
});

describe('the get-pet check\'s judge', () => {
  it('holds the listed pet fetched as listed, and fails one in another category', async () => {
    expect(notHeld(judgeGetPet([exchange({ status: 200, operationId: 'getPet', path: '/pets/1', body: pet(1), case: knownPetCase })], await facts()))).toEqual([]);
    const moved = exchange({ status: 200, operationId: 'getPet', path: '/pets/1', body: pet(1).replace('"categoryId":2', '"categoryId":3'), case: knownPetCase });
    expect(notHeld(judgeGetPet([moved], await facts()))).toEqual([['get-pet.known', 'failure', 'GET /pets/1 returned categoryId 3 where the list said 2.']]);
  });

  it('fails an id no pet has answered 400 where the contract names 404', async () => {
    const unknown = withExpect(exchange({ status: 400, operationId: 'getPet', path: '/pets/1000001', body: errorOf(400), intent: 'invalid', case: 'get-pet/path/petId/unknown' }), { rule: 'get-pet.unknown-404', answer: 'refuse', status: 404, what: 'id 1000001, which no pet has', because: 'petId is an int64 and no pet has it' });
    expect(notHeld(judgeGetPet([unknown], await facts()))[0]).toEqual(['get-pet.unknown-404', 'failure', 'GET /pets/1000001, sent id 1000001, which no pet has, was answered 400; petId is an int64 and no pet has it, so it must be refused with 404 and an Error body.']);
  });

  const unknownCase = (id: string, status: number, body: string, name = 'int64-max') => withExpect(exchange({ status, operationId: 'getPet', path: `/pets/${id}`, body, intent: 'invalid', case: `get-pet/path/petId/${name}` }), { rule: 'get-pet.unknown-404', answer: 'refuse', status: 404, what: `id ${id}, which no pet has`, because: 'petId is an int64 and no pet has it' });

  it('takes an id the run believed no pet has, answered 200 with the pet of exactly that id, for a pet that exists: inconclusive, not a failure', async () => {
    const max = '9223372036854775807';
    const judged = judgeGetPet([unknownCase(max, 200, pet(max)), unknownCase('1000001', 200, pet('1000001'), 'unknown')], await facts());
    expect(judged.map((j) => [j.rule, j.outcome])).toEqual([['get-pet.unknown-404', 'inconclusive'], ['get-pet.unknown-404', 'inconclusive']]);
    expect(judged[0]!.message).toBe(`GET /pets/${max} answered 200 with the pet whose id is ${max}: the run took ${max} for an id no pet has, but the deployment has a pet with it (the service may assign any int64 as an id), so this case cannot show whether an id no pet has gets 404.`);
  });

  it('still fails an id the run believed no pet has answered 200 with another pet or with no Pet, and anything but 404 else', async () => {
    const max = '9223372036854775807';
    const failures = (e: Exchange) => notHeld(judgeGetPet([e], facts0)).filter(([, outcome]) => outcome === 'failure').map(([rule, , message]) => [rule, message]);
    const facts0 = await facts();
    expect(failures(unknownCase(max, 200, pet(1)))).toEqual([['get-pet.unknown-404', `GET /pets/${max}, sent id ${max}, which no pet has, was answered 200 with the pet whose id is 1; an int64 names the pet with exactly that id, or none, which is refused with 404 and an Error body.`]]);
    expect(failures(unknownCase(max, 200, `{"id":${max}}`))[0]![1]).toMatch(/was answered 200 with a body that is no Pet \(name is required\)/);
    expect(failures(unknownCase(max, 200, '[]'))).toHaveLength(1);
    expect(failures(unknownCase(max, 400, errorOf(400)))[0]![1]).toMatch(/was answered 400; petId is an int64 and no pet has it, so it must be refused with 404/);
    expect(notHeld(judgeGetPet([unknownCase(max, 404, errorOf(404))], facts0))).toEqual([]);
  });

  it('judges a negative decimal id as the int64 it is: the pet with exactly that id, or 404, never a refusal as malformed', async () => {
    const facts0 = await facts();
    // However the plan labelled it: -1 named as no int64 (as earlier plans did), or as an int64 no pet has.
    const malformedLabel = (status: number, body: string) => withExpect(exchange({ status, operationId: 'getPet', path: '/pets/-1', body, intent: 'invalid', case: 'get-pet/path/petId/negative' }), { rule: 'get-pet.malformed-4xx', answer: 'refuse', status: '4xx', what: 'id -1', because: 'petId is an int64' });
    for (const served of [malformedLabel(200, pet(-1)), unknownCase('-1', 200, pet(-1), 'negative')]) {
      expect(judgeGetPet([served], facts0).map((j) => [j.rule, j.outcome])).toEqual([['get-pet.unknown-404', 'inconclusive']]);
    }
    for (const missing of [malformedLabel(404, errorOf(404)), unknownCase('-1', 404, errorOf(404), 'negative')]) expect(notHeld(judgeGetPet([missing], facts0))).toEqual([]);
    expect(notHeld(judgeGetPet([malformedLabel(200, pet(1))], facts0))).toEqual([['get-pet.unknown-404', 'failure', 'GET /pets/-1, sent id -1, was answered 200 with the pet whose id is 1; an int64 names the pet with exactly that id, or none, which is refused with 404 and an Error body.']]);
    // A word is still no int64: any 4xx refuses it, and 200 fails.
    const word = (status: number, body: string) => withExpect(exchange({ status, operationId: 'getPet', path: '/pets/abc', body, intent: 'invalid', case: 'get-pet/path/petId/non-integer' }), { rule: 'get-pet.malformed-4xx', answer: 'refuse', status: '4xx', what: 'id abc', because: 'petId is an int64' });
    expect(notHeld(judgeGetPet([word(400, errorOf(400))], facts0))).toEqual([]);
    expect(notHeld(judgeGetPet([word(200, pet(1))], facts0))[0]![1]).toBe('failure');
  });

  it('calls the known-pet case inconclusive when the deployment lists no pet', async () => {
    expect(judgeGetPet([], await facts({ knownPets: [] }))).toEqual([{ rule: 'get-pet.known', operationId: 'getPet', outcome: 'inconclusive', message: 'the deployment lists no pets, so there is no known id to fetch', case: knownPetCase }]);
  });
});

describe('the create-pet check\'s judge', () => {
  const created = (status: number, body: string) => withExpect(exchange({ method: 'POST', status, body, operationId: 'createPet', case: 'create-pet/body/required-only' }), { rule: 'create.valid-created', answer: 'accept', what: 'the NewPet with only its required properties', because: 'it is a valid NewPet', sent: { name: 'Rex', categoryId: 2 } });

  it('holds a valid NewPet created with 201 as sent, and read back by its id as POST answered it', async () => {
    const back = exchange({ status: 200, operationId: 'getPet', path: '/pets/61', body: pet(61), case: readBackCase('create-pet/body/required-only') });
    expect(notHeld(judgeCreatePet([created(201, pet(61)), back], await facts()))).toEqual([]);
  });

  it('leaves a 201 that changes a field to data.created-as-sent (judgeData.test.ts), holding it created', async () => {
    expect(notHeld(judgeCreatePet([created(201, pet(61).replace('Rex', 'rex'))], await facts()))).toEqual([]);
  });

  it('leaves the read-back inconclusive when getPet is gone after its announced removal (by the answer\'s Date), and fails it gone before', async () => {
    const goneAt = (date: string) => exchange({ status: 410, operationId: 'getPet', path: '/pets/61', body: errorOf(410), headers: { date }, case: readBackCase('create-pet/body/required-only') });
    const after = judgeCreatePet([created(201, pet(61)), goneAt('Thu, 05 Dec 2030 13:00:00 GMT')], await facts());
    expect(notHeld(after)).toEqual([['create.read-back', 'inconclusive', 'answered 410 after 5 December 2030, getPet\'s announced removal: gone, as the contract announces, so whether the created pet is readable by its id cannot be judged']]);
    expect(notHeld(judgeCreatePet([created(201, pet(61)), goneAt('Mon, 01 Jun 2026 12:30:30 GMT')], await facts())).map((j) => j[1])).toEqual(['failure']);
  });

  it('fails an invalid NewPet answered 422 where the contract names 400', async () => {
    const float = withExpect(exchange({ method: 'POST', status: 422, body: errorOf(422), operationId: 'createPet', intent: 'invalid', case: 'create-pet/body/categoryId/float' }), { rule: 'create.invalid-400', answer: 'refuse', status: 400, what: 'categoryId 1.5', because: 'NewPet.categoryId is an int64 integer, and the contract names 400 for a body "missing required fields or [with] invalid values"' });
    expect(notHeld(judgeCreatePet([float], await facts()))[0]![2]).toMatch(/^POST \/pets, sent categoryId 1\.5, was answered 422; .* so it must be refused with 400 and an Error body\.$/);
  });
});

describe('the pet-lifecycle check\'s judge', () => {
  const create = (index: number, id: number) => withExpect(exchange({ method: 'POST', status: 201, body: pet(id), operationId: 'createPet', case: lifecycleCases.create(index) }), { rule: 'lifecycle.created', answer: 'accept', what: 'a valid NewPet', sent: { name: 'Rex', categoryId: 2, status: 'available' } });

  it('leaves an id given before to data.new-id (judgeData.test.ts), holding the creates', async () => {
    expect(notHeld(judgeLifecycle([create(1, 1)], await facts()))).toEqual([]);
    expect(notHeld(judgeLifecycle([create(1, 70), create(2, 70)], await facts()))).toEqual([]);
  });

  it('fails a filtered list, not full, that lacks the pets just created with its status', async () => {
    const list = exchange({ path: '/pets?status=available&limit=100', status: 200, body: `[${pet(5)}]`, case: lifecycleCases.listCreated });
    expect(notHeld(judgeLifecycle([create(1, 70), list], await facts()))).toEqual([['lifecycle.listed', 'failure', 'GET /pets?status=available&limit=100 lists 1 pets, all that have status available, yet not the new pet 70 created with that status.']]);
  });

  it('leaves the fetch of the created pet inconclusive when getPet is gone after its announced removal, and fails it gone before', async () => {
    const goneAt = (date: string) => exchange({ status: 410, operationId: 'getPet', path: '/pets/70', body: errorOf(410), headers: { date }, case: lifecycleCases.getCreated });
    expect(notHeld(judgeLifecycle([create(1, 70), goneAt('Thu, 05 Dec 2030 13:00:00 GMT')], await facts())).map((j) => j.slice(0, 2))).toEqual([['lifecycle.fetched', 'inconclusive']]);
    expect(notHeld(judgeLifecycle([create(1, 70), goneAt('Mon, 01 Jun 2026 12:30:30 GMT')], await facts())).map((j) => j.slice(0, 2))).toEqual([['lifecycle.fetched', 'failure']]);
  });

  describe('the list again, conditional on the list before the creates', () => {
    const before = (count: number, headers: Record<string, string>) => exchange({ path: '/pets?status=available&limit=100', status: 200, body: `[${Array.from({ length: count }, (_, i) => pet(i + 1)).join(',')}]`, headers, case: lifecycleCases.listBefore('available') });
    const again = (headers: Record<string, string>) => {
      const e = exchange({ path: '/pets?status=available&limit=100', status: 304, case: lifecycleCases.listCreated });
      return { ...e, request: { ...e.request, headers } };
    };
    const createdOn = (date: string) => {
      const e = create(1, 70);
      return { ...e, response: { ...e.response, headers: { ...e.response.headers, date } } };
    };
    const listed = async (...exchanges: Exchange[]) => notHeld(judgeLifecycle(exchanges, await facts())).filter((j) => j[0] === 'lifecycle.listed').map((j) => [j[1], j[2]]);

    it('sends the ETag of the list before in If-None-Match, else its Last-Modified in If-Modified-Since', () => {
      expect(conditionalOn(before(1, { etag: '"a"', 'last-modified': 'Mon, 01 Jun 2026 12:00:00 GMT' }))).toEqual({ 'if-none-match': '"a"' });
      expect(conditionalOn(before(1, { 'last-modified': 'Mon, 01 Jun 2026 12:00:00 GMT' }))).toEqual({ 'if-modified-since': 'Mon, 01 Jun 2026 12:00:00 GMT' });
      expect(conditionalOn(before(1, {}))).toEqual({});
      expect(conditionalOn(undefined)).toEqual({});
    });

    it('fails a 304 to the list that has since gained the new pet', async () => {
      const judged = await listed(before(1, { etag: '"a"' }), createdOn('Mon, 01 Jun 2026 12:30:30 GMT'), again({ 'if-none-match': '"a"' }));
      expect(judged).toEqual([['failure', 'GET /pets?status=available&limit=100 with If-None-Match: "a", from the list of 1 pets before, answered 304 Not Modified, yet the list has since gained the new pet 70 with that status: a 304 says the list is unchanged (RFC 9110, 13.1 and 15.4.5). Derive ETag and Last-Modified from the list\'s content, or send neither.']]);
      expect((await listed(before(1, { 'last-modified': 'Mon, 01 Jun 2020 00:00:00 GMT' }), createdOn('Mon, 01 Jun 2026 12:30:30 GMT'), again({ 'if-modified-since': 'Mon, 01 Jun 2020 00:00:00 GMT' })))[0]?.[0]).toBe('failure');
    });

    it('fails a 304 to the list asked for with no condition, full or not (the list before carried no validator)', async () => {
      const said = 'GET /pets?status=available&limit=100, which carried no condition, answered 304 Not Modified; a 304 answers a conditional request only (RFC 9110, 15.4.5), and this one must list pets with 200.';
      for (const count of [1, 100]) expect(await listed(before(count, {}), createdOn('Mon, 01 Jun 2026 12:30:30 GMT'), again({})), String(count)).toEqual([['failure', said]]);
    });

    it('tells nothing from a 304 where the list before was full, its tag was weak, or its Last-Modified is within a second of the pets\' creation', async () => {
      expect((await listed(before(100, { etag: '"a"' }), createdOn('Mon, 01 Jun 2026 12:30:30 GMT'), again({ 'if-none-match': '"a"' })))[0]?.[0]).toBe('inconclusive');
      expect((await listed(before(1, { etag: 'W/"1780317030"' }), createdOn('Mon, 01 Jun 2026 12:30:30 GMT'), again({ 'if-none-match': 'W/"1780317030"' })))[0]?.[0]).toBe('inconclusive');
      for (const modified of ['Mon, 01 Jun 2026 12:30:30 GMT', 'Mon, 01 Jun 2026 12:30:29 GMT']) {
        expect((await listed(before(1, { 'last-modified': modified }), createdOn('Mon, 01 Jun 2026 12:30:30 GMT'), again({ 'if-modified-since': modified })))[0]?.[0], modified).toBe('inconclusive');
      }
    });
  });

  describe('a read of the Location', () => {
    const createdAt = (location: string) => {
      const e = create(1, 70);
      return { ...e, response: { ...e.response, headers: { ...e.response.headers, location }, rawHeaders: [...e.response.rawHeaders, ['location', location] as [string, string]] } };
    };
    const read = (status: number, body: string, contentType = 'application/json') => exchange({ path: '/../pets/70', operationId: 'unlisted', status, body, headers: { 'content-type': contentType }, case: lifecycleCases.readLocation });
    const judged = async (status: number, body: string, contentType?: string) => judgeLifecycle([createdAt('/pets/70'), read(status, body, contentType)], await facts()).filter((j) => j.rule === 'lifecycle.location').map((j) => [j.outcome, j.operationId, j.message]);

    it('fails a Location that leads nowhere, naming where it resolved and what to send', async () => {
      for (const status of [404, 410]) {
        expect(await judged(status, errorOf(status))).toEqual([['failure', 'createPet', `POST /pets created pet 70 with Location "/pets/70", and GET http://api.test/pets/70 answered ${status}: a 201's Location identifies the resource created (RFC 9110, 15.3.2), so it must lead to the pet. Give its URL as a client reaches it, such as http://api.test/v1/pets/70, or send no Location.`]]);
      }
    });

    it('fails a Location that leads to another pet, and holds one that leads to the pet or to a page of another form', async () => {
      expect((await judged(200, pet(71)))[0]?.slice(0, 2)).toEqual(['failure', 'createPet']);
      expect(await judged(200, pet(70))).toEqual([['held', 'createPet', undefined]]);
      expect(await judged(200, '<html>Rex</html>', 'text/html')).toEqual([['held', 'createPet', undefined]]);
    });

    it('tells nothing from a refused key, a spent quota, a refused request or method, a server\'s trouble or a redirect', async () => {
      for (const status of [401, 403, 429, 400, 405, 503, 301]) expect((await judged(status, errorOf(status))).map((j) => j[0]), String(status)).toEqual(['inconclusive']);
    });

    it('tells nothing from a 404 or 410 after getPet\'s announced removal', async () => {
      const gone = { ...read(410, errorOf(410)), response: { ...read(410, errorOf(410)).response, headers: { ...read(410, errorOf(410)).response.headers, date: 'Fri, 06 Dec 2030 12:00:00 GMT' } } };
      expect(judgeLifecycle([createdAt('/pets/70'), gone], await facts()).filter((j) => j.rule === 'lifecycle.location').map((j) => j.outcome)).toEqual(['inconclusive']);
    });
  });

  it('fails a client\'s id taken for the new pet', async () => {
    const withId = withExpect(exchange({ method: 'POST', status: 201, body: pet(1), operationId: 'createPet', intent: 'invalid', case: lifecycleCases.withId }), { rule: 'lifecycle.client-id-ignored', answer: 'may-refuse', status: '4xx', what: 'a NewPet carrying the id 1', because: 'a client may not choose the id' });
    expect(notHeld(judgeLifecycle([withId], await facts()))).toEqual([['lifecycle.client-id-ignored', 'failure', 'POST /pets with the id 1 of a listed pet in the body created a pet with id 1; the service assigns ids, so a new pet never takes one already used.']]);
  });
});

describe('the rate-limit probe\'s judge', () => {
  const spend = (status: number, remaining: number, headers: Record<string, string> = {}) => exchange({ path: '/pets?limit=1', status, body: status === 429 ? errorOf(429) : '[]', intent: 'over-limit', case: probeCases.spend, headers: { ...rateHeaders(remaining), ...headers } });

  it('holds a 429 that came once Remaining reached 0, with Retry-After and an Error', async () => {
    expect(notHeld(judgeRateProbe([spend(200, 1), spend(200, 0), spend(429, 0, { 'retry-after': '30' })], await facts()))).toEqual([]);
  });

  it('fails a 429 while the previous answer said requests were left', async () => {
    const judged = notHeld(judgeRateProbe([spend(200, 5), spend(429, 0)], await facts()));
    expect(judged.map((j) => j[0])).toEqual(['probe.429-when-announced']);
  });

  it('leaves a 429\'s Retry-After and Error body to the model, which fails the probe\'s 429 without them', async () => {
    const bare = { ...spend(429, 0), seq: 2, response: { ...spend(429, 0).response, body: 'slow down', json: undefined, value: undefined, headers: { ...rateHeaders(0), 'content-type': 'application/json' } } };
    expect(notHeld(judgeRateProbe([spend(200, 0), bare], await facts()))).toEqual([]);
    const failed = new Set(runModel([spend(200, 1), bare], modelOptions()).judgements.filter((j) => j.outcome === 'failure').map((j) => j.rule));
    expect(failed).toContain('headers.rate-limit-present');
    expect(failed).toContain('body.json');
  });

  it('fails a deployment that never answers 429 once every request it may spend was answered, more than its Limit in one window', async () => {
    const stuck = () => spend(200, 2, { 'x-ratelimit-limit': '2' });
    const judged = notHeld(judgeRateProbe([stuck(), stuck(), stuck(), stuck()], await facts()));
    expect(judged).toEqual([['probe.429-reached', 'failure', 'No 429 after 4 requests; the last answer said X-RateLimit-Limit 2 and Remaining 2. Requests over the limit must get 429.']]);
  });

  it('calls every request answered without a 429 not judged when no window served more than its Limit: the window slid on, or the answers came too slowly', async () => {
    const reset = Number(rateHeaders()['x-ratelimit-reset']);
    const sliding = [0, 1, 2, 3].map((i) => spend(200, 2, { 'x-ratelimit-limit': '3', 'x-ratelimit-reset': String(reset + i) }));
    const judged = notHeld(judgeRateProbe(sliding, await facts()));
    expect(judged.map((j) => [j[0], j[1]])).toEqual([['probe.429-reached', 'inconclusive']]);
    expect(judged[0]![2]).toMatch(/no window \(one X-RateLimit-Reset\) served more than its X-RateLimit-Limit/);
  });

  it('fails requests served without a 429 past twice the Limit within a minute, though each answer names a window of its own (a window counted in milliseconds)', async () => {
    const reset = Number(rateHeaders()['x-ratelimit-reset']);
    const atMs = (e: Exchange, ms: number): Exchange => ({ ...e, sentAt: e.sentAt + ms });
    const fast = [0, 1, 2, 3, 4, 5, 6].map((i) => atMs(spend(200, 2, { 'x-ratelimit-limit': '3', 'x-ratelimit-reset': String(reset + i) }), i * 1_000));
    const judged = notHeld(judgeRateProbe(fast, await facts({ probeMaxRequests: 6 })));
    expect(judged.map((j) => [j[0], j[1]])).toEqual([['probe.429-reached', 'failure']]);
    expect(judged[0]![2]).toMatch(/^No 429 for 7 requests served within 6\.0 s \(#\d+ to #\d+\), each answer saying X-RateLimit-Limit 3; .*a limit of 3 lets at most 6 through in any minute/);
    // The same requests spread over three minutes: no minute saw more than twice the Limit.
    const slow = fast.map((e, i) => atMs(e, i * 29_000));
    expect(notHeld(judgeRateProbe(slow, await facts({ probeMaxRequests: 6 }))).map((j) => [j[0], j[1]])).toEqual([['probe.429-reached', 'inconclusive']]);
  });

  it('calls a probe that stopped before its budget, with no 429, not judged: never passed', async () => {
    const judged = notHeld(judgeRateProbe([spend(200, 9), spend(200, 8)], await facts()));
    expect(judged).toEqual([['probe.429-reached', 'inconclusive', 'the probe stopped after 2 requests without a 429; the last answer said X-RateLimit-Limit 300 and Remaining 8: whether requests over the limit get 429 was not seen']]);
  });

  describe('the retry once the last 429\'s Retry-After has passed', () => {
    const retry = (status: number, headers: Record<string, string> = {}) => exchange({ path: '/pets?limit=1', status, body: status === 429 ? errorOf(429) : '[]', case: probeCases.afterRetryAfter, headers: { ...rateHeaders(status === 429 ? 0 : 299), ...headers } });
    const again = exchange({ path: '/pets?limit=1', status: 429, body: errorOf(429), intent: 'over-limit', case: probeCases.again, headers: { ...rateHeaders(0), 'retry-after': '30' } });
    const judged = async (...answers: Exchange[]) => judgeRateProbe([spend(200, 0), spend(429, 0, { 'retry-after': '30' }), again, ...answers], await facts()).filter((j) => j.rule === 'probe.retry-after-honoured').map((j) => [j.outcome, j.message]);

    it('waits the last 429\'s Retry-After and half a second, an HTTP-date read against the 429\'s Date', () => {
      expect(retryWaitMs(again)).toBe(30_500);
      const dated = exchange({ status: 429, body: errorOf(429), headers: { ...rateHeaders(0), date: 'Mon, 01 Jun 2026 12:30:30 GMT', 'retry-after': 'Mon, 01 Jun 2026 12:31:00 GMT' } });
      expect(retryWaitMs(dated)).toBe(30_500);
      expect(lastRefusal([spend(429, 0), again, spend(200, 5)])).toBe(again);
    });

    it('holds a retry served', async () => {
      expect(await judged(retry(200))).toEqual([['held', undefined]]);
    });

    it('fails a retry refused again with a Retry-After no longer than the one waited out, naming both', async () => {
      const [outcome, message] = (await judged(retry(429, { 'retry-after': '0' })))[0] as [string, string];
      expect(outcome).toBe('failure');
      expect(message).toMatch(/^#\d+ answered 429 with Retry-After "30" and X-RateLimit-Reset \d+; the list sent 30\.5 s after it was refused again in that same window, with Retry-After "0"\. A client that waits as Retry-After tells must not be refused/);
      expect((await judged(retry(429, { 'retry-after': '30' })))[0]?.[0]).toBe('failure');
    });

    it('tells nothing from a longer Retry-After, a refusal in another window or another refusal, which may be the ban the contract allows', async () => {
      expect((await judged(retry(429, { 'retry-after': '600' })))[0]?.[0]).toBe('inconclusive');
      const later = String(Number(rateHeaders()['x-ratelimit-reset']) + 20);
      expect((await judged(retry(429, { 'retry-after': '20', 'x-ratelimit-reset': later })))[0]?.[0]).toBe('inconclusive');
      expect((await judged(retry(403, {})))[0]?.[0]).toBe('inconclusive');
    });

    it('does not apply when the probe did not retry', async () => {
      expect(await judged()).toEqual([]);
    });
  });

  describe('the second key\'s retry, after a spend that stopped at its first 429', () => {
    const key2 = (status: number, c: string, headers: Record<string, string> = {}) => exchange({ path: '/pets?limit=1', bucket: 'key2', status, body: status === 429 ? errorOf(429) : '[]', intent: 'over-limit', case: c, headers: { ...rateHeaders(status === 429 ? 0 : 59), 'x-ratelimit-limit': '60', ...headers } });
    const refused = () => key2(429, probeCases.secondKeySpend, { 'retry-after': '30' });
    const judged = async (answers: Exchange[], more: Partial<RunFacts> = {}) => judgeRateProbe(answers, await facts(more)).filter((j) => j.rule === 'probe.retry-after-honoured').map((j) => [j.outcome, j.message]);

    it('holds a retry served', async () => {
      expect(await judged([key2(200, probeCases.secondKeySpend), refused(), key2(200, probeCases.secondKeyRetry)])).toEqual([['held', undefined]]);
    });

    it('fails a 429 that tells the same wait again or a shorter one, in this window or the next, naming both', async () => {
      const later = String(Number(rateHeaders()['x-ratelimit-reset']) + 60);
      for (const answer of [key2(429, probeCases.secondKeyRetry, { 'retry-after': '30', 'x-ratelimit-reset': later }), key2(429, probeCases.secondKeyRetry, { 'retry-after': '0' })]) {
        const verdicts = await judged([refused(), answer]);
        expect(verdicts).toHaveLength(1);
        const [outcome, message] = verdicts[0]!;
        expect(outcome).toBe('failure');
        expect(message).toMatch(/^#\d+ refused the second key with 429, Retry-After "30" and X-RateLimit-Reset \d+; the key sent nothing more until the list sent 30\.5 s after it, which was refused again with 429 and Retry-After "(30|0)", no longer/);
      }
    });

    it('tells nothing from a longer wait, no Retry-After, or another status, as a ban the key earned before this run would say', async () => {
      for (const answer of [key2(429, probeCases.secondKeyRetry, { 'retry-after': '900' }), key2(403, probeCases.secondKeyRetry)]) {
        expect((await judged([refused(), answer]))[0]?.[0]).toBe('inconclusive');
      }
    });

    it('tells nothing when others may spend the key, the deployment was unavailable, another limit binds, or the key sent more after its 429', async () => {
      expect((await judged([refused(), key2(429, probeCases.secondKeyRetry)], { sharedKey: true }))[0]?.[0]).toBe('inconclusive');
      expect((await judged([refused(), key2(503, probeCases.secondKeyRetry)]))[0]?.[0]).toBe('inconclusive');
      expect((await judged([refused(), key2(429, probeCases.secondKeyRetry, { 'x-ratelimit-limit': '1000' })]))[0]?.[0]).toBe('inconclusive');
      expect((await judged([refused(), key2(429, 'rate-limit-probe/after-429/second-key'), key2(429, probeCases.secondKeyRetry)]))[0]?.[0]).toBe('inconclusive');
    });

    it('judges the run key\'s retry apart, with its ban allowance', async () => {
      const keyRetry = exchange({ path: '/pets?limit=1', status: 429, body: errorOf(429), case: probeCases.afterRetryAfter, headers: { ...rateHeaders(0), 'retry-after': '600' } });
      const outcomes = (await judged([spend(429, 0, { 'retry-after': '30' }), refused(), keyRetry, key2(200, probeCases.secondKeyRetry)])).map(([outcome]) => outcome);
      expect(outcomes).toEqual(['inconclusive', 'held']);
    });
  });

  // In the window's last second, by the suite's clock: only the answers can say which window they were in.
  const lastSecond = (e: Exchange): Exchange => ({ ...e, sentAt: Number(rateHeaders()['x-ratelimit-reset']) * 1000 - 30 });

  it('fails requests served past a Remaining of 0 in the last second of the window, when the answers say it is the same window', async () => {
    const judged = notHeld(judgeRateProbe([spend(200, 1), spend(200, 0), lastSecond(spend(200, 0)), lastSecond(spend(200, 0)), spend(429, 0, { 'retry-after': '1' })], await facts({ probeMaxRequests: 10 })));
    expect(judged.map((j) => [j[0], j[1]])).toEqual([['probe.over-limit-refused', 'failure']]);
  });

  it('holds a request answered in the last second whose answer is already the next window\'s', async () => {
    const next = (remaining: number) => lastSecond(spend(200, remaining, { 'x-ratelimit-reset': String(Number(rateHeaders()['x-ratelimit-reset']) + 60) }));
    const judged = notHeld(judgeRateProbe([spend(200, 1), spend(200, 0), next(299), next(298)], await facts({ probeMaxRequests: 10 })));
    expect(judged.map((j) => [j[0], j[1]])).toEqual([['probe.429-reached', 'inconclusive']]);
  });

  it('fails a probe refused past Remaining 0 with another status than 429, even when a later window then ran out its budget', async () => {
    const later = (remaining: number) => spend(200, remaining, { 'x-ratelimit-reset': String(Number(rateHeaders()['x-ratelimit-reset']) + 60) });
    const judged = notHeld(judgeRateProbe([spend(200, 0), spend(503, 0), later(299), later(298)], await facts()));
    expect(judged.map((j) => [j[0], j[1]])).toEqual([['probe.429-reached', 'failure']]);
  });

  // A second round of spending, in the window after a 429 that came too near its end to judge.
  const nextWindow = (e: Exchange): Exchange => ({ ...e, case: probeCases.spendNewWindow });

  it('judges the second round of spending as the first: served twice past Remaining 0 fails it', async () => {
    const judged = notHeld(judgeRateProbe([lastSecond(spend(200, 0)), lastSecond(spend(429, 0, { 'retry-after': '0' })), ...[spend(200, 1), spend(200, 0), spend(200, 0), spend(200, 0)].map(nextWindow)], await facts({ probeMaxRequests: 10 })));
    expect(judged.map((j) => [j[0], j[1]])).toEqual([['probe.over-limit-refused', 'failure']]);
  });

  it('gives the second round what the first left of the budget', async () => {
    const stuck = () => nextWindow(spend(200, 1, { 'x-ratelimit-limit': '1' }));
    const judged = notHeld(judgeRateProbe([spend(200, 1), spend(429, 0, { 'retry-after': '1' }), stuck(), stuck()], await facts({ probeMaxRequests: 3 })));
    expect(judged).toEqual([['probe.429-reached', 'failure', 'No 429 after 2 requests; the last answer said X-RateLimit-Limit 1 and Remaining 1. Requests over the limit must get 429.']]);
  });

  it('calls a second round refused with another status than 429 not judged, as the ban the contract allows after a 429 may be', async () => {
    const banned = nextWindow(spend(403, 299));
    const judged = notHeld(judgeRateProbe([spend(200, 0), spend(429, 0, { 'retry-after': '1' }), banned], await facts()));
    expect(judged).toEqual([['probe.429-reached', 'inconclusive', 'the key was answered 403 in the window after the probe\'s first 429, perhaps a ban, which the contract allows after a 429: the new window was not spent']]);
  });

  it('does not hold a 429 earlier than announced against a key others spend too (--shared-key)', async () => {
    expect(notHeld(judgeRateProbe([spend(200, 5), spend(429, 0)], await facts({ sharedKey: true })))).toEqual([]);
  });

  it('holds both rounds when each reached its 429 in turn', async () => {
    expect(notHeld(judgeRateProbe([spend(200, 0), spend(429, 0, { 'retry-after': '1' }), ...[spend(200, 0), spend(429, 0, { 'retry-after': '59' })].map(nextWindow)], await facts()))).toEqual([]);
  });

  it('does not fail a deployment whose window rolled over during the probe, before its budget reached the new window\'s end', async () => {
    const later = (remaining: number) => spend(200, remaining, { 'x-ratelimit-reset': String(Number(rateHeaders()['x-ratelimit-reset']) + 60) });
    const judged = notHeld(judgeRateProbe([spend(200, 2), spend(200, 1), later(299), later(298)], await facts()));
    expect(judged.map((j) => [j[0], j[1]])).toEqual([['probe.429-reached', 'inconclusive']]);
    expect(judged[0]![2]).toMatch(/a new window began during the probe .* raise --probe-max-requests/);
  });
});

describe('the generated traffic\'s input rules', () => {
  const sent = (intent: 'valid' | 'invalid' | 'edge', status: number, body: string, replay = false): Exchange => {
    const e = exchange({ method: 'POST', status, body: status >= 400 ? errorOf(status) : pet(70), operationId: 'createPet', intent, case: 'generated/1/1' });
    return { ...e, request: { ...e.request, headers: { authorization: 'Bearer $PETS_API_KEY', 'content-type': 'application/json' }, body }, ...(replay ? { replay: true } : {}) };
  };

  it('fails a valid NewPet with a known category refused, and lets one of an unknown category be refused', async () => {
    expect(notHeld(judgeGeneratedInput([sent('valid', 400, '{"name":"Rex","categoryId":2}')], await facts()))[0]![0]).toBe('input.valid-served');
    expect(judgeGeneratedInput([sent('valid', 400, '{"name":"Rex","categoryId":99}')], await facts())).toEqual([]);
  });

  it('holds an invalid JSON NewPet to the 400 the contract names, and any 4xx when its category may name none', async () => {
    expect(notHeld(judgeGeneratedInput([sent('invalid', 422, '{"name":"","categoryId":2}')], await facts()))[0]![0]).toBe('input.invalid-refused');
    expect(notHeld(judgeGeneratedInput([sent('invalid', 422, '{"name":"","categoryId":99}')], await facts()))).toEqual([]);
  });

  it('judges nothing sent again while shrinking, and leaves a value a deployment may refuse to status.no-5xx', async () => {
    expect(judgeGeneratedInput([sent('invalid', 422, '{"name":"","categoryId":2}', true)], await facts())).toEqual([]);
    expect(judgeGeneratedInput([sent('edge', 500, '{"name":"x","categoryId":2}')], await facts())).toEqual([]);
  });
});
