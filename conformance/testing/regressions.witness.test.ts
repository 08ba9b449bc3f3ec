// Witnesses for regressions.ts: each regression's bug seen from outside (a few requests, compared
// with the plain mock or with the contract), and each legal variant still answering valid requests
// with the contract's statuses. In-process, no network, no sleeps: time moves by clock.advance.
import { describe, expect, it } from 'vitest';
import { legalVariants, regressions } from './regressions.ts';
import { expectWitnessed, ids, itVariantsEach, itWitnessesEach, readingIds, remaining, sold, spend, strictUtf8, type Answer, type Send, type Witness } from './witnessHelpers.ts';

/** The id of a created pet as its digits (it may lie beyond 2^53). */
const { idOf, roundTrip, keepsTheContract } = readingIds((answer) => /"id":\s*(\d+)/.exec(answer.text)?.[1] ?? '');

const witnesses: Record<string, Witness> = {
  // ----------------------------------------------------------------------------------- data
  'name column VARCHAR(64) truncates long names on read-back': async ({ s, p }) => {
    const name = `${'Longname'.repeat(9)}🐾`;
    expect((await roundTrip(p, { name, categoryId: 1 })).got.json.name).toBe(name);
    const { created, got } = await roundTrip(s, { name, categoryId: 1 });
    expect(created.json.name).toBe(name);
    expect(got.json.name).not.toBe(name);
    expect(got.json.name).toHaveLength(64);
  },
  'names HTML-escaped on output': async ({ s, p }) => {
    const name = '<b>"Tom" & Jerry</b>';
    expect((await p('POST', '/pets', { body: { name, categoryId: 1 } })).json.name).toBe(name);
    expect((await s('POST', '/pets', { body: { name, categoryId: 1 } })).json.name).toBe('&lt;b&gt;&quot;Tom&quot; &amp; Jerry&lt;/b&gt;');
  },
  'names NFKC-normalised on store': async ({ s, p }) => {
    const name = 'ﬁdo①Ｒｅｘ';
    expect((await roundTrip(p, { name, categoryId: 1 })).got.json.name).toBe(name);
    expect((await roundTrip(s, { name, categoryId: 1 })).got.json.name).toBe('fido1Rex');
  },
  'names lower-cased on the read path': async ({ s, p }) => {
    expect((await roundTrip(p, { name: 'Rex', categoryId: 1 })).got.json.name).toBe('Rex');
    const { created, got } = await roundTrip(s, { name: 'Rex', categoryId: 1 });
    expect(created.json.name).toBe('Rex');
    expect(got.json.name).toBe('rex');
  },
  'characters outside the BMP stored as ?': async ({ s, p }) => {
    const name = '🐶 Rex 𝔘';
    expect((await roundTrip(p, { name, categoryId: 1 })).got.json.name).toBe(name);
    expect((await roundTrip(s, { name, categoryId: 1 })).got.json.name).toBe('? Rex ?');
  },
  'backslashes in names doubled on store': async ({ s, p }) => {
    const name = 'C:\\pets\\rex';
    expect((await roundTrip(p, { name, categoryId: 1 })).got.json.name).toBe(name);
    expect((await roundTrip(s, { name, categoryId: 1 })).got.json.name).toBe('C:\\\\pets\\\\rex');
  },
  'status filter also returns the statuses after it': async ({ s, p }) => {
    const plain = await p('GET', '/pets?status=pending&limit=100');
    expect(plain.json.every((pet: { status: string }) => pet.status === 'pending')).toBe(true);
    const faulty = await s('GET', '/pets?status=pending&limit=100');
    expect(faulty.status).toBe(200);
    expect(faulty.json.some((pet: { status: string }) => pet.status === 'sold')).toBe(true);
  },
  'list cache keyed on the path without the query': async ({ s, p }) => {
    await p('GET', '/pets?limit=5');
    expect((await p('GET', '/pets?limit=2')).json).toHaveLength(2);
    await s('GET', '/pets?limit=5');
    expect((await s('GET', '/pets?limit=2')).json).toHaveLength(5);
  },
  'list cache keyed on the first query parameter only': async ({ s, p }) => {
    await p('GET', '/pets?limit=5&status=sold');
    expect((await p('GET', '/pets?limit=5&status=pending')).json.every((pet: { status: string }) => pet.status === 'pending')).toBe(true);
    await s('GET', '/pets?limit=5&status=sold');
    expect((await s('GET', '/pets?limit=5&status=pending')).json.some((pet: { status: string }) => pet.status === 'sold')).toBe(true);
  },
  'limit honoured only as the first query parameter': async ({ s, p }) => {
    expect((await p('GET', '/pets?status=available&limit=2')).json).toHaveLength(2);
    expect((await s('GET', '/pets?limit=2&status=available')).json).toHaveLength(2);
    expect((await s('GET', '/pets?status=available&limit=2')).json.length).toBeGreaterThan(2);
  },
  'categoryId stored in a 32-bit column': async ({ s, p }) => {
    expect((await roundTrip(p, { name: 'Big', categoryId: 3_000_000_000 })).got.json.categoryId).toBe(3_000_000_000);
    expect((await roundTrip(s, { name: 'Big', categoryId: 3_000_000_000 })).got.json.categoryId).toBe(-1_294_967_296);
  },
  // ------------------------------------------------------------------------------------ ids
  'per-instance id counters collide': async ({ s, p }) => {
    const plain = [await p('POST', '/pets', { body: sold }), await p('POST', '/pets', { body: sold })];
    expect(plain[0]!.json.id).not.toBe(plain[1]!.json.id);
    const faulty = [await s('POST', '/pets', { body: { name: 'First', categoryId: 1 } }), await s('POST', '/pets', { body: { name: 'Second', categoryId: 1 } })];
    expect(faulty[0]!.json.id).toBe(faulty[1]!.json.id);
  },
  'getPet parses the id with parseInt': async ({ s, p }) => {
    expect((await p('GET', '/pets/12abc')).status).toBe(400);
    const faulty = await s('GET', '/pets/12abc');
    expect(faulty.status).toBe(200);
    expect(faulty.json.id).toBe(12);
  },
  'ids above 2^53 rounded in lists only': async ({ s }) => {
    const created = await s('POST', '/pets', { body: { name: 'Rounded', categoryId: 1 } });
    const id = idOf(created);
    expect(BigInt(id) > 2n ** 53n).toBe(true);
    expect((await s('GET', `/pets/${id}`)).json.name).toBe('Rounded');
    const listed = /"id":(\d+),"name":"Rounded"/.exec((await s('GET', '/pets?limit=100')).text)?.[1];
    expect(listed).toBeDefined();
    expect(listed).not.toBe(id);
    const viaList = await s('GET', `/pets/${listed}`);
    expect(viaList.status === 404 || viaList.json?.name !== 'Rounded').toBe(true);
  },
  'getPet answers 500 for ids past 2^31': async ({ s, p }) => {
    expect((await p('GET', '/pets/3000000000')).status).toBe(404);
    expect((await s('GET', '/pets/3000000000')).status).toBe(500);
  },
  'list repeats pets joined to two tags': async ({ s, p }) => {
    const plain = ids(await p('GET', '/pets?limit=100'));
    expect(new Set(plain).size).toBe(plain.length);
    const faulty = ids(await s('GET', '/pets?limit=100'));
    expect(new Set(faulty).size).toBeLessThan(faulty.length);
  },
  // ------------------------------------------------------------------------------- spelling
  'createPet answers category_id': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: sold })).json.categoryId).toBe(1);
    const faulty = await s('POST', '/pets', { body: sold });
    expect(faulty.json.categoryId).toBeUndefined();
    expect(faulty.json.category_id).toBe(1);
  },
  'POST answers carry RateLimit-* instead of X-RateLimit-*': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: sold })).headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    const faulty = await s('POST', '/pets', { body: sold });
    expect(faulty.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(faulty.headers['ratelimit-remaining']).toMatch(/^\d+$/);
  },
  'getPet answers capitalised statuses': async ({ s, p }) => {
    expect((await p('GET', '/pets/1')).json.status).toBe('available');
    expect((await s('GET', '/pets/1')).json.status).toBe('Available');
  },
  'malformed JSON answered with the framework default error': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: '{"name":' })).json).toMatchObject({ status: 400, code: expect.any(String) });
    const faulty = await s('POST', '/pets', { body: '{"name":' });
    expect(faulty.status).toBe(400);
    expect(faulty.json.code).toBeUndefined();
    expect(faulty.json.status).toBeUndefined();
  },
  'X-RateLimit-Reset sent as an ISO date': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    expect((await s('GET', '/pets?limit=1')).headers['x-ratelimit-reset']).toBe('2026-06-01T12:31:00.000Z');
  },
  'Error status sent as a string': async ({ s, p }) => {
    expect((await p('GET', '/pets/999999')).json.status).toBe(404);
    expect((await s('GET', '/pets/999999')).json.status).toBe('404');
  },
  // ------------------------------------------------------------------------ rate-accounting
  'POST spends two requests of the quota': async ({ s, p }) => {
    const plainBefore = remaining(await p('GET', '/pets?limit=1'));
    expect(plainBefore - remaining(await p('POST', '/pets', { body: sold }))).toBe(1);
    const before = remaining(await s('GET', '/pets?limit=1'));
    expect(before - remaining(await s('POST', '/pets', { body: sold }))).toBe(2);
  },
  'quota counted per operation instead of per key': async ({ s, p }) => {
    await spend(p, 60);
    expect((await p('GET', '/pets/1', { key: 'demo-free' })).status).toBe(429);
    await spend(s, 60);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(429);
    expect((await s('GET', '/pets/1', { key: 'demo-free' })).status).toBe(200);
  },
  'per-instance counters behind a round-robin balancer': async ({ s, p }) => {
    expect((await spend(p, 61)).at(-1)!.status).toBe(429);
    const answers = await spend(s, 61);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.slice(0, 4).map(remaining)).toEqual([59, 59, 58, 58]);
  },
  'X-RateLimit-Reset an hour late': async ({ s, p, d }) => {
    const plain = Number((await p('GET', '/pets?limit=1')).headers['x-ratelimit-reset']);
    expect(plain - d.clock.now() / 1000).toBeLessThanOrEqual(60);
    const first = await spend(s, 2);
    const announced = Number(first[1]!.headers['x-ratelimit-reset']);
    d.clock.advance(61_000);
    // The window has visibly reset (a full quota again) long before the reset it announced.
    const later = await s('GET', '/pets?limit=1', { key: 'demo-free' });
    expect(remaining(later)).toBe(59);
    expect(d.clock.now() / 1000).toBeLessThan(announced - 3000);
  },
  'X-RateLimit-Reset frozen at the first window': async ({ s, p, d, pd }) => {
    await s('GET', '/pets?limit=1');
    await p('GET', '/pets?limit=1');
    d.clock.advance(180_000);
    pd.clock.advance(180_000);
    expect(Number((await p('GET', '/pets?limit=1')).headers['x-ratelimit-reset'])).toBeGreaterThan(pd.clock.now() / 1000);
    expect(Number((await s('GET', '/pets?limit=1')).headers['x-ratelimit-reset'])).toBeLessThan(d.clock.now() / 1000);
  },
  'Retry-After always 1': async ({ s, p, d }) => {
    expect(Number((await spend(p, 61)).at(-1)!.headers['retry-after'])).toBeGreaterThanOrEqual(29);
    const refused = (await spend(s, 61)).at(-1)!;
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    d.clock.advance(1_000);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(429);
  },
  '429 answers without the X-RateLimit headers': async ({ s, p }) => {
    expect((await spend(p, 61)).at(-1)!.headers['x-ratelimit-limit']).toBe('60');
    const refused = (await spend(s, 61)).at(-1)!;
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBeUndefined();
  },
  'over-limit requests answered 503': async ({ s, p }) => {
    expect((await spend(p, 61)).at(-1)!.status).toBe(429);
    expect((await spend(s, 61)).at(-1)!.status).toBe(503);
  },
  'Remaining counts only successful requests': async ({ s }) => {
    for (let i = 0; i < 30; i++) expect((await s('GET', '/pets/999999', { key: 'demo-free' })).status).toBe(404);
    const lists = await spend(s, 30);
    expect(lists.at(-1)!.status).toBe(200);
    expect(remaining(lists.at(-1)!)).toBe(30);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(429);
  },
  'Remaining read from a lagging replica': async ({ s, p }) => {
    const rises = (values: number[]) => values.some((value, i) => i > 0 && value > values[i - 1]!);
    expect(rises((await spend(p, 6, 'demo-pro')).map(remaining))).toBe(false);
    expect(rises((await spend(s, 6, 'demo-pro')).map(remaining))).toBe(true);
  },
  'X-RateLimit-Remaining sent twice': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    const faulty = await s('GET', '/pets?limit=1');
    expect(faulty.headers['x-ratelimit-remaining']).toMatch(/^\d+, \d+$/);
  },
  // ---------------------------------------------------------------------------------- bytes
  'JSON bodies start with a byte order mark': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).json).toBeInstanceOf(Array);
    const faulty = await s('GET', '/pets?limit=1');
    expect([...faulty.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(faulty.json).toBeUndefined();
  },
  'UTF-8 bodies labelled charset=iso-8859-1': async ({ s }) => {
    const created = await s('POST', '/pets', { body: { name: 'Zoë', categoryId: 1 } });
    expect(created.headers['content-type']).toMatch(/charset=iso-8859-1/);
    const asLabelled = JSON.parse(new TextDecoder('latin1').decode(created.bytes)) as { name: string };
    expect(asLabelled.name).not.toBe('Zoë');
  },
  'bodies encoded as Latin-1 under a UTF-8 label': async ({ s, p }) => {
    const name = 'Zoë 🐶';
    expect((await p('POST', '/pets', { body: { name, categoryId: 1 } })).json.name).toBe(name);
    const faulty = await s('POST', '/pets', { body: { name, categoryId: 1 } });
    expect(faulty.headers['content-type']).toMatch(/utf-8/i);
    expect(strictUtf8(faulty.bytes) === undefined || faulty.json?.name !== name).toBe(true);
  },
  'characters outside the BMP sent as CESU-8': async ({ s, p }) => {
    const name = 'Rex 🐶';
    expect((await p('POST', '/pets', { body: { name, categoryId: 1 } })).json.name).toBe(name);
    const faulty = await s('POST', '/pets', { body: { name, categoryId: 1 } });
    expect(strictUtf8(faulty.bytes) === undefined || faulty.json?.name !== name).toBe(true);
  },
  'Content-Length counted in characters': async ({ s }) => {
    expect((await s('GET', '/pets?limit=1')).json).toBeInstanceOf(Array);
    const faulty = await s('POST', '/pets', { body: { name: 'Zoë 🐶', categoryId: 1 } });
    expect(faulty.status).toBe(201);
    expect(faulty.json).toBeUndefined();
  },
  'createPet writes the pet twice': async ({ s }) => {
    const faulty = await s('POST', '/pets', { body: sold });
    expect(faulty.json).toBeUndefined();
    expect(JSON.parse(faulty.text.split('\n')[0]!)).toMatchObject(sold);
  },
  // ---------------------------------------------------------------------------- deprecation
  'every /pets route marked deprecated': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers.deprecation).toBeUndefined();
    expect((await s('GET', '/pets?limit=1')).headers.deprecation).toBeDefined();
    expect((await s('POST', '/pets', { body: sold })).headers.sunset).toBeDefined();
  },
  'getPet Sunset with day and month swapped': async ({ s, p }) => {
    expect(Date.parse((await p('GET', '/pets/1')).headers.sunset!)).toBe(Date.UTC(2030, 11, 5));
    expect(Date.parse((await s('GET', '/pets/1')).headers.sunset!)).toBe(Date.UTC(2030, 4, 12));
  },
  'getPet already removed': async ({ s, p }) => {
    expect((await p('GET', '/pets/1')).status).toBe(200);
    expect((await s('GET', '/pets/1')).status).toBe(410);
  },
  'getPet Deprecation dated at the removal': async ({ s, p, d }) => {
    const dated = (a: Answer) => Number(a.headers.deprecation!.slice(1));
    expect(dated(await p('GET', '/pets/1'))).toBeLessThanOrEqual(d.clock.now() / 1000);
    expect(dated(await s('GET', '/pets/1'))).toBeGreaterThan(d.clock.now() / 1000);
  },
  // -------------------------------------------------------------------------------- methods
  'HEAD served without a key': async ({ s, p }) => {
    expect((await p('HEAD', '/pets', { key: null })).status).toBe(401);
    expect((await s('HEAD', '/pets', { key: null })).status).toBe(200);
  },
  'HEAD answers without the rate-limit headers': async ({ s, p }) => {
    expect((await p('HEAD', '/pets')).headers['x-ratelimit-limit']).toBe('300');
    const faulty = await s('HEAD', '/pets');
    expect(faulty.status).toBe(200);
    expect(faulty.headers['x-ratelimit-limit']).toBeUndefined();
  },
  'DELETE removes pets without a key': async ({ s, p }) => {
    await p('DELETE', '/pets/5', { key: null });
    expect((await p('GET', '/pets/5')).status).toBe(200);
    expect((await s('DELETE', '/pets/5', { key: null })).status).toBe(204);
    expect((await s('GET', '/pets/5')).status).toBe(404);
  },
  'unsupported methods answered by the proxy\'s HTML 405': async ({ s, p }) => {
    expect((await p('PATCH', '/pets/1')).headers['content-type']).toMatch(/^application\/json/);
    const faulty = await s('PATCH', '/pets/1');
    expect(faulty.headers['content-type']).toBe('text/html');
    expect(faulty.headers['x-ratelimit-limit']).toBeUndefined();
  },
  // ----------------------------------------------------------------------------------- auth
  'trailing slash skips authentication': async ({ s, p }) => {
    expect((await p('GET', '/pets/', { key: null })).status).toBe(401);
    expect((await s('GET', '/pets/', { key: null })).status).toBe(200);
  },
  'percent-encoded path skips authentication': async ({ s, p }) => {
    expect((await p('GET', '/%70ets', { key: null })).status).toBe(401);
    expect((await s('GET', '/%70ets', { key: null })).status).toBe(200);
  },
  'unknown keys answered 403': async ({ s, p }) => {
    expect((await p('GET', '/pets', { key: 'not-a-key' })).status).toBe(401);
    expect((await s('GET', '/pets', { key: 'not-a-key' })).status).toBe(403);
    expect((await s('GET', '/pets', { key: null })).status).toBe(401);
  },
  'createPet without a key stores the pet before answering 401': async ({ s, p }) => {
    const sneaky = { name: 'Sneaky Pete', categoryId: 1 };
    expect((await p('POST', '/pets', { key: null, body: sneaky })).status).toBe(401);
    expect((await p('GET', '/pets?limit=100')).text).not.toContain('Sneaky Pete');
    expect((await s('POST', '/pets', { key: null, body: sneaky })).status).toBe(401);
    expect((await s('GET', '/pets?limit=100')).text).toContain('Sneaky Pete');
  },
  'authentication cached per client address': async ({ s, p }) => {
    await p('GET', '/pets?limit=1');
    expect((await p('GET', '/pets?limit=1', { key: null })).status).toBe(401);
    await s('GET', '/pets?limit=1');
    expect((await s('GET', '/pets?limit=1', { key: null })).status).toBe(200);
  },
  'empty bearer token served as the anonymous tier': async ({ s, p }) => {
    const empty = { key: null, headers: { authorization: 'Bearer ' } };
    expect((await p('GET', '/pets?limit=1', empty)).status).toBe(401);
    expect((await s('GET', '/pets?limit=1', empty)).status).toBe(200);
  },
  // --------------------------------------------------------------------------- concurrency
  'rate limiter races under parallel requests': async ({ s, p }) => {
    const burst = (send: Send) => Promise.all(Array.from({ length: 61 }, () => send('GET', '/pets?limit=1', { key: 'demo-free' })));
    expect((await burst(p)).some((a) => a.status === 429)).toBe(true);
    expect((await burst(s)).every((a) => a.status === 200)).toBe(true);
  },
  'parallel creates get one id': async ({ s, p }) => {
    const pair = (send: Send) => Promise.all([send('POST', '/pets', { body: { name: 'A', categoryId: 1 } }), send('POST', '/pets', { body: { name: 'B', categoryId: 1 } })]);
    const [pa, pb] = await pair(p);
    expect(pa.json.id).not.toBe(pb.json.id);
    const [sa, sb] = await pair(s);
    expect(sa.json.id).toBe(sb.json.id);
    // Sequential creates stay distinct: the bug needs overlap.
    expect((await s('POST', '/pets', { body: sold })).json.id).not.toBe(sa.json.id);
  },
  'parallel creates lose a pet': async ({ s, p }) => {
    const pair = async (send: Send) => {
      const created = await Promise.all([send('POST', '/pets', { body: { name: 'A', categoryId: 1 } }), send('POST', '/pets', { body: { name: 'B', categoryId: 1 } })]);
      expect(created.map((a) => a.status)).toEqual([201, 201]);
      return Promise.all(created.map(async (a) => (await send('GET', `/pets/${a.json.id}`)).status));
    };
    expect(await pair(p)).toEqual([200, 200]);
    expect(await pair(s)).toContain(404);
  },
  'concurrent answers swapped': async ({ s, p }) => {
    const pair = (send: Send) => Promise.all([send('GET', '/pets/1'), send('GET', '/pets/2')]);
    expect((await pair(p)).map((a) => a.json.id)).toEqual([1, 2]);
    expect((await pair(s)).map((a) => a.json.id)).toEqual([2, 1]);
  },
  // ----------------------------------------------------------------------------------- keys
  'keys share one counter per client address': async ({ s, p }) => {
    await spend(p, 10, 'demo-pro');
    expect(remaining(await p('GET', '/pets?limit=1', { key: 'demo-free' }))).toBe(59);
    await spend(s, 10, 'demo-pro');
    expect(remaining(await s('GET', '/pets?limit=1', { key: 'demo-free' }))).toBe(49);
  },
  'one instance runs a stale plan table': async ({ s, p }) => {
    expect(new Set((await spend(p, 4, 'demo-pro')).map((a) => a.headers['x-ratelimit-limit']))).toEqual(new Set(['300']));
    const answers = await spend(s, 4, 'demo-pro');
    expect(new Set(answers.map((a) => a.headers['x-ratelimit-limit']))).toEqual(new Set(['300', '60']));
    expect(answers.map(remaining)).toEqual([299, 59, 298, 58]);
  },
  'rate-limit headers of the previous request': async ({ s, p }) => {
    await p('GET', '/pets?limit=1', { key: 'demo-free' });
    expect((await p('GET', '/pets?limit=1', { key: 'demo-pro' })).headers['x-ratelimit-limit']).toBe('300');
    await s('GET', '/pets?limit=1', { key: 'demo-free' });
    expect((await s('GET', '/pets?limit=1', { key: 'demo-pro' })).headers['x-ratelimit-limit']).toBe('60');
  },
  'Free keys refused on createPet': async ({ s, p }) => {
    expect((await p('POST', '/pets', { key: 'demo-free', body: sold })).status).toBe(201);
    expect((await s('POST', '/pets', { key: 'demo-free', body: sold })).status).toBe(403);
  },
  'quota bucket keyed on the raw Authorization header': async ({ s, p }) => {
    const twice = async (send: Send) => [remaining(await send('GET', '/pets?limit=1')), remaining(await send('GET', '/pets?limit=1', { key: null, headers: { authorization: 'bearer demo-pro' } }))];
    expect(await twice(p)).toEqual([299, 298]);
    expect(await twice(s)).toEqual([299, 299]);
  },
  // ---------------------------------------------------------------------------- validation
  'media type compared case-sensitively': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: sold, contentType: 'Application/JSON' })).status).toBe(201);
    expect((await s('POST', '/pets', { body: sold, contentType: 'application/json' })).status).toBe(201);
    expect((await s('POST', '/pets', { body: sold, contentType: 'Application/JSON' })).status).toBe(415);
  },
  'large bodies answered 500': async ({ s, p }) => {
    const big = { name: 'x'.repeat(300_000), categoryId: 1 };
    expect((await p('POST', '/pets', { body: big })).status).toBe(201);
    expect((await s('POST', '/pets', { body: big })).status).toBe(500);
  },
  'control characters in names answered 500': async ({ s, p }) => {
    const body = { name: 'Bell\u0007', categoryId: 1 };
    expect((await p('POST', '/pets', { body })).status).toBe(201);
    expect((await s('POST', '/pets', { body })).status).toBe(500);
  },
  'names with emoji answered 500': async ({ s, p }) => {
    const body = { name: 'Rex 🐶', categoryId: 1 };
    expect((await p('POST', '/pets', { body })).status).toBe(201);
    expect((await s('POST', '/pets', { body })).status).toBe(500);
  },
  'createPet requires status': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: sold })).status).toBe(201);
    expect((await s('POST', '/pets', { body: { ...sold, status: 'pending' } })).status).toBe(201);
    expect((await s('POST', '/pets', { body: sold })).status).toBe(400);
  },
  'limit=100 refused': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=100')).status).toBe(200);
    expect((await s('GET', '/pets?limit=99')).status).toBe(200);
    expect((await s('GET', '/pets?limit=100')).status).toBe(400);
  },
  'status=pending refused by the list filter': async ({ s, p }) => {
    expect((await p('GET', '/pets?status=pending')).status).toBe(200);
    expect((await s('GET', '/pets?status=pending')).status).toBe(400);
  },
  'createPet refuses status sold': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: { ...sold, status: 'sold' } })).status).toBe(201);
    expect((await s('POST', '/pets', { body: { ...sold, status: 'sold' } })).status).toBe(400);
  },
  'WAF blocks names that look like markup': async ({ s, p }) => {
    const body = { name: '<script>alert(1)</script>', categoryId: 1 };
    expect((await p('POST', '/pets', { body })).status).toBe(201);
    const faulty = await s('POST', '/pets', { body });
    expect(faulty.status).toBe(403);
    expect(faulty.headers['content-type']).toBe('text/html');
  },
  'numeric strings coerced to categoryId': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: { name: 'Rex', categoryId: '3' } })).status).toBe(400);
    expect((await s('POST', '/pets', { body: { name: 'Rex', categoryId: '3' } })).status).toBe(201);
  },
  // ---------------------------------------------------------------------------------- other
  'Accept with parameters answered 406': async ({ s, p }) => {
    const accept = { headers: { accept: 'application/json;q=0.9' } };
    expect((await p('GET', '/pets?limit=1', accept)).status).toBe(200);
    expect((await s('GET', '/pets?limit=1', { headers: { accept: 'application/json' } })).status).toBe(200);
    expect((await s('GET', '/pets?limit=1', accept)).status).toBe(406);
  },
  'errors rendered as HTML for browsers and */*': async ({ s, p }) => {
    const any = { headers: { accept: '*/*' } };
    expect((await p('GET', '/pets/999999', any)).headers['content-type']).toMatch(/^application\/json/);
    expect((await s('GET', '/pets/999999', any)).headers['content-type']).toMatch(/^text\/html/);
  },
  'errors labelled application/problem+json': async ({ s, p }) => {
    expect((await p('GET', '/pets/999999')).headers['content-type']).toMatch(/^application\/json/);
    expect((await s('GET', '/pets/999999')).headers['content-type']).toBe('application/problem+json');
  },
  'Error code sent as a number': async ({ s, p }) => {
    expect(typeof (await p('GET', '/pets/999999')).json.code).toBe('string');
    expect((await s('GET', '/pets/999999')).json.code).toBe(404);
  },
  'list wrapped in an envelope when limit is given': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=3')).json).toBeInstanceOf(Array);
    expect((await s('GET', '/pets')).json).toBeInstanceOf(Array);
    expect((await s('GET', '/pets?limit=3')).json).toMatchObject({ items: expect.any(Array) });
  },
};

/** What each legal variant visibly does differently from the mock (and still within the contract). */
const variantWitnesses: Record<string, Witness> = {
  'lists oldest first': async ({ s, p }) => {
    const listed = ids(await s('GET', '/pets?limit=5'));
    expect(listed).toEqual([...listed].sort((a, b) => a - b));
    const plain = ids(await p('GET', '/pets?limit=5'));
    expect(plain).toEqual([...plain].sort((a, b) => b - a));
  },
  'lists the oldest pets': async ({ s, p }) => {
    await s('POST', '/pets', { body: { name: 'Newest', categoryId: 1 } });
    expect((await s('GET', '/pets?limit=2')).json.map((pet: { name: string }) => pet.name)).not.toContain('Newest');
    expect(ids(await s('GET', '/pets?limit=2&status=available'))[0]).toBeLessThan(ids(await p('GET', '/pets?limit=2&status=available'))[0]!);
  },
  'default status pending': async ({ s }) => {
    expect((await s('POST', '/pets', { body: sold })).json.status).toBe('pending');
  },
  '422 for invalid input': async ({ s }) => {
    expect((await s('GET', '/pets?limit=0')).json).toMatchObject({ status: 422 });
  },
  'no Location header': async ({ s }) => {
    const created = await s('POST', '/pets', { body: sold });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBeUndefined();
  },
  'extra fields on pets and errors': async ({ s }) => {
    expect((await s('GET', '/pets/1')).json.createdAt).toBeDefined();
    expect((await s('GET', '/pets/999999')).json.traceId).toBeDefined();
  },
  'own error codes and messages': async ({ s }) => {
    expect((await s('GET', '/pets/999999')).json).toMatchObject({ code: 'pets.e404.pet_not_found', status: 404 });
  },
  'bans a key after three 429s': async ({ s, d }) => {
    await spend(s, 60);
    const refused = await spend(s, 3);
    for (const a of refused) {
      expect(a.status).toBe(429);
      expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
      expect(a.headers['x-ratelimit-remaining']).toBe('0');
    }
    d.clock.advance(61_000);
    // Banned past the window's end: still 429, with a Retry-After and a Reset that say so.
    const banned = await s('GET', '/pets?limit=1', { key: 'demo-free' });
    expect(banned.status).toBe(429);
    expect(Number(banned.headers['x-ratelimit-reset']) * 1000).toBeGreaterThan(d.clock.now());
  },
  'Retry-After longer than the window': async ({ s }) => {
    const refused = (await spend(s, 61)).at(-1)!;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(60);
  },
  'window anchored at the first request': async ({ s, d }) => {
    const answers = await spend(s, 61);
    expect(Number(answers[0]!.headers['x-ratelimit-reset'])).toBe(Math.ceil(d.clock.now() / 1000) + 60);
    expect(answers.slice(0, 60).every((a) => a.status === 200)).toBe(true);
    const refused = answers[60]!;
    expect(refused.status).toBe(429);
    d.clock.advance(Number(refused.headers['retry-after']) * 1000);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(200);
  },
  'parses a JSON body labelled text/plain': async ({ s }) => {
    expect((await s('POST', '/pets', { body: sold, contentType: 'text/plain' })).status).toBe(201);
  },
  'refuses a categoryId of -(2^53 - 1) as naming no category': async ({ s }) => {
    expect((await s('POST', '/pets', { body: { name: 'Rex', categoryId: -9007199254740991 } })).json).toMatchObject({ status: 422 });
  },
  'accepts JSON without a Content-Type': async ({ s }) => {
    expect((await s('POST', '/pets', { body: sold, contentType: null })).status).toBe(201);
  },
  'refuses HEAD, OPTIONS, PUT, DELETE and PATCH with a key': async ({ s }) => {
    expect((await s('HEAD', '/pets')).status).toBe(405);
    const deleted = await s('DELETE', '/pets/1');
    expect(deleted.json).toMatchObject({ status: 405, code: expect.any(String) });
    expect(deleted.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect((await s('HEAD', '/pets', { key: null })).status).toBe(401);
  },
  'OPTIONS needs a key too': async ({ s }) => {
    const refused = await s('OPTIONS', '/pets', { key: null });
    expect(refused.json).toMatchObject({ status: 401 });
  },
  '404 for unsupported methods': async ({ s }) => {
    expect((await s('DELETE', '/pets/1')).json).toMatchObject({ status: 404 });
  },
  'trailing slash refused': async ({ s }) => {
    expect((await s('GET', '/pets/')).json).toMatchObject({ status: 404 });
    expect((await s('GET', '/pets/', { key: null })).status).toBe(401);
  },
  'size and character limits': async ({ s }) => {
    expect((await s('POST', '/pets', { body: { name: 'n'.repeat(101), categoryId: 1 } })).json).toMatchObject({ status: 400 });
    expect((await s('POST', '/pets', { body: { name: 'Bell\u0007', categoryId: 1 } })).json).toMatchObject({ status: 400 });
    expect((await s('POST', '/pets', { body: { name: 'n'.repeat(20_000), categoryId: 1 } })).json).toMatchObject({ status: 413 });
    expect((await s('GET', '/pets?limit=100')).text).not.toContain('nnnnnnnnnn');
  },
  'refuses unknown categories': async ({ s }) => {
    expect((await s('POST', '/pets', { body: { name: 'Rex', categoryId: 5000 } })).json).toMatchObject({ status: 422 });
  },
  'opaque int64 ids': async ({ s }) => {
    const created = await s('POST', '/pets', { body: sold });
    expect(BigInt(idOf(created)) > 2n ** 53n).toBe(true);
    expect(created.headers.location).toBe(`/v1/pets/${idOf(created)}`);
  },
  'non-ASCII escaped in JSON': async ({ s }) => {
    const created = await s('POST', '/pets', { body: { name: 'Zoë', categoryId: 1 } });
    expect(created.text).toContain('Zo\\u00eb');
    expect(created.json.name).toBe('Zoë');
  },
  'pretty-printed JSON labelled plain application/json': async ({ s }) => {
    const list = await s('GET', '/pets?limit=2');
    expect(list.headers['content-type']).toBe('application/json');
    expect(list.text).toContain('\r\n  ');
  },
  'extra headers': async ({ s }) => {
    expect((await s('GET', '/pets?limit=1')).headers['cache-control']).toBe('no-store');
  },
};

describe('regressions', () => {
  it('are many, named once, several of each kind, each with a witness', () => {
    expectWitnessed(regressions, witnesses, 45, true);
    const kinds = new Map<string, number>();
    for (const r of regressions) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
    for (const kind of ['data', 'ids', 'spelling', 'rate-accounting', 'bytes', 'deprecation', 'methods', 'auth', 'concurrency', 'keys', 'validation', 'other']) expect(kinds.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(3);
  });

  itWitnessesEach(regressions, witnesses);
});

describe('legal variants', () => {
  it('are many, named once, each with a witness', () => {
    expectWitnessed(legalVariants, variantWitnesses, 15, false);
  });

  itVariantsEach(legalVariants, variantWitnesses, keepsTheContract);
});
