// Witnesses for regressions2.ts: each regression's bug seen from outside (a few requests, compared
// with the plain mock or with the contract), and each legal variant still answering valid requests
// with the contract's statuses. In-process, no network, no sleeps: time moves by clock.advance.
// The sender and helpers shared with regressions.witness.test.ts are in witnessHelpers.ts.
import { describe, expect, it } from 'vitest';
import type { Deployment } from './deployment.ts';
import { legalVariants2, regressions2 } from './regressions2.ts';
import { expectWitnessed, itVariantsEach, itWitnessesEach, readingIds, remaining, sold, spend, type Answer, type Send, type Witness } from './witnessHelpers.ts';

/** The id of a created pet as its digits (it may lie beyond 2^53). */
const { idOf, roundTrip, keepsTheContract } = readingIds((answer) => /"id"\s*:\s*(\d+)/.exec(answer.text)?.[1] ?? '');
const names = (answer: Answer) => (answer.json as { name: string }[]).map((pet) => pet.name);
const statusesOf = (answer: Answer) => (answer.json as { status?: string }[]).map((pet) => pet.status);

const witnesses: Record<string, Witness> = {
  // ----------------------------------------------------------------------------------- data
  'names trimmed on store': async ({ s, p }) => {
    const name = '  Rex  ';
    expect((await roundTrip(p, { name, categoryId: 1 })).got.json.name).toBe(name);
    expect((await roundTrip(s, { name, categoryId: 1 })).got.json.name).toBe('Rex');
  },
  'categoryId lost by the entity mapper': async ({ s, p }) => {
    expect((await roundTrip(p, { name: 'Cat', categoryId: 7 })).got.json.categoryId).toBe(7);
    const { created, got } = await roundTrip(s, { name: 'Cat', categoryId: 7 });
    expect(created.json.categoryId).toBe(7);
    expect(got.json.categoryId).toBe(0);
  },
  'sold pets hidden by the website\'s feature flag': async ({ s, p }) => {
    expect((await roundTrip(p, { ...sold, status: 'sold' })).got.status).toBe(200);
    const { created, got } = await roundTrip(s, { ...sold, status: 'sold' });
    expect(created.json.status).toBe('sold');
    expect(got.status).toBe(404);
    expect((await s('GET', '/pets?status=sold')).json).toEqual([]);
  },
  'gateway retries creates, storing each pet twice': async ({ s, p }) => {
    const count = async (send: Send) => {
      await send('POST', '/pets', { body: { name: 'Only once', categoryId: 1 } });
      return names(await send('GET', '/pets?limit=100')).filter((name) => name === 'Only once').length;
    };
    expect(await count(p)).toBe(1);
    expect(await count(s)).toBe(2);
  },
  'status filter applied after the limit': async ({ s, p }) => {
    const plain = await p('GET', '/pets?status=sold&limit=5');
    expect(plain.json).toHaveLength(5);
    const faulty = await s('GET', '/pets?status=sold&limit=5');
    expect(faulty.status).toBe(200);
    expect(statusesOf(faulty).every((status) => status === 'sold')).toBe(true);
    expect(faulty.json.length).toBeLessThan(5);
  },
  'peek-ahead row left in each page': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=5')).json).toHaveLength(5);
    expect((await s('GET', '/pets?limit=5')).json).toHaveLength(6);
    expect((await s('GET', '/pets')).json).toHaveLength(21);
  },
  'reads served by a replica two seconds behind': async ({ s, p, d }) => {
    expect((await roundTrip(p, sold)).got.status).toBe(200);
    const { created, got } = await roundTrip(s, sold);
    expect(got.status).toBe(404);
    d.clock.advance(2_000);
    expect((await s('GET', `/pets/${idOf(created)}`)).status).toBe(200);
  },
  // ------------------------------------------------------------------------------- spelling
  'absent status serialised as null': async ({ s }) => {
    const created = await s('POST', '/pets', { body: sold });
    expect(created.status).toBe(201);
    expect(created.json.status).toBeNull();
    expect((await s('GET', `/pets/${idOf(created)}`)).text).toContain('"status":null');
  },
  'proto3 JSON printer omits default values': async ({ s, p }) => {
    const body = { name: 'Zero', categoryId: 0, status: 'available' };
    expect((await p('POST', '/pets', { body })).json).toMatchObject(body);
    const created = await s('POST', '/pets', { body });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: expect.any(Number), name: 'Zero' });
  },
  'X-RateLimit-Limit written as a float': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers['x-ratelimit-limit']).toBe('300');
    expect((await s('GET', '/pets?limit=1')).headers['x-ratelimit-limit']).toBe('300.0');
  },
  'X-RateLimit-Reset with thousands separators': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers['x-ratelimit-reset']).toBe('1780317060');
    expect((await s('GET', '/pets?limit=1')).headers['x-ratelimit-reset']).toBe('1,780,317,060');
  },
  'v2 error envelope rolled out to some accounts': async ({ s, p }) => {
    expect((await p('GET', '/pets/999999')).json).toMatchObject({ status: 404 });
    expect((await s('GET', '/pets/999999', { key: 'demo-free' })).json).toMatchObject({ status: 404 });
    const faulty = await s('GET', '/pets/999999');
    expect(faulty.status).toBe(404);
    expect(faulty.json.status).toBeUndefined();
    expect(faulty.json.error).toMatchObject({ status: 404, code: expect.any(String) });
  },
  // ------------------------------------------------------------------------------------ ids
  'creates deduplicated by a hash of the body': async ({ s, p }) => {
    const twice = async (send: Send) => [await send('POST', '/pets', { body: sold }), await send('POST', '/pets', { body: sold })];
    const [pa, pb] = await twice(p);
    expect(pa!.json.id).not.toBe(pb!.json.id);
    const [sa, sb] = await twice(s);
    expect(sb!.status).toBe(201);
    expect(sb!.json.id).toBe(sa!.json.id);
    expect(remaining(sa!) - remaining(sb!)).toBe(1);
  },
  'getPet reads the id with Number()': async ({ s, p }) => {
    expect((await p('GET', '/pets/0x10')).status).toBe(400);
    const faulty = await s('GET', '/pets/0x10');
    expect(faulty.status).toBe(200);
    expect(faulty.json.id).toBe(16);
    expect((await s('GET', '/pets/1e1')).json.id).toBe(10);
  },
  // ------------------------------------------------------------------------ rate-accounting
  'X-RateLimit-Remaining goes negative': async ({ s, p }) => {
    expect((await spend(p, 62)).slice(-2).map(remaining)).toEqual([0, 0]);
    expect((await spend(s, 63)).slice(-3).map(remaining)).toEqual([-1, -2, -3]);
  },
  'Retry-After sent in milliseconds': async ({ s, p }) => {
    expect(Number((await spend(p, 61)).at(-1)!.headers['retry-after'])).toBe(30);
    expect(Number((await spend(s, 61)).at(-1)!.headers['retry-after'])).toBe(30_000);
  },
  'limiter clock 90 s behind': async ({ s, p, d }) => {
    expect(Number((await p('GET', '/pets?limit=1')).headers['x-ratelimit-reset'])).toBeGreaterThan(d.clock.now() / 1000);
    expect(Number((await s('GET', '/pets?limit=1')).headers['x-ratelimit-reset'])).toBeLessThan(d.clock.now() / 1000);
  },
  'window length read as milliseconds': async ({ s, p, d, pd }) => {
    const refused = (await spend(p, 61)).at(-1)!;
    pd.clock.advance(1_000);
    expect((await p('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(429);
    expect(refused.status).toBe(429);
    const faulty = await spend(s, 61);
    expect(faulty.at(-1)!.status).toBe(429);
    d.clock.advance(1_000);
    // 60 more within the same minute: 120 requests served in about a second.
    expect((await spend(s, 60)).every((a) => a.status === 200)).toBe(true);
  },
  'refused creates not counted': async ({ s, p }) => {
    const cost = async (send: Send) => {
      const before = remaining(await send('GET', '/pets?limit=1'));
      const refused = await send('POST', '/pets', { body: { categoryId: 1 } });
      expect(refused.status).toBe(400);
      return before - remaining(refused);
    };
    expect(await cost(p)).toBe(1);
    expect(await cost(s)).toBe(0);
  },
  '404 answers without the rate-limit headers': async ({ s, p }) => {
    expect((await p('GET', '/pets/999999')).headers['x-ratelimit-limit']).toBe('300');
    const faulty = await s('GET', '/pets/999999');
    expect(faulty.status).toBe(404);
    expect(faulty.headers['x-ratelimit-limit']).toBeUndefined();
  },
  'Retry-After HTTP-date written in local time': async ({ s, d }) => {
    const refused = (await spend(s, 61)).at(-1)!;
    expect(refused.status).toBe(429);
    expect(Date.parse(refused.headers['retry-after']!)).toBeLessThan(d.clock.now());
  },
  'throttle shield replays a stored 429 for five minutes': async ({ s, p, d, pd }) => {
    const wait = async (send: Send, deployment: Deployment) => {
      const refused = (await spend(send, 61)).at(-1)!;
      expect(refused.status).toBe(429);
      deployment.clock.advance(Number(refused.headers['retry-after']) * 1000);
      return send('GET', '/pets?limit=1', { key: 'demo-free' });
    };
    expect((await wait(p, pd)).status).toBe(200);
    const after = await wait(s, d);
    expect(after.status).toBe(429);
    expect(Number(after.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(d.clock.now() / 1000);
  },
  '429 answers report the daily window': async ({ s, p }) => {
    expect((await spend(p, 61)).at(-1)!.headers['x-ratelimit-remaining']).toBe('0');
    const refused = (await spend(s, 61)).at(-1)!;
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-remaining']).toBe('940');
  },
  'X-RateLimit-Remaining dropped when it is 0': async ({ s, p }) => {
    expect((await spend(p, 60)).at(-1)!.headers['x-ratelimit-remaining']).toBe('0');
    const answers = await spend(s, 61);
    expect(answers[58]!.headers['x-ratelimit-remaining']).toBe('1');
    expect(answers[59]!.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(answers[60]!.headers['x-ratelimit-remaining']).toBeUndefined();
  },
  // ----------------------------------------------------------------------------------- auth
  'shared cache ignores Authorization': async ({ s, p }) => {
    await p('GET', '/pets?limit=3');
    expect((await p('GET', '/pets?limit=3', { key: null })).status).toBe(401);
    await s('GET', '/pets?limit=3');
    const keyless = await s('GET', '/pets?limit=3', { key: null });
    expect(keyless.status).toBe(200);
    expect(keyless.json).toHaveLength(3);
  },
  'CDN caches 401 answers': async ({ s, p }) => {
    await p('GET', '/pets?limit=3', { key: null });
    expect((await p('GET', '/pets?limit=3')).status).toBe(200);
    await s('GET', '/pets?limit=3', { key: null });
    expect((await s('GET', '/pets?limit=3')).status).toBe(401);
    expect((await s('GET', '/pets?limit=4')).status).toBe(200);
  },
  'case-insensitive router, case-sensitive auth rule': async ({ s, p }) => {
    expect((await p('GET', '/PETS', { key: null })).status).toBe(404);
    expect((await s('GET', '/pets', { key: null })).status).toBe(401);
    expect((await s('GET', '/PETS', { key: null })).status).toBe(200);
  },
  'unknown keys answered with a bare 401': async ({ s, p }) => {
    expect((await p('GET', '/pets', { key: 'not-a-key' })).json).toMatchObject({ status: 401 });
    expect((await s('GET', '/pets', { key: null })).json).toMatchObject({ status: 401 });
    const faulty = await s('GET', '/pets', { key: 'not-a-key' });
    expect(faulty.status).toBe(401);
    expect(faulty.headers['content-type']).toMatch(/^text\/plain/);
    expect(faulty.text).toBe('Unauthorized');
  },
  // --------------------------------------------------------------------------- concurrency
  'connection pool of four exhausted by parallel requests': async ({ s, p }) => {
    const burst = (send: Send) => Promise.all(Array.from({ length: 8 }, (_, i) => send('GET', `/pets/${i + 1}`)));
    expect((await burst(p)).map((a) => a.status)).toEqual(Array(8).fill(200));
    expect((await burst(s)).map((a) => a.status)).toContain(500);
    expect((await s('GET', '/pets/1')).status).toBe(200);
  },
  'query parameters leak from the previous list request': async ({ s, p }) => {
    await p('GET', '/pets?status=sold');
    expect(new Set(statusesOf(await p('GET', '/pets?limit=100'))).size).toBe(3);
    await s('GET', '/pets?status=sold');
    expect(new Set(statusesOf(await s('GET', '/pets?limit=100')))).toEqual(new Set(['sold']));
  },
  'parallel requests report the same Remaining': async ({ s, p }) => {
    const burst = (send: Send) => Promise.all(Array.from({ length: 5 }, () => send('GET', '/pets?limit=1')));
    expect(new Set((await burst(p)).map(remaining)).size).toBe(5);
    expect(new Set((await burst(s)).map(remaining)).size).toBe(1);
  },
  // ----------------------------------------------------------------------------------- keys
  'throttling spills over to every key of the client': async ({ s, p }) => {
    await spend(p, 61);
    expect((await p('GET', '/pets?limit=1', { key: 'demo-pro' })).status).toBe(200);
    expect((await spend(s, 61)).at(-1)!.status).toBe(429);
    const pro = await s('GET', '/pets?limit=1', { key: 'demo-pro' });
    expect(pro.status).toBe(429);
    expect(pro.headers['x-ratelimit-limit']).toBe('60');
  },
  // ---------------------------------------------------------------------------- validation
  'limit compared as a string': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=5')).status).toBe(200);
    expect((await s('GET', '/pets?limit=10')).status).toBe(200);
    expect((await s('GET', '/pets?limit=5')).status).toBe(400);
    expect((await s('GET', '/pets?limit=20')).status).toBe(400);
  },
  'unique index on name under a case- and accent-insensitive collation': async ({ s, p }) => {
    const existing = (await p('GET', '/pets/1')).json.name as string;
    expect((await p('POST', '/pets', { body: { name: existing.toUpperCase(), categoryId: 1 } })).status).toBe(201);
    expect((await s('POST', '/pets', { body: { name: existing.toUpperCase(), categoryId: 1 } })).status).toBe(409);
    expect((await s('POST', '/pets', { body: { name: 'Zoë', categoryId: 1 } })).status).toBe(201);
    expect((await s('POST', '/pets', { body: { name: 'zoe', categoryId: 1 } })).json).toMatchObject({ status: 409 });
  },
  'repeated query parameters answered 500': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=5&limit=10')).status).toBe(400);
    expect((await s('GET', '/pets?limit=5')).status).toBe(200);
    expect((await s('GET', '/pets?limit=5&limit=10')).status).toBe(500);
  },
  // ---------------------------------------------------------------------------------- bytes
  'streamed list writer leaves a trailing comma': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=2')).json).toHaveLength(2);
    const faulty = await s('GET', '/pets?limit=2');
    expect(faulty.text.endsWith(',]')).toBe(true);
    expect(faulty.json).toBeUndefined();
  },
  'numbers of 1000 or more written with thousands separators': async ({ s, p }) => {
    const body = { name: 'Big', categoryId: 123456 };
    expect((await p('POST', '/pets', { body })).json.categoryId).toBe(123456);
    expect((await s('POST', '/pets', { body: sold })).json).toMatchObject(sold);
    const faulty = await s('POST', '/pets', { body });
    expect(faulty.text).toContain('"categoryId":123,456');
    expect(faulty.json).toBeUndefined();
  },
  'bodies gzip-compressed twice': async ({ s, p }) => {
    expect((await p('GET', '/pets')).json).toHaveLength(20);
    expect((await s('GET', '/pets/1')).json.id).toBe(1);
    const faulty = await s('GET', '/pets');
    expect([...faulty.bytes.slice(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(faulty.json).toBeUndefined();
  },
  'Content-Encoding: gzip on small bodies left uncompressed': async ({ s, p }) => {
    const gzip = { headers: { 'accept-encoding': 'gzip' } };
    expect((await p('GET', '/pets/1', gzip)).json.id).toBe(1);
    expect((await s('GET', '/pets/1')).json.id).toBe(1);
    expect((await s('GET', '/pets', gzip)).json).toHaveLength(20);
    await expect(s('GET', '/pets/1', gzip)).rejects.toThrow(/gzip/);
  },
  // ---------------------------------------------------------------------------- deprecation
  'getPet Sunset at local midnight in Berlin': async ({ s, p }) => {
    expect(Date.parse((await p('GET', '/pets/1')).headers.sunset!)).toBe(Date.UTC(2030, 11, 5));
    expect(Date.parse((await s('GET', '/pets/1')).headers.sunset!)).toBe(Date.UTC(2030, 11, 4, 23));
  },
  'Deprecation headers on every error answer': async ({ s, p }) => {
    expect((await p('GET', '/pets', { key: null })).headers.deprecation).toBeUndefined();
    expect((await s('GET', '/pets')).headers.deprecation).toBeUndefined();
    const faulty = await s('GET', '/pets', { key: null });
    expect(faulty.status).toBe(401);
    expect(faulty.headers.deprecation).toBeDefined();
    expect(faulty.headers.sunset).toBeDefined();
  },
  // ---------------------------------------------------------------------------------- other
  'If-None-Match answered 304 whatever the tag': async ({ s, p }) => {
    const stale = { headers: { 'if-none-match': '"made-up"' } };
    expect((await p('GET', '/pets/1', stale)).status).toBe(200);
    expect((await s('GET', '/pets/1')).status).toBe(200);
    const faulty = await s('GET', '/pets/1', stale);
    expect(faulty.status).toBe(304);
    expect(faulty.text).toBe('');
  },
};

/** What each legal variant visibly does differently from the mock (and still within the contract). */
const variantWitnesses: Record<string, Witness> = {
  'ETags and conditional GET': async ({ s }) => {
    const first = await s('GET', '/pets/1');
    const tag = first.headers.etag!;
    expect(tag).toMatch(/^W\/".+"$/);
    const again = await s('GET', '/pets/1', { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(remaining(first) - remaining(again)).toBe(1);
    expect((await s('GET', '/pets/1', { headers: { 'if-none-match': 'W/"stale"' } })).status).toBe(200);
  },
  'gzip when the client asks for it': async ({ s }) => {
    const zipped = await s('GET', '/pets?limit=5', { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.json).toHaveLength(5);
    expect((await s('GET', '/pets?limit=5', { headers: { 'accept-encoding': 'gzip;q=0' } })).headers['content-encoding']).toBeUndefined();
  },
  'IETF RateLimit headers beside the X-RateLimit ones': async ({ s }) => {
    const answer = await s('GET', '/pets?limit=1');
    expect(answer.headers['ratelimit-remaining']).toBe(answer.headers['x-ratelimit-remaining']);
    expect(answer.headers['ratelimit-reset']).toBe('30');
  },
  'Retry-After as an HTTP-date': async ({ s, d }) => {
    const refused = (await spend(s, 61)).at(-1)!;
    expect(refused.status).toBe(429);
    const at = Date.parse(refused.headers['retry-after']!);
    expect(at).toBeGreaterThan(d.clock.now());
    d.clock.advance(at - d.clock.now());
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(200);
  },
  'CORS for one origin only': async ({ s }) => {
    expect((await s('GET', '/pets?limit=1', { headers: { origin: 'https://shelter.example' } })).headers['access-control-allow-origin']).toBe('https://shelter.example');
    expect((await s('GET', '/pets?limit=1', { headers: { origin: 'https://evil.example' } })).headers['access-control-allow-origin']).not.toBe('https://evil.example');
  },
  'lists sorted by name': async ({ s }) => {
    const listed = names(await s('GET', '/pets?limit=10'));
    expect(listed).toEqual([...listed].sort());
  },
  'keyless requests answered 401 on every path and method': async ({ s }) => {
    expect((await s('GET', '/nope', { key: null })).json).toMatchObject({ status: 401 });
    expect((await s('DELETE', '/pets/1', { key: null })).json).toMatchObject({ status: 401 });
    expect((await s('GET', '/nope')).json).toMatchObject({ status: 404 });
  },
  'requests without a key are not rate-limited': async ({ s }) => {
    const answers = await spend(s, 70, 'not-a-key');
    expect(answers.map((a) => a.status)).toEqual(Array(70).fill(401));
    expect(answers.at(-1)!.headers['x-ratelimit-remaining']).toBe('60');
  },
  'error messages in the client\'s language': async ({ s }) => {
    const answer = await s('GET', '/pets/999999', { headers: { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.8' } });
    expect(answer.json).toMatchObject({ status: 404, message: 'Ressource introuvable.' });
    expect(answer.headers['content-language']).toBe('fr');
  },
  'fields in reverse order, spaced out': async ({ s }) => {
    const answer = await s('GET', '/pets/1');
    expect(answer.text.startsWith('{"status" : ')).toBe(true);
    expect(answer.json.id).toBe(1);
  },
  'absolute Location and Content-Location on 201': async ({ s }) => {
    const created = await s('POST', '/pets', { body: sold });
    expect(created.headers.location).toBe(`http://deployment.test/v1/pets/${idOf(created)}`);
  },
  'refuses unknown fields in a new pet': async ({ s }) => {
    expect((await s('POST', '/pets', { body: { ...sold, color: 'brown' } })).json).toMatchObject({ status: 400, code: 'UNKNOWN_FIELD' });
  },
  'a gateway that asks for the key before routing': async ({ s, p }) => {
    const keyless = await s('DELETE', '/pets', { key: null });
    expect([keyless.status, keyless.json?.code, (await p('DELETE', '/pets', { key: null })).status]).toEqual([401, 'UNAUTHORIZED', 405]);
    expect((await s('OPTIONS', '/pets', { headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } })).status).toBe(405);
    expect([(await s('POST', '/pets', { body: { name: 'Rex', categoryId: 0 } })).status, (await p('POST', '/pets', { body: { name: 'Rex', categoryId: 0 } })).status]).toEqual([400, 201]);
    const created = await s('POST', '/pets', { body: sold });
    expect([created.status, created.headers.location]).toEqual([201, undefined]);
    const read = await s('GET', `/pets/${created.json.id}`);
    expect([read.status, read.headers.deprecation !== undefined, read.headers.sunset]).toEqual([200, true, undefined]);
  },
  'getPet deprecated without Sunset, with a successor link': async ({ s }) => {
    const answer = await s('GET', '/pets/1');
    expect(answer.headers.deprecation).toBeDefined();
    expect(answer.headers.sunset).toBeUndefined();
    expect(answer.headers.link).toContain('successor-version');
  },
};

describe('regressions, second batch', () => {
  it('are many, named once, each with a witness', () => {
    expectWitnessed(regressions2, witnesses, 30, true);
  });

  itWitnessesEach(regressions2, witnesses);
});

describe('legal variants, second batch', () => {
  it('are many, named once, each with a witness', () => {
    expectWitnessed(legalVariants2, variantWitnesses, 10, true);
  });

  itVariantsEach(legalVariants2, variantWitnesses, keepsTheContract);
});
