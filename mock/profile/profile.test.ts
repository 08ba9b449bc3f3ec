import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { generatePets } from '../../fixtures/generatePets.ts';
import { openMock } from '../core/openMock.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import { rotated } from './profiledAnswers.ts';
import { checkProfile, checkProfileOnce, loadProfile, profileSchema, ProfileError, type DeploymentProfile } from './profile.ts';
import { situationNames } from './situations.ts';

const key = { authorization: 'Bearer demo-pro' };
const json = { ...key, 'content-type': 'application/json' };

async function profiledMock(profile: DeploymentProfile) {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 30));
  return { clock, mock: await openMock({ spec: await testSpec(), pets: generatePets({ count: 5 }), clock, profile }) };
}

describe('a deployment profile', () => {
  it('is described by profile.schema.json, which names every situation of the error catalogue a profile can choose for', async () => {
    const onDisk = JSON.parse(await readFile(new URL('./profile.schema.json', import.meta.url), 'utf8'));
    expect(onDisk).toEqual(profileSchema);
    expect(Object.keys((onDisk.properties.errors as { properties: object }).properties).sort()).toEqual([...situationNames].sort());
  });

  it('is checked once: a profile checkProfile passed is handed on (pets-mock to openMock) without compiling the schema again', async () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    try {
      const profile = checkProfile({ defaultStatus: null });
      const mock = await openMock({ spec: await testSpec(), profile });
      await mock.close();
      expect(compile.mock.calls.filter(([schema]) => schema === profileSchema)).toHaveLength(1);
    } finally {
      compile.mockRestore();
    }
    // An object no check passed is checked, however like a passed one it looks.
    expect(() => checkProfileOnce({ defaultStatus: 'adopted' })).toThrow(ProfileError);
    expect(JSON.stringify(checkProfile({ cors: 'any' }))).toBe('{"cors":"any"}');
  });

  it('leaves the object it checked as it was and gives back a frozen copy, which no later change can take past the check', () => {
    const given = { errors: { unauthorized: { code: 'UNAUTHENTICATED' } } };
    const profile = checkProfile(given);
    expect(Object.getOwnPropertySymbols(given)).toEqual([]);
    expect(profile).toEqual(given);
    expect(Object.isFrozen(profile) && Object.isFrozen(profile.errors!.unauthorized)).toBe(true);
    expect(() => {
      (profile as { defaultStatus?: string }).defaultStatus = 'adopted';
    }).toThrow(TypeError);
  });

  it('takes an empty profile, and one with every field', () => {
    expect(checkProfile({})).toEqual({});
    const full: DeploymentProfile = {
      profileVersion: 1, describes: 'staging', defaultStatus: null, listOrder: 'oldest-first', errors: { invalidQuery: { status: 422, code: 'BAD_QUERY' }, unauthorized: { code: 'UNAUTHENTICATED' } },
      unknownQueryParameters: 'refused', unknownBodyFields: 'refused', maxNameLength: 64, retryAfter: 'http-date', deprecation: '@1767225600', wwwAuthenticate: false, cors: 'echo',
      storeOrders: 'absent', etag: 'conditional', ban: { threshold: 5, seconds: 60 }, keylessLimit: { perMinute: 30, perDay: 500 }, bodyLimit: 65_536, extraPetFields: { tags: [] }, extraErrorFields: { traceId: 'x' },
    };
    expect(checkProfile(full)).toEqual(full);
    expect(checkProfile({ keylessLimit: 60, ban: null })).toEqual({ keylessLimit: 60, ban: null });
  });

  it('refuses a field it does not know, a wrong value, and a status the contract pins, naming each', () => {
    expect(() => checkProfile({ listOrder: 'random' })).toThrow(ProfileError);
    expect(() => checkProfile({ listOrdr: 'newest-first' })).toThrow(/listOrdr/);
    expect(() => checkProfile({ errors: { unauthorized: { status: 403 } } })).toThrow(/errors\.unauthorized\.status is 403.*401/);
    expect(() => checkProfile({ extraPetFields: { id: 1 } })).toThrow(/Pet field of the contract/);
    expect(() => checkProfile({ keylessLimit: { perHour: 10 } })).toThrow(ProfileError);
    expect(() => checkProfile({ keylessLimit: {} })).toThrow(ProfileError);
    expect(() => checkProfile({ bodyLimit: 0 })).toThrow(/bodyLimit/);
  });

  it('takes a Sunset only on the removal day the contract names, and a categoryId range only with its minimum at most its maximum', () => {
    expect(checkProfile({ sunset: 'Thu, 05 Dec 2030 23:59:59 GMT', location: false, keylessUnlisted: 'unauthorized', preflight: 'unlisted', categoryIdRange: { minimum: 1 } })).toMatchObject({ sunset: 'Thu, 05 Dec 2030 23:59:59 GMT' });
    expect(checkProfile({ sunset: null })).toEqual({ sunset: null });
    expect(() => checkProfile({ sunset: 'Fri, 05 Dec 2025 00:00:00 GMT' })).toThrow(/sunset .* 5 December 2030/);
    expect(() => checkProfile({ sunset: '2030-12-05' })).toThrow(/sunset/);
    // The day as the spec's x-sunset gives it, in words and as the HTTP-date to give; another form of the right day is no IMF-fixdate.
    expect(() => checkProfile({ sunset: 'Thursday, 05-Dec-30 00:00:00 GMT' })).toThrow(/on 5 December 2030, .*`Thu, 05 Dec 2030 00:00:00 GMT`/);
    expect(() => checkProfile({ sunset: 'Thu, 5 Dec 2030 00:00:00 GMT' })).toThrow(/sunset/);
    expect(() => checkProfile({ categoryIdRange: { minimum: 5, maximum: 1 } })).toThrow(/categoryIdRange\.minimum 5 is above its maximum 1/);
    expect(() => checkProfile({ categoryIdRange: { minimum: 2 ** 64 } })).toThrow(/categoryIdRange/);
    expect(() => checkProfile({ categoryIdRange: { maximum: 9223372036854775808n } })).toThrow(/categoryIdRange/);
    expect(checkProfile({ categoryIdRange: { minimum: -9223372036854775808n, maximum: 9223372036854775807n } })).toEqual({ categoryIdRange: { minimum: -9223372036854775808n, maximum: 9223372036854775807n } });
    expect(() => checkProfile({ categoryIdRange: { minimum: 9007199254740993n, maximum: 9007199254740992 } })).toThrow(/categoryIdRange\.minimum 9007199254740993 is above its maximum 9007199254740992/);
    expect(() => checkProfile({ keylessUnlisted: 'forbidden' })).toThrow(/keylessUnlisted/);
  });
});

describe('a mock given a profile makes the choices of a gateway in front of the API', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('asks for the key before routing: 401 for an unserved method or path without a key, 404/405 with one, the keyless request counted once', async () => {
    const { mock } = await profiledMock({ keylessUnlisted: 'unauthorized', errors: { unauthorized: { code: 'UNAUTHENTICATED' } } });
    try {
      const method = await mock.answer({ method: 'DELETE', url: '/v1/pets', headers: {} });
      const path = await mock.answer({ method: 'GET', url: '/v1/no-such-route', headers: {} });
      expect([method.status, JSON.parse(method.body!).code, path.status, JSON.parse(path.body!).code]).toEqual([401, 'UNAUTHENTICATED', 401, 'UNAUTHENTICATED']);
      expect(Number(path.headers['x-ratelimit-remaining'])).toBe(Number(method.headers['x-ratelimit-remaining']) - 1);
      expect((await mock.answer({ method: 'DELETE', url: '/v1/pets', headers: key })).status).toBe(405);
      expect((await mock.answer({ method: 'GET', url: '/v1/no-such-route', headers: key })).status).toBe(404);
    } finally {
      await mock.close();
    }
  });

  it('answers OPTIONS as a method the API does not serve when it answers no preflight: 401 without a key, 405 with one, no OPTIONS in Allow', async () => {
    const { mock } = await profiledMock({ keylessUnlisted: 'unauthorized', preflight: 'unlisted' });
    try {
      const preflight = await mock.answer({ method: 'OPTIONS', url: '/v1/pets', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
      expect(preflight.status).toBe(401);
      const keyed = await mock.answer({ method: 'OPTIONS', url: '/v1/pets', headers: key });
      expect([keyed.status, keyed.headers.allow]).toEqual([405, 'GET, HEAD, POST']);
    } finally {
      await mock.close();
    }
    const { mock: own } = await profiledMock({ keylessUnlisted: 'unauthorized' });
    try {
      expect((await own.answer({ method: 'OPTIONS', url: '/v1/pets', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } })).status).toBe(204);
    } finally {
      await own.close();
    }
  });

  it('reads a profile file\'s categoryIdRange exactly, and compares a categoryId past 2^53 - 1 with it exactly', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'profile-')), 'profile.json');
    await writeFile(file, '{"categoryIdRange":{"maximum":9007199254740992}}');
    const profile = await loadProfile(file);
    expect(profile).toEqual({ categoryIdRange: { maximum: 9007199254740992n } });
    const { mock } = await profiledMock(profile);
    try {
      const refused = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes('{"name":"Rex","categoryId":9007199254740993}') });
      expect([refused.status, JSON.parse(refused.body!).message]).toEqual([400, 'categoryId 9007199254740993 names no category: send one from any to 9007199254740992.']);
      const taken = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes('{"name":"Rex","categoryId":9007199254740992}') });
      expect([taken.status, taken.body]).toEqual([201, '{"id":6,"name":"Rex","categoryId":9007199254740992,"status":"available"}']);
    } finally {
      await mock.close();
    }
  });

  it('as a deployment that refuses every categoryId past 2^53 - 1 (maximum 9007199254740991), refuses 2^53 + 1 and keeps extra pet fields beside an exact one', async () => {
    const { mock } = await profiledMock({ categoryIdRange: { maximum: 9007199254740991 }, extraPetFields: { tag: 'x' } });
    try {
      expect((await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes('{"name":"Rex","categoryId":9007199254740993}') })).status).toBe(400);
      const taken = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes('{"name":"Rex","categoryId":-9223372036854775808}') });
      expect([taken.status, taken.body]).toEqual([201, '{"id":6,"name":"Rex","categoryId":-9223372036854775808,"status":"available","tag":"x"}']);
      expect((await mock.answer({ method: 'GET', url: '/v1/pets?limit=1', headers: json })).body).toBe('[{"id":6,"name":"Rex","categoryId":-9223372036854775808,"status":"available","tag":"x"}]');
    } finally {
      await mock.close();
    }
  });

  it('refuses a categoryId outside the profile\'s range with the invalidBody error, creating nothing, and takes one inside', async () => {
    const { mock } = await profiledMock({ categoryIdRange: { minimum: 1 }, errors: { invalidBody: { code: 'VALIDATION_FAILED' } } });
    try {
      for (const categoryId of [0, -1]) {
        const refused = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes(`{"name":"Rex","categoryId":${categoryId}}`) });
        expect([refused.status, JSON.parse(refused.body!).code, JSON.parse(refused.body!).message]).toEqual([400, 'VALIDATION_FAILED', expect.stringContaining(`categoryId ${categoryId}`)]);
      }
      const taken = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes('{"name":"Rex","categoryId":1}') });
      expect([taken.status, JSON.parse(taken.body!).id]).toEqual([201, 6]);
    } finally {
      await mock.close();
    }
  });

  it('answers each reason it refuses a create body for with that reason\'s own code, any other refused body with invalidBody\'s, and creates nothing', async () => {
    const { mock } = await profiledMock({
      unknownBodyFields: 'refused', maxNameLength: 5, categoryIdRange: { minimum: 1 },
      errors: { invalidBody: { code: 'VALIDATION_FAILED' }, nameTooLong: { code: 'NAME_TOO_LONG' }, categoryOutOfRange: { code: 'UNKNOWN_CATEGORY' }, unknownBodyField: { code: 'UNKNOWN_FIELD' } },
    });
    try {
      const create = async (body: string) => {
        const answer = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes(body) });
        const error = JSON.parse(answer.body!) as { code: string; status: number };
        return [answer.status, error.status, error.code];
      };
      expect(await create('{"name":"Rexana","categoryId":1}')).toEqual([400, 400, 'NAME_TOO_LONG']);
      expect(await create('{"name":"Rex","categoryId":0}')).toEqual([400, 400, 'UNKNOWN_CATEGORY']);
      expect(await create('{"name":"Rex","categoryId":1,"colour":"brown"}')).toEqual([400, 400, 'UNKNOWN_FIELD']);
      // A body NewPet's schema refuses is invalidBody, whatever else it has: a long name and a categoryId that is a string.
      expect(await create('{"name":"Rexana","categoryId":"1"}')).toEqual([400, 400, 'VALIDATION_FAILED']);
      expect(await create('{"categoryId":1}')).toEqual([400, 400, 'VALIDATION_FAILED']);
      // Without the key, the 401 first, as for every create.
      expect(JSON.parse((await mock.answer({ method: 'POST', url: '/v1/pets', headers: { 'content-type': 'application/json' }, body: bytes('{"name":"Rexana","categoryId":1}') })).body!).code).toBe('UNAUTHORIZED');
      expect(mock.snapshot()?.pets).toHaveLength(5);
    } finally {
      await mock.close();
    }
  });

  it('answers a reason the profile gives no code with invalidBody\'s answer, and refuses a reason\'s status other than 400', async () => {
    const { mock } = await profiledMock({ maxNameLength: 5, categoryIdRange: { minimum: 1 }, errors: { invalidBody: { code: 'VALIDATION_FAILED' }, categoryOutOfRange: { code: 'UNKNOWN_CATEGORY' } } });
    try {
      const long = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes('{"name":"Rexana","categoryId":1}') });
      expect([long.status, JSON.parse(long.body!).code]).toEqual([400, 'VALIDATION_FAILED']);
    } finally {
      await mock.close();
    }
    expect(() => checkProfile({ errors: { nameTooLong: { status: 422, code: 'NAME_TOO_LONG' } } })).toThrow(/errors\.nameTooLong\.status is 422, but the contract answers .* with 400/);
  });

  it('leaves Location off a 201 and sends the profile\'s Sunset, or none, on GET /pets/{petId}, keeping Deprecation', async () => {
    const { mock } = await profiledMock({ location: false, sunset: null });
    try {
      const created = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes('{"name":"Rex","categoryId":1}') });
      expect([created.status, created.headers.location]).toEqual([201, undefined]);
      const read = await mock.answer({ method: 'GET', url: '/v1/pets/1', headers: key });
      expect([read.status, read.headers.sunset, read.headers.deprecation]).toEqual([200, undefined, '@1767225600']);
    } finally {
      await mock.close();
    }
    const { mock: dated } = await profiledMock({ sunset: 'Thu, 05 Dec 2030 23:59:59 GMT', location: true });
    try {
      expect((await dated.answer({ method: 'GET', url: '/v1/pets/1', headers: key })).headers.sunset).toBe('Thu, 05 Dec 2030 23:59:59 GMT');
      expect((await dated.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes('{"name":"Rex","categoryId":1}') })).headers.location).toBe('/v1/pets/6');
    } finally {
      await dated.close();
    }
  });
});

describe('a mock given a profile makes its choices', () => {
  it('takes the gateway profile docs/drift.md prints, and answers as that gateway: its 401 code, no WWW-Authenticate, 404 for a method no route serves', async () => {
    const guide = await readFile(new URL('../../docs/drift.md', import.meta.url), 'utf8');
    const printed = /<!-- file: gateway\.profile\.json -->\n```json\n([\s\S]*?)\n```/.exec(guide)?.[1];
    const profile = checkProfile(JSON.parse(printed!), 'docs/drift.md');
    const { mock } = await profiledMock(profile);
    try {
      const keyless = await mock.answer({ method: 'GET', url: '/v1/pets', headers: {} });
      expect([keyless.status, JSON.parse(keyless.body!).code, keyless.headers['www-authenticate']]).toEqual([401, 'UNAUTHENTICATED', undefined]);
      const deleted = await mock.answer({ method: 'DELETE', url: '/v1/pets', headers: key });
      expect([deleted.status, JSON.parse(deleted.body!).code]).toEqual([404, 'NO_ROUTE']);
    } finally {
      await mock.close();
    }
  });

  it('logs each request as the client got it: the status the profile chose for an error, and its 304', async () => {
    const { mock } = await profiledMock({ errors: { invalidQuery: { status: 422, code: 'err.query' } }, etag: 'conditional' });
    try {
      await mock.answer({ method: 'GET', url: '/v1/pets?limit=0', headers: key });
      const first = await mock.answer({ method: 'GET', url: '/v1/pets/1', headers: key });
      const again = await mock.answer({ method: 'GET', url: '/v1/pets/1', headers: { ...key, 'if-none-match': first.headers.etag! } });
      expect(again.status).toBe(304);
      const log = await mock.answer({ method: 'GET', url: '/__mock/requests', headers: {} });
      const entries = (JSON.parse(log.body!) as { requests: { path: string; status: number }[] }).requests;
      expect(entries.map((r) => [r.path, r.status])).toEqual([
        ['/v1/pets', 422],
        ['/v1/pets/1', 200],
        ['/v1/pets/1', 304],
      ]);
    } finally {
      await mock.close();
    }
  });

  it('answers each situation with the profile\'s status and code, and adds its extra Error fields', async () => {
    const { mock } = await profiledMock({ errors: { invalidQuery: { status: 422, code: 'err.query' }, unauthorized: { code: 'UNAUTHENTICATED' }, methodNotAllowed: { status: 404, code: 'NOT_FOUND' } }, extraErrorFields: { traceId: 'abc' }, wwwAuthenticate: false });
    try {
      const bad = await mock.answer({ method: 'GET', url: '/v1/pets?limit=0', headers: key });
      expect(bad.status).toBe(422);
      expect(JSON.parse(bad.body!)).toMatchObject({ code: 'err.query', status: 422, traceId: 'abc' });
      expect(Number(bad.headers['content-length'])).toBe(Buffer.byteLength(bad.body!));
      const keyless = await mock.answer({ method: 'GET', url: '/v1/pets', headers: {} });
      expect([keyless.status, JSON.parse(keyless.body!).code, keyless.headers['www-authenticate']]).toEqual([401, 'UNAUTHENTICATED', undefined]);
      const deleted = await mock.answer({ method: 'DELETE', url: '/v1/pets', headers: key });
      expect([deleted.status, JSON.parse(deleted.body!).status]).toEqual([404, 404]);
    } finally {
      await mock.close();
    }
  });

  it('makes the default status, the list order, the extra Pet fields and the refusals of bodies the profile refuses', async () => {
    const { mock } = await profiledMock({ defaultStatus: null, listOrder: 'oldest-first', extraPetFields: { tags: [] }, unknownBodyFields: 'refused', maxNameLength: 10 });
    try {
      const a = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: new TextEncoder().encode('{"name":"A","categoryId":1}') });
      expect(JSON.parse(a.body!)).toEqual({ id: 6, name: 'A', categoryId: 1, tags: [] });
      await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: new TextEncoder().encode('{"name":"B","categoryId":1}') });
      const page = JSON.parse((await mock.answer({ method: 'GET', url: '/v1/pets?limit=3', headers: key })).body!) as { id: number }[];
      expect(page.map((p) => p.id)).toEqual([5, 6, 7]);
      const colour = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: new TextEncoder().encode('{"name":"C","categoryId":1,"colour":"brown"}') });
      expect([colour.status, JSON.parse(colour.body!).message]).toEqual([400, expect.stringContaining('colour')]);
      const long = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: new TextEncoder().encode('{"name":"abcdefghijk","categoryId":1}') });
      expect(long.status).toBe(400);
      expect(mock.snapshot()?.pets).toHaveLength(7);
    } finally {
      await mock.close();
    }
  });

  it('answers two reads in a row of one list in different orders, with the same pets, under an unstable list order', async () => {
    const { mock } = await profiledMock({ listOrder: 'unstable' });
    try {
      const read = async () => (JSON.parse((await mock.answer({ method: 'GET', url: '/v1/pets?limit=3', headers: key })).body!) as { id: number }[]).map((p) => p.id);
      const [first, second, third] = [await read(), await read(), await read()];
      expect(first).not.toEqual(second);
      expect(second).not.toEqual(third);
      for (const ids of [first, second, third]) expect([...ids].sort()).toEqual([3, 4, 5]);
    } finally {
      await mock.close();
    }
  });

  it('turns a page one place further on each read, and leaves a page of one pet or none as it is', () => {
    expect([0, 1, 2, 3].map((by) => rotated(['a', 'b', 'c'], by).join(''))).toEqual(['abc', 'bca', 'cab', 'abc']);
    expect(rotated(['a'], 1)).toEqual(['a']);
    expect(rotated([], 3)).toEqual([]);
  });

  it('sends Retry-After as an HTTP-date on the mock\'s clock, its Deprecation value, and no store orders', async () => {
    const { mock, clock } = await profiledMock({ retryAfter: 'http-date', deprecation: '@1700000000', storeOrders: 'absent', unknownQueryParameters: 'refused', errors: { unknownQuery: { status: 422 } } });
    try {
      const got = await mock.answer({ method: 'GET', url: '/v1/pets/1', headers: key });
      expect(got.headers.deprecation).toBe('@1700000000');
      const orders = await mock.answer({ method: 'GET', url: '/v1/store/orders', headers: key });
      expect([orders.status, JSON.parse(orders.body!).code, JSON.parse(orders.body!).message]).toEqual([404, 'ROUTE_NOT_FOUND', expect.not.stringContaining('not-served')]);
      expect((await mock.answer({ method: 'GET', url: '/v1/pets?offset=1', headers: key })).status).toBe(422);
      let limited;
      for (let i = 0; i < 70 && limited?.status !== 429; i++) limited = await mock.answer({ method: 'GET', url: '/v1/pets', headers: {} });
      expect(limited!.status).toBe(429);
      expect(Date.parse(limited!.headers['retry-after']!)).toBeGreaterThan(clock.now());
    } finally {
      await mock.close();
    }
  });

  it('counts requests without a valid key at its keyless limit, per minute and per day, keys at their plan\'s', async () => {
    const { mock, clock } = await profiledMock({ keylessLimit: { perMinute: 3, perDay: 4 } });
    try {
      const keyless = () => mock.answer({ method: 'GET', url: '/v1/pets', headers: {} });
      const first = await keyless();
      expect([first.status, first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual([401, '3', '2']);
      await keyless();
      await keyless();
      expect((await keyless()).status).toBe(429);
      expect((await mock.answer({ method: 'GET', url: '/v1/pets', headers: key })).headers['x-ratelimit-limit']).toBe('300');
      await mock.state.clock.advance(60);
      // One left of the day, three of the minute: the day binds, its Reset the day's end.
      const dayBinds = await keyless();
      expect([dayBinds.status, dayBinds.headers['x-ratelimit-limit'], dayBinds.headers['x-ratelimit-remaining']]).toEqual([401, '4', '0']);
      expect(Number(dayBinds.headers['x-ratelimit-reset']) * 1000 - clock.now()).toBeGreaterThan(3_600_000);
    } finally {
      await mock.close();
    }
  });

  it('takes a per-minute keyless limit written as a number', async () => {
    const { mock } = await profiledMock({ keylessLimit: 7 });
    try {
      expect((await mock.answer({ method: 'GET', url: '/v1/pets', headers: {} })).headers['x-ratelimit-limit']).toBe('7');
    } finally {
      await mock.close();
    }
  });

  it('refuses a body over its body limit with the profile\'s payloadTooLarge, and reads one at the limit', async () => {
    const { mock } = await profiledMock({ bodyLimit: 100, errors: { payloadTooLarge: { status: 400, code: 'TOO_BIG' } } });
    try {
      const body = (size: number) => new TextEncoder().encode(JSON.stringify({ name: 'Rex', categoryId: 'x' }).replace('"x"', `"${'x'.repeat(size - 30)}"`));
      expect(body(100).byteLength).toBe(100);
      const atLimit = await mock.answer({ method: 'POST', url: '/v1/pets', headers: { ...json, 'content-length': '100' }, body: body(100) });
      expect([atLimit.status, JSON.parse(atLimit.body!).code]).toEqual([400, 'INVALID_BODY']);
      const over = await mock.answer({ method: 'POST', url: '/v1/pets', headers: { ...json, 'content-length': '101' }, body: body(101) });
      expect([over.status, JSON.parse(over.body!).code]).toEqual([400, 'TOO_BIG']);
      expect(mock.bodyLimit).toBe(100);
    } finally {
      await mock.close();
    }
  });

  it('bans a key at the profile\'s threshold for its length, and never with `ban: null`', async () => {
    const spend = async (mock: Awaited<ReturnType<typeof profiledMock>>['mock'], times: number) => {
      let last;
      for (let i = 0; i < times; i++) last = await mock.answer({ method: 'GET', url: '/v1/pets?limit=1', headers: { authorization: 'Bearer demo-free' } });
      return last!;
    };
    const banning = await profiledMock({ ban: { threshold: 3, seconds: 90 } });
    try {
      expect((await spend(banning.mock, 62)).status).toBe(429);
      const banned = await spend(banning.mock, 1);
      expect([banned.status, JSON.parse(banned.body!).code, banned.headers['retry-after']]).toEqual([429, 'API_KEY_BANNED', '90']);
    } finally {
      await banning.mock.close();
    }
    const never = await profiledMock({ ban: null });
    try {
      const last = await spend(never.mock, 300);
      expect([last.status, JSON.parse(last.body!).code]).toEqual([429, 'RATE_LIMITED']);
    } finally {
      await never.mock.close();
    }
  });
});
