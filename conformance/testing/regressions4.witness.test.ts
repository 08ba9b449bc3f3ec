// Witnesses for regressions4.ts: each regression's bug seen from outside with a few hand-written
// requests (the same requests answered rightly by the plain mock), and each legal variant still
// answering valid requests with the contract's statuses. In-process, no network, no sleeps: time
// moves by clock.advance. The deployments start at 12:30:30 UTC on 1 June 2026, so a fresh key's
// minute resets at 12:31:00 (X-RateLimit-Reset 1780317060). The sender and helpers shared with the
// other catalogues' witnesses are in witnessHelpers.ts.
import { describe, expect, it } from 'vitest';
import { legalVariants4, regressions4 } from './regressions4.ts';
import { expectWitnessed, ids, itVariantsEach, itWitnessesEach, readingIds, remaining, sold, spend, type Answer, type Send, type Witness } from './witnessHelpers.ts';

/** The id of a created pet as its digits. */
const { idOf, keepsTheContract } = readingIds((answer) => /"id"\s*:\s*"?(\d+)/.exec(answer.text)?.[1] ?? '');
const RESET = 1780317060;
const statusesOf = (answer: Answer) => (answer.json as { status?: string }[]).map((pet) => pet.status);
const names = (answer: Answer) => (answer.json as { name: string }[]).map((pet) => pet.name);
/** The first 429 of a Free key, after spending its minute. */
const firstRefusal = async (send: Send) => (await spend(send, 61)).at(-1)!;
const limitOf = (answer: Answer) => answer.headers['x-ratelimit-limit'];

const witnesses: Record<string, Witness> = {
  // -------------------------------------------------------------------------------- rate-plans
  'plan ids index the plan table one row down': async ({ s, p }) => {
    expect(limitOf(await p('GET', '/pets?limit=1', { key: 'demo-free' }))).toBe('60');
    expect(limitOf(await s('GET', '/pets?limit=1', { key: 'demo-free' }))).toBe('300');
    expect(limitOf(await s('GET', '/pets?limit=1', { key: 'demo-pro' }))).toBe('1000');
    expect((await spend(s, 70)).every((a) => a.status === 200)).toBe(true);
    expect((await spend(p, 61)).at(-1)!.status).toBe(429);
  },
  'X-RateLimit-Limit overwritten by the daily limiter': async ({ s, p }) => {
    expect(limitOf(await p('GET', '/pets?limit=1'))).toBe('300');
    const pro = await s('GET', '/pets?limit=1');
    expect(limitOf(pro)).toBe('10000');
    expect(remaining(pro)).toBe(299);
    expect(pro.headers['x-ratelimit-reset']).toBe(String(RESET));
    expect(limitOf(await s('GET', '/pets?limit=1', { key: 'demo-free' }))).toBe('1000');
  },
  'Enterprise keys answered X-RateLimit-Limit: -1': async ({ s, p }) => {
    expect(limitOf(await p('GET', '/pets?limit=1', { key: 'demo-enterprise' }))).toBe('1000000');
    const enterprise = await s('GET', '/pets?limit=1', { key: 'demo-enterprise' });
    expect(limitOf(enterprise)).toBe('-1');
    expect(enterprise.headers['x-ratelimit-remaining']).toBe('-1');
    expect(limitOf(await s('GET', '/pets?limit=1'))).toBe('300');
  },
  'Business keys fall back to the Free plan (plan name case mismatch)': async ({ s, p }) => {
    expect(limitOf(await p('GET', '/pets?limit=1', { key: 'demo-business' }))).toBe('1000');
    expect(limitOf(await s('GET', '/pets?limit=1', { key: 'demo-business' }))).toBe('60');
    expect((await spend(s, 60, 'demo-business')).at(-1)!.status).toBe(429);
    expect((await spend(p, 60, 'demo-business')).at(-1)!.status).toBe(200);
  },
  // -------------------------------------------------------------------------------- rate-windows
  'X-RateLimit-Reset names the start of the current window': async ({ s, p, d }) => {
    expect((await p('GET', '/pets?limit=1')).headers['x-ratelimit-reset']).toBe(String(RESET));
    const reset = Number((await s('GET', '/pets?limit=1')).headers['x-ratelimit-reset']);
    expect(reset).toBe(RESET - 60);
    expect(reset * 1000).toBeLessThan(d.clock.now());
  },
  'X-RateLimit-Reset written in Unix milliseconds': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers['x-ratelimit-reset']).toBe(String(RESET));
    expect((await s('GET', '/pets?limit=1')).headers['x-ratelimit-reset']).toBe(String(RESET * 1000));
  },
  'sliding-window limiter behind fixed-window headers': async ({ s, p, d, pd }) => {
    const refused = await firstRefusal(s);
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-reset']).toBe(String(RESET));
    expect(refused.headers['retry-after']).toBe('30');
    expect((await firstRefusal(p)).status).toBe(429);
    // At the announced reset the plain mock serves again; the sliding log still refuses.
    d.clock.advance(30_000);
    pd.clock.advance(30_000);
    expect((await p('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(200);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(429);
    d.clock.advance(30_000);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(200);
  },
  'window end inclusive: a request at the exact reset second counts in the old window': async ({ s, p, d, pd }) => {
    for (const send of [s, p]) expect((await spend(send, 60)).at(-1)!.headers['x-ratelimit-reset']).toBe(String(RESET));
    d.clock.advance(30_000);
    pd.clock.advance(30_000);
    expect((await p('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(200);
    const atReset = await s('GET', '/pets?limit=1', { key: 'demo-free' });
    expect(atReset.status).toBe(429);
    expect(atReset.headers['retry-after']).toBe('0');
    expect(atReset.headers['x-ratelimit-reset']).toBe(String(RESET));
    d.clock.advance(1);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(200);
  },
  'Retry-After one second short': async ({ s, p, d }) => {
    expect((await firstRefusal(p)).headers['retry-after']).toBe('30');
    const refused = await firstRefusal(s);
    expect(refused.headers['retry-after']).toBe('29');
    d.clock.advance(29_000);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(429);
  },
  // -------------------------------------------------------------------------------- throttling
  'last request of the quota refused (>= after the increment)': async ({ s, p }) => {
    const plain = await spend(p, 60);
    expect(plain.every((a) => a.status === 200)).toBe(true);
    expect(remaining(plain.at(-1)!)).toBe(0);
    const faulty = await spend(s, 60);
    expect(faulty.slice(0, 59).every((a) => a.status === 200)).toBe(true);
    expect(faulty.at(-1)!.status).toBe(429);
    expect(faulty.at(-1)!.json).toMatchObject({ status: 429 });
  },
  'rate limiter mounted on GET routes only': async ({ s, p }) => {
    await spend(p, 60);
    expect((await p('POST', '/pets', { key: 'demo-free', body: sold })).status).toBe(429);
    await spend(s, 60);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(429);
    const created = await s('POST', '/pets', { key: 'demo-free', body: { name: 'Over quota', categoryId: 1 } });
    expect(created.status).toBe(201);
    expect(remaining(created)).toBe(0);
    expect(limitOf(created)).toBe('60');
  },
  // -------------------------------------------------------------------------------- pagination
  'default page size taken from the admin app\'s config (50)': async ({ s, p }) => {
    expect((await p('GET', '/pets')).json).toHaveLength(20);
    expect((await s('GET', '/pets')).json).toHaveLength(50);
    expect((await s('GET', '/pets?limit=5')).json).toHaveLength(5);
  },
  'limit rounded up to a cacheable page size': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=5')).json).toHaveLength(5);
    expect((await s('GET', '/pets?limit=5')).json).toHaveLength(10);
    expect((await s('GET', '/pets?limit=21')).json).toHaveLength(50);
    expect((await s('GET', '/pets?limit=20')).json).toHaveLength(20);
  },
  'limit ignored when the status filter is given': async ({ s, p }) => {
    expect((await p('GET', '/pets?status=available&limit=3')).json).toHaveLength(3);
    const faulty = await s('GET', '/pets?status=available&limit=3');
    expect(faulty.json.length).toBeGreaterThan(3);
    expect(statusesOf(faulty).every((status) => status === 'available')).toBe(true);
    expect((await s('GET', '/pets?limit=3')).json).toHaveLength(3);
  },
  // -------------------------------------------------------------------------------- filtering
  'status=available dropped as the filter\'s default value': async ({ s, p }) => {
    expect(new Set(statusesOf(await p('GET', '/pets?status=available&limit=50')))).toEqual(new Set(['available']));
    expect(new Set(statusesOf(await s('GET', '/pets?status=available&limit=50')))).toEqual(new Set(['available', 'pending', 'sold']));
    expect(new Set(statusesOf(await s('GET', '/pets?status=sold&limit=50')))).toEqual(new Set(['sold']));
  },
  'status filter upper-cased in the Turkish locale': async ({ s, p }) => {
    expect((await p('GET', '/pets?status=available')).json.length).toBeGreaterThan(0);
    expect((await p('GET', '/pets?status=pending')).json.length).toBeGreaterThan(0);
    expect((await s('GET', '/pets?status=available')).json).toEqual([]);
    expect((await s('GET', '/pets?status=pending')).json).toEqual([]);
    expect((await s('GET', '/pets?status=sold')).json.length).toBeGreaterThan(0);
  },
  'status=available also matches pets stored without a status': async ({ s, p }) => {
    const created = await s('POST', '/pets', { body: { name: 'Stray', categoryId: 1 } });
    expect(created.json.status).toBeUndefined();
    const listed = await s('GET', '/pets?status=available&limit=5');
    expect(listed.json[0]).toEqual({ id: Number(idOf(created)), name: 'Stray', categoryId: 1 });
    expect(statusesOf(listed)).toContain(undefined);
    await p('POST', '/pets', { body: { name: 'Stray', categoryId: 1 } });
    expect(statusesOf(await p('GET', '/pets?status=available&limit=5')).every((status) => status === 'available')).toBe(true);
  },
  // -------------------------------------------------------------------------------- int64
  'categoryId parsed with JSON.parse into a double': async ({ s, p }) => {
    const body = '{"name":"Big","categoryId":9007199254740993}';
    const plain = await p('POST', '/pets', { body });
    expect(plain.text).toContain('"categoryId":9007199254740993');
    const faulty = await s('POST', '/pets', { body });
    expect(faulty.status).toBe(201);
    expect(faulty.text).toContain('"categoryId":9007199254740992');
    expect((await s('GET', `/pets/${idOf(faulty)}`)).text).toContain('"categoryId":9007199254740992');
    expect((await s('POST', '/pets', { body: { name: 'Small', categoryId: 12 } })).json.categoryId).toBe(12);
  },
  'categoryId -2^63 crashes the shard router (Math.abs overflow)': async ({ s, p }) => {
    const body = '{"name":"Min","categoryId":-9223372036854775808}';
    expect((await p('POST', '/pets', { body })).status).toBe(201);
    const faulty = await s('POST', '/pets', { body });
    expect(faulty.status).toBe(500);
    expect(faulty.json).toMatchObject({ status: 500 });
    expect((await s('POST', '/pets', { body: '{"name":"Max","categoryId":9223372036854775807}' })).status).toBe(201);
  },
  'int64 fields written as JSON strings by the proto3 JSON mapping': async ({ s, p }) => {
    expect((await p('GET', '/pets/1')).json).toMatchObject({ id: 1 });
    const pet = (await s('GET', '/pets/1')).json;
    expect(pet.id).toBe('1');
    expect(typeof pet.categoryId).toBe('string');
    expect((await s('GET', '/pets?limit=2')).json[0].id).toEqual(expect.any(String));
    expect((await s('GET', '/pets/999999')).json.status).toBe(404);
  },
  'categoryId spelled 1.0 or 1e3 refused by Go\'s int64 decoder': async ({ s, p }) => {
    for (const literal of ['1.0', '1e3']) {
      const body = `{"name":"Spelled","categoryId":${literal}}`;
      expect((await p('POST', '/pets', { body })).status).toBe(201);
      const faulty = await s('POST', '/pets', { body });
      expect(faulty.status).toBe(400);
      expect(faulty.json.message).toContain('cannot unmarshal number');
    }
    expect((await s('POST', '/pets', { body: '{"name":"Plain","categoryId":1000}' })).status).toBe(201);
  },
  // -------------------------------------------------------------------------------- bodies
  'client-sent id honoured by the ORM\'s save(), overwriting that pet': async ({ s, p }) => {
    const body = { id: 1, name: 'Intruder', categoryId: 9 };
    const plain = await p('POST', '/pets', { body });
    expect(plain.status).toBe(201);
    expect(plain.json.id).not.toBe(1);
    expect((await p('GET', '/pets/1')).json.name).not.toBe('Intruder');
    const faulty = await s('POST', '/pets', { body });
    expect(faulty.status).toBe(201);
    expect(faulty.json).toMatchObject({ id: 1, name: 'Intruder' });
    expect((await s('GET', '/pets/1')).json).toMatchObject({ id: 1, name: 'Intruder', categoryId: 9 });
    expect((await s('GET', '/pets?limit=100')).json.filter((pet: { name: string }) => pet.name === 'Intruder')).toHaveLength(1);
  },
  'bodies over 2 KiB end with a NUL from the buffer pool': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=50')).json).toHaveLength(50);
    const faulty = await s('GET', '/pets?limit=50');
    expect(faulty.bytes.at(-1)).toBe(0);
    expect(faulty.json).toBeUndefined();
    expect((await s('GET', '/pets?limit=5')).json).toHaveLength(5);
  },
  'request bodies without a charset decoded as ISO-8859-1': async ({ s, p }) => {
    const body = { name: 'Zoë', categoryId: 1 };
    expect((await p('POST', '/pets', { body })).json.name).toBe('Zoë');
    const faulty = await s('POST', '/pets', { body });
    expect(faulty.json.name).toBe('ZoÃ«');
    expect((await s('GET', `/pets/${idOf(faulty)}`)).json.name).toBe('ZoÃ«');
    expect((await s('POST', '/pets', { body, contentType: 'application/json; charset=utf-8' })).json.name).toBe('Zoë');
  },
  '201 built from the entity before the database default is applied': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: sold })).json.status).toBe('available');
    const created = await s('POST', '/pets', { body: sold });
    expect(created.json.status).toBeUndefined();
    expect((await s('GET', `/pets/${idOf(created)}`)).json.status).toBe('available');
    expect((await s('POST', '/pets', { body: { ...sold, status: 'sold' } })).json.status).toBe('sold');
  },
  // -------------------------------------------------------------------------------- errors
  'getPet answers 200 null for an unknown id': async ({ s, p }) => {
    expect((await p('GET', '/pets/999999')).status).toBe(404);
    const faulty = await s('GET', '/pets/999999');
    expect(faulty.status).toBe(200);
    expect(faulty.text).toBe('null');
    expect((await s('GET', '/pets/1')).json).toMatchObject({ id: 1 });
  },
  '401 for an unknown key carries status 403 in its body': async ({ s, p }) => {
    expect((await p('GET', '/pets', { key: 'nope' })).json.status).toBe(401);
    const faulty = await s('GET', '/pets', { key: 'nope' });
    expect(faulty.status).toBe(401);
    expect(faulty.json).toMatchObject({ code: expect.any(String), status: 403 });
    expect((await s('GET', '/pets', { key: null })).json.status).toBe(401);
  },
  '429s written by the gateway\'s usage plan with its own body': async ({ s, p }) => {
    expect((await firstRefusal(p)).json).toMatchObject({ code: expect.any(String), status: 429 });
    const faulty = await firstRefusal(s);
    expect(faulty.status).toBe(429);
    expect(faulty.json).toEqual({ message: 'Too Many Requests' });
    expect(faulty.headers['retry-after']).toBe('30');
  },
  '201 written with res.end(), no Content-Type': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: sold })).headers['content-type']).toMatch(/^application\/json/);
    const faulty = await s('POST', '/pets', { body: sold });
    expect(faulty.status).toBe(201);
    expect(faulty.headers['content-type']).toBeUndefined();
    expect(faulty.json).toMatchObject(sold);
    expect((await s('GET', '/pets/1')).headers['content-type']).toMatch(/^application\/json/);
  },
  // -------------------------------------------------------------------------------- auth
  'body and query validation run before authentication': async ({ s, p }) => {
    const invalid = { categoryId: 1 };
    expect((await p('POST', '/pets', { key: null, body: invalid })).status).toBe(401);
    expect((await s('POST', '/pets', { key: null, body: invalid })).status).toBe(400);
    expect((await s('POST', '/pets', { key: 'nope', body: invalid })).json).toMatchObject({ status: 400 });
    expect((await p('GET', '/pets?limit=0', { key: null })).status).toBe(401);
    expect((await s('GET', '/pets?limit=0', { key: null })).status).toBe(400);
    expect((await s('POST', '/pets', { key: null, body: sold })).status).toBe(401);
  },
  'API keys matched under a case-insensitive collation': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1', { key: 'DEMO-PRO' })).status).toBe(401);
    expect((await s('GET', '/pets?limit=1', { key: 'DEMO-PRO' })).status).toBe(200);
    expect((await s('POST', '/pets', { key: 'Demo-Pro', body: sold })).status).toBe(201);
    expect((await s('GET', '/pets?limit=1', { key: 'nope' })).status).toBe(401);
  },
  '401s answered by the gateway\'s key-auth plugin, before rate limiting adds its headers': async ({ s, p }) => {
    expect(limitOf(await p('GET', '/pets', { key: null }))).toBe('60');
    const faulty = await s('GET', '/pets', { key: null });
    expect(faulty.status).toBe(401);
    expect(faulty.headers['x-ratelimit-limit']).toBeUndefined();
    expect(faulty.headers['x-ratelimit-reset']).toBeUndefined();
    expect(limitOf(await s('GET', '/pets?limit=1'))).toBe('300');
  },
  // -------------------------------------------------------------------------------- deprecation
  'Sunset written in Deprecation\'s @-timestamp form': async ({ s, p }) => {
    expect((await p('GET', '/pets/1')).headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect((await s('GET', '/pets/1')).headers.sunset).toBe(`@${Date.UTC(2030, 11, 5) / 1000}`);
  },
  'HEAD /pets/{petId} answered without Deprecation, Sunset and Link': async ({ s, p }) => {
    expect((await p('HEAD', '/pets/1')).headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    const head = await s('HEAD', '/pets/1');
    expect(head.status).toBe(200);
    expect([head.headers.deprecation, head.headers.sunset, head.headers.link]).toEqual([undefined, undefined, undefined]);
    expect((await s('GET', '/pets/1')).headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  },
  'Deprecation: true from a pinned old middleware release': async ({ s, p }) => {
    expect((await p('GET', '/pets/1')).headers.deprecation).toMatch(/^@\d+$/);
    expect((await s('GET', '/pets/1')).headers.deprecation).toBe('true');
  },
  // -------------------------------------------------------------------------------- http
  'Last-Modified from the deployment time, so If-Modified-Since answers 304 after a change': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=3')).headers['last-modified']).toBeUndefined();
    const first = await s('GET', '/pets?limit=3');
    const stamp = first.headers['last-modified']!;
    expect(Date.parse(stamp)).toBeLessThan(Date.parse(first.headers.date!));
    await s('POST', '/pets', { body: { name: 'Newcomer', categoryId: 1 } });
    expect(names(await s('GET', '/pets?limit=3'))).toContain('Newcomer');
    // A client revalidating its copy is told nothing changed.
    expect((await s('GET', '/pets?limit=3', { headers: { 'if-modified-since': stamp } })).status).toBe(304);
    expect((await p('GET', '/pets?limit=3', { headers: { 'if-modified-since': stamp } })).status).toBe(200);
  },
  'Expect: 100-continue refused with 417 by the front server': async ({ s, p }) => {
    const expectContinue = { body: sold, headers: { expect: '100-continue' } };
    expect((await p('POST', '/pets', expectContinue)).status).toBe(201);
    const faulty = await s('POST', '/pets', expectContinue);
    expect(faulty.status).toBe(417);
    expect((await s('POST', '/pets', { body: sold })).status).toBe(201);
  },
  // -------------------------------------------------------------------------------- time
  'Date from a container clock 7 minutes slow, reset from Redis time': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers.date).toBe('Mon, 01 Jun 2026 12:30:30 GMT');
    const faulty = await s('GET', '/pets?limit=1');
    expect(faulty.headers.date).toBe('Mon, 01 Jun 2026 12:23:30 GMT');
    expect(Number(faulty.headers['x-ratelimit-reset']) * 1000 - Date.parse(faulty.headers.date!)).toBe(450_000);
  },
  'Date written from local time (New York, summer time) with a GMT suffix': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers.date).toBe('Mon, 01 Jun 2026 12:30:30 GMT');
    expect((await s('GET', '/pets?limit=1')).headers.date).toBe('Mon, 01 Jun 2026 08:30:30 GMT');
  },
  // -------------------------------------------------------------------------------- store-orders
  'store orders served without authentication': async ({ s, p }) => {
    expect((await p('GET', '/store/orders', { key: null })).status).toBe(401);
    const faulty = await s('GET', '/store/orders', { key: null });
    expect(faulty.status).toBe(200);
    expect(faulty.json).toBeInstanceOf(Array);
    expect(limitOf(faulty)).toBe('60');
    expect((await s('GET', '/pets', { key: null })).status).toBe(401);
  },
  'store orders answered without the rate-limit headers': async ({ s, p }) => {
    expect(limitOf(await p('GET', '/store/orders'))).toBe('300');
    const faulty = await s('GET', '/store/orders');
    expect(faulty.status).toBe(200);
    expect(faulty.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await s('GET', '/store/orders', { key: null })).headers['x-ratelimit-remaining']).toBeUndefined();
    expect(limitOf(await s('GET', '/pets?limit=1'))).toBe('300');
  },
  // -------------------------------------------------------------------------------- concurrency
  'limiter\'s plan set on a shared singleton': async ({ s, p }) => {
    const plain = await Promise.all([p('GET', '/pets?limit=1', { key: 'demo-free' }), p('GET', '/pets?limit=1', { key: 'demo-pro' })]);
    expect(plain.map(limitOf)).toEqual(['60', '300']);
    expect(limitOf(await s('GET', '/pets?limit=1', { key: 'demo-free' }))).toBe('60');
    const faulty = await Promise.all([s('GET', '/pets?limit=1', { key: 'demo-free' }), s('GET', '/pets?limit=1', { key: 'demo-pro' })]);
    expect(faulty.map(limitOf)).toEqual(['300', '300']);
    expect(remaining(faulty[0]!)).toBe(58);
  },
};

const variantWitnesses: Record<string, Witness> = {
  'sets Sunset at the last second of 5 December 2030': async ({ s }) => {
    const got = await s('GET', '/pets/1');
    expect(got.headers.sunset).toBe('Thu, 05 Dec 2030 23:59:59 GMT');
    expect(got.headers.deprecation).toMatch(/^@\d+$/);
  },
  'dates the deprecation earlier and links a deprecation policy': async ({ s }) => {
    const got = await s('GET', '/pets/1');
    expect(got.headers.deprecation).toBe('@1735689600');
    expect(got.headers.link).toContain('rel="alternate"');
    expect(got.headers.link).toContain('rel="deprecation"');
    expect(got.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  },
  'sends no CORS headers': async ({ s }) => {
    const list = await s('GET', '/pets?limit=1', { headers: { origin: 'https://app.example' } });
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBeUndefined();
  },
  'assigns ids from a multi-region sequence (step 10, offset 3)': async ({ s }) => {
    const created = await s('POST', '/pets', { body: sold });
    expect(idOf(created)).toMatch(/3$/);
    expect(created.headers.location).toBe(`/v1/pets/${idOf(created)}`);
    expect(ids(await s('GET', '/pets?limit=5')).every((id) => id % 10 === 3)).toBe(true);
    expect((await s('GET', '/pets/13')).json).toMatchObject({ id: 13 });
    expect((await s('GET', '/pets/1')).status).toBe(404);
  },
  'pages with a cursor and Link: rel="next"': async ({ s }) => {
    const first = await s('GET', '/pets?limit=5');
    const link = first.headers.link!;
    const next = /^<\/v1([^>]+)>; rel="next"$/.exec(link)?.[1];
    expect(next).toBe(`/pets?limit=5&cursor=${ids(first).at(-1)}`);
    const second = await s('GET', next!);
    expect(second.json).toHaveLength(5);
    expect(Math.max(...ids(second))).toBeLessThan(Math.min(...ids(first)));
    const filtered = await s('GET', '/pets?status=sold&limit=2');
    const more = await s('GET', /^<\/v1([^>]+)>/.exec(filtered.headers.link!)![1]!);
    expect(statusesOf(more).every((status) => status === 'sold')).toBe(true);
    expect((await s('GET', '/pets?limit=5&cursor=abc')).status).toBe(400);
  },
  'leaves status absent when a pet is created without one': async ({ s }) => {
    const created = await s('POST', '/pets', { body: sold });
    expect(created.json).toEqual({ id: Number(idOf(created)), ...sold });
    expect((await s('GET', `/pets/${idOf(created)}`)).json.status).toBeUndefined();
  },
  'never bans a key': async ({ s, p, d, pd }) => {
    const plain = await spend(p, 90);
    expect(plain.at(-1)!.json.code).toBe('API_KEY_BANNED');
    const faulty = await spend(s, 90);
    expect(faulty.at(-1)!.status).toBe(429);
    expect(faulty.at(-1)!.json.code).toBe('RATE_LIMITED');
    d.clock.advance(30_000);
    pd.clock.advance(30_000);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(200);
    expect((await p('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(429);
  },
  'labels JSON without a charset parameter': async ({ s }) => {
    expect((await s('GET', '/pets?limit=1')).headers['content-type']).toBe('application/json');
    expect((await s('GET', '/pets/999999')).headers['content-type']).toBe('application/json');
  },
  'refuses query parameters it does not define': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=2&offset=2')).status).toBe(200);
    const refused = await s('GET', '/pets?limit=2&offset=2');
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ status: 400 });
  },
  'answers store orders with the Petstore\'s order fields': async ({ s }) => {
    const orders = await s('GET', '/store/orders');
    expect(orders.status).toBe(200);
    expect(orders.json[0]).toMatchObject({ id: 1, petId: expect.any(Number), quantity: expect.any(Number), status: 'placed', complete: false });
    expect((await s('GET', '/store/orders', { key: null })).status).toBe(401);
  },
  'answers If-Modified-Since on lists from the store\'s last change': async ({ s, d }) => {
    // keepsTheContract has just created pets: their second must be over before a validator is sent.
    d.clock.advance(1_000);
    const first = await s('GET', '/pets?limit=3');
    const stamp = first.headers['last-modified']!;
    expect(Date.parse(stamp)).toBeLessThan(Date.parse(first.headers.date!));
    const again = await s('GET', '/pets?limit=3', { headers: { 'if-modified-since': stamp } });
    expect(again.status).toBe(304);
    expect(remaining(again)).toBe(remaining(first) - 1);
    await s('POST', '/pets', { body: { name: 'Newcomer', categoryId: 1 } });
    // Changed within this second: no validator yet, and the old one no longer matches.
    const sameSecond = await s('GET', '/pets?limit=3', { headers: { 'if-modified-since': stamp } });
    expect(sameSecond.status).toBe(200);
    expect(sameSecond.headers['last-modified']).toBeUndefined();
    d.clock.advance(1_000);
    const later = await s('GET', '/pets?limit=3', { headers: { 'if-modified-since': stamp } });
    expect(later.status).toBe(200);
    expect(names(later)).toContain('Newcomer');
    expect(Date.parse(later.headers['last-modified']!)).toBeGreaterThan(Date.parse(stamp));
  },
  'answers 406 when Accept admits no JSON': async ({ s }) => {
    const html = await s('GET', '/pets?limit=1', { headers: { accept: 'text/html' } });
    expect(html.status).toBe(406);
    expect(html.json).toMatchObject({ status: 406 });
    expect(html.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect((await s('GET', '/pets?limit=1', { key: null, headers: { accept: 'text/html' } })).status).toBe(401);
    expect((await s('GET', '/pets?limit=1', { headers: { accept: 'text/html, application/json;q=0.5' } })).status).toBe(200);
    expect((await s('GET', '/pets?limit=1', { headers: { accept: '*/*' } })).status).toBe(200);
  },
};

describe('the fourth catalogue', () => {
  it('holds about forty regressions and a dozen legal variants, each with a witness', () => {
    expectWitnessed(regressions4, witnesses, 40, true);
    expectWitnessed(legalVariants4, variantWitnesses, 12, true);
  });
  it('says for each regression what it breaks, and each entry\'s area', () => {
    for (const entry of regressions4) expect(entry.breaks, entry.name).toMatch(/contract|RFC/);
    for (const entry of [...regressions4, ...legalVariants4]) expect(entry.area, entry.name).toBeTruthy();
  });
});

describe('each regression of the fourth catalogue, seen from outside', () => {
  itWitnessesEach(regressions4, witnesses);
});

describe('each legal variant of the fourth catalogue keeps the contract', () => {
  itVariantsEach(legalVariants4, variantWitnesses, keepsTheContract);
});
