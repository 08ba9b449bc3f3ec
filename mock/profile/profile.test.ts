import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatePets } from '../../fixtures/generatePets.ts';
import { openMock } from '../core/openMock.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import { checkProfile, profileSchema, ProfileError, type DeploymentProfile } from './profile.ts';
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

  it('takes an empty profile, and one with every field', () => {
    expect(checkProfile({})).toEqual({});
    const full: DeploymentProfile = {
      profileVersion: 1, describes: 'staging', defaultStatus: null, listOrder: 'oldest-first', errors: { invalidQuery: { status: 422, code: 'BAD_QUERY' }, unauthorized: { code: 'UNAUTHENTICATED' } },
      unknownQueryParameters: 'refused', unknownBodyFields: 'refused', maxNameLength: 64, retryAfter: 'http-date', deprecation: '@1767225600', wwwAuthenticate: false, cors: 'echo',
      storeOrders: 'absent', ban: { threshold: 5, seconds: 60 }, keylessLimit: 60, extraPetFields: { tags: [] }, extraErrorFields: { traceId: 'x' },
    };
    expect(checkProfile(full)).toEqual(full);
  });

  it('refuses a field it does not know, a wrong value, and a status the contract pins, naming each', () => {
    expect(() => checkProfile({ listOrder: 'random' })).toThrow(ProfileError);
    expect(() => checkProfile({ listOrdr: 'newest-first' })).toThrow(/listOrdr/);
    expect(() => checkProfile({ errors: { unauthorized: { status: 403 } } })).toThrow(/errors\.unauthorized\.status is 403.*401/);
    expect(() => checkProfile({ extraPetFields: { id: 1 } })).toThrow(/Pet field of the contract/);
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
});
