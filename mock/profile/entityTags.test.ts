import { describe, expect, it } from 'vitest';
import { generatePets } from '../../fixtures/generatePets.ts';
import { openMock } from '../core/openMock.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import { entityTagOf, noneMatchIsFalse, tagsOf } from './entityTags.ts';
import type { DeploymentProfile } from './profile.ts';

const key = { authorization: 'Bearer demo-pro' };
const json = { ...key, 'content-type': 'application/json' };
const bytes = (text: string) => new TextEncoder().encode(text);
const rateLimitFields = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

async function withMock(profile: DeploymentProfile, run: (mock: Awaited<ReturnType<typeof openMock>>) => Promise<void>) {
  const mock = await openMock({ spec: await testSpec(), pets: generatePets({ count: 5 }), clock: new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 30)), profile });
  try {
    await run(mock);
  } finally {
    await mock.close();
  }
}

describe('If-None-Match as the profile\'s etag reads it (RFC 9110, 13.1.2)', () => {
  it('reads `*`, a list of tags weak or strong, and nothing from a value that is no list of entity tags', () => {
    expect(tagsOf(' * ')).toBe('*');
    expect(tagsOf('"a", W/"b" ,, "c,d"')).toEqual(['"a"', '"b"', '"c,d"']);
    expect(tagsOf('abc')).toBeUndefined();
    expect(tagsOf('"a" junk')).toBeUndefined();
    expect(tagsOf('')).toBeUndefined();
  });

  it('matches by weak comparison: the opaque tags, whatever their W/', () => {
    expect(noneMatchIsFalse('"x"', 'W/"x"')).toBe(true);
    expect(noneMatchIsFalse('W/"y", W/"x"', 'W/"x"')).toBe(true);
    expect(noneMatchIsFalse('*', 'W/"x"')).toBe(true);
    expect(noneMatchIsFalse('"y"', 'W/"x"')).toBe(false);
    expect(noneMatchIsFalse('x', 'W/"x"')).toBe(false);
  });

  it('tags a body by its text: the same text the same tag, another text another', () => {
    expect(entityTagOf('[1]')).toBe(entityTagOf('[1]'));
    expect(entityTagOf('[1]')).not.toBe(entityTagOf('[2]'));
    expect(entityTagOf('[1]')).toMatch(/^W\/"[\x21\x23-\x7e]+"$/);
  });
});

describe('a mock given a profile\'s etag', () => {
  it('puts an ETag on each 200 to a GET under the API, and on no other answer (a 201, a 404, a 401, a HEAD)', async () => {
    await withMock({ etag: 'conditional' }, async (mock) => {
      const pet = await mock.answer({ method: 'GET', url: '/v1/pets/1', headers: key });
      const list = await mock.answer({ method: 'GET', url: '/v1/pets?limit=2', headers: key });
      expect([pet.status, pet.headers.etag]).toEqual([200, entityTagOf(pet.body!)]);
      expect([list.status, list.headers.etag]).toEqual([200, entityTagOf(list.body!)]);
      expect(list.headers.etag).not.toBe(pet.headers.etag);
      const created = await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes('{"name":"Rex","categoryId":1}') });
      const missing = await mock.answer({ method: 'GET', url: '/v1/pets/999', headers: key });
      const keyless = await mock.answer({ method: 'GET', url: '/v1/pets', headers: {} });
      const head = await mock.answer({ method: 'HEAD', url: '/v1/pets/1', headers: key });
      expect([created, missing, keyless, head].map((a) => [a.status, a.headers.etag])).toEqual([[201, undefined], [404, undefined], [401, undefined], [200, undefined]]);
    });
  });

  it('answers a GET whose If-None-Match matches with 304: no content, its ETag, the rate-limit headers (counted), CORS, Deprecation and Sunset kept', async () => {
    await withMock({ etag: 'conditional' }, async (mock) => {
      const origin = 'https://app.example';
      const pet = await mock.answer({ method: 'GET', url: '/v1/pets/1', headers: { ...key, origin } });
      const again = await mock.answer({ method: 'GET', url: '/v1/pets/1', headers: { ...key, origin, 'if-none-match': pet.headers.etag! } });
      expect([again.status, again.body, again.headers['content-type'], again.headers['content-length'], again.headers.etag]).toEqual([304, null, undefined, undefined, pet.headers.etag]);
      for (const field of [...rateLimitFields, 'deprecation', 'sunset', 'link', 'access-control-allow-origin', 'date']) if (pet.headers[field] !== undefined) expect(again.headers[field], field).toBeDefined();
      for (const field of rateLimitFields) expect(again.headers[field], field).toBeDefined();
      expect(again.headers.deprecation).toBeDefined();
      expect(Number(again.headers['x-ratelimit-remaining'])).toBe(Number(pet.headers['x-ratelimit-remaining']) - 1);
    });
  });

  it('answers 304 to `*`, to the tag without its W/ and to a list holding it; 200 with the body to a tag that matches nothing or a malformed field', async () => {
    await withMock({ etag: 'conditional' }, async (mock) => {
      const tag = (await mock.answer({ method: 'GET', url: '/v1/pets?limit=3', headers: key })).headers.etag!;
      const read = (ifNoneMatch: string) => mock.answer({ method: 'GET', url: '/v1/pets?limit=3', headers: { ...key, 'if-none-match': ifNoneMatch } });
      for (const sent of ['*', tag.slice(2), `"other", ${tag}`]) expect((await read(sent)).status, sent).toBe(304);
      for (const sent of ['"pets-conformance-matches-nothing"', tag.slice(3, -1)]) {
        const answer = await read(sent);
        expect([answer.status, answer.headers.etag, JSON.parse(answer.body!)]).toEqual([200, tag, expect.any(Array)]);
      }
    });
  });

  it('gives the list another tag once a create changes it: the old tag gets the new list (200)', async () => {
    await withMock({ etag: 'conditional', listOrder: 'newest-first' }, async (mock) => {
      const before = await mock.answer({ method: 'GET', url: '/v1/pets', headers: key });
      await mock.answer({ method: 'POST', url: '/v1/pets', headers: json, body: bytes('{"name":"Rex","categoryId":1}') });
      const after = await mock.answer({ method: 'GET', url: '/v1/pets', headers: { ...key, 'if-none-match': before.headers.etag! } });
      expect(after.status).toBe(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
    });
  });

  it('under `sent`, tags each 200 to a GET but answers If-None-Match as if it were not there; with none, tags nothing', async () => {
    await withMock({ etag: 'sent' }, async (mock) => {
      const pet = await mock.answer({ method: 'GET', url: '/v1/pets/1', headers: key });
      const again = await mock.answer({ method: 'GET', url: '/v1/pets/1', headers: { ...key, 'if-none-match': pet.headers.etag! } });
      expect([again.status, again.headers.etag, again.body]).toEqual([200, pet.headers.etag, pet.body]);
    });
    await withMock({ etag: null }, async (mock) => {
      expect((await mock.answer({ method: 'GET', url: '/v1/pets/1', headers: key })).headers.etag).toBeUndefined();
    });
  });
});
