// Witnesses for regressions5.ts: each regression's bug seen from outside with a few hand-written
// requests (the same requests answered rightly by the plain mock), and each legal variant still
// answering valid requests with the contract's statuses, then shown to be in effect. In-process, no
// network, no sleeps: time moves by clock.advance. The deployments start at 12:30:30 UTC on
// 1 June 2026, so a fresh key's minute resets at 12:31:00 (X-RateLimit-Reset 1780317060). The
// sender and helpers shared with the other catalogues' witnesses are in witnessHelpers.ts.
import { describe, expect, it } from 'vitest';
import { legalVariants5, regressions5, SEED_MAX_ID } from './regressions5.ts';
import { expectWitnessed, ids, itVariantsEach, itWitnessesEach, readingIds, remaining, sold, spend, type Answer, type Send, type Witness } from './witnessHelpers.ts';

/** The id of a created pet as its digits. */
const { idOf, keepsTheContract } = readingIds((answer) => /"id"\s*:\s*"?(\d+)/.exec(answer.text)?.[1] ?? '');
const RESET = 1780317060;
const statusesOf = (answer: Answer) => (answer.json as { status?: string }[]).map((pet) => pet.status);
/** The first 429 of a Free key, after spending its minute. */
const firstRefusal = async (send: Send) => (await spend(send, 61)).at(-1)!;
const isErrorOf = (answer: Answer, status: number) => expect(answer.json).toMatchObject({ code: expect.any(String), message: expect.any(String), status });
/** The values of a header as received: field lines, a repeated field joined with ", " split again (none of these values holds a comma). */
const rawLines = (answer: Answer, name: string) => {
  const value = answer.raw[name];
  return (value === undefined ? [] : Array.isArray(value) ? value : [value]).flatMap((line) => line.split(/,\s*/));
};
const preflight = { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' };

const witnesses: Record<string, Witness> = {
  // -------------------------------------------------------------------------------- caching
  'Last-Modified written in the host\'s local time (UTC+10) with a GMT suffix': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers['last-modified']).toBeUndefined();
    const read = await s('GET', '/pets?limit=1');
    const lastModified = Date.parse(read.headers['last-modified']!);
    const date = Date.parse(read.headers.date!);
    expect(lastModified - date).toBeGreaterThan(8 * 3_600_000);
    await s('POST', '/pets', { body: sold });
    const afterWrite = await s('GET', '/pets/1');
    expect(Date.parse(afterWrite.headers['last-modified']!) - Date.parse(afterWrite.headers.date!)).toBe(10 * 3_600_000);
  },
  'Expires: 0 added by the no-cache middleware': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers.expires).toBeUndefined();
    const read = await s('GET', '/pets?limit=1');
    expect(read.headers.expires).toBe('0');
    expect(Number.isNaN(Date.parse(read.headers.expires!)) || !/GMT$/.test(read.headers.expires!)).toBe(true);
    expect((await s('GET', '/pets', { key: null })).headers.expires).toBe('0');
  },
  'one strong ETag for the gzip and the identity representations': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=2')).headers.etag).toBeUndefined();
    const identity = await s('GET', '/pets?limit=2');
    const gzipped = await s('GET', '/pets?limit=2', { headers: { 'accept-encoding': 'gzip' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.text).toBe(identity.text);
    expect(identity.headers.etag).toMatch(/^"/);
    expect(gzipped.headers.etag).toBe(identity.headers.etag);
    // The tag validates either: the cache cannot tell the two apart.
    expect((await s('GET', '/pets?limit=2', { headers: { 'if-none-match': gzipped.headers.etag! } })).status).toBe(304);
  },
  'conditional GET answered 304 by the edge before authentication': async ({ s, p }) => {
    const read = await s('GET', '/pets?limit=2');
    const tag = read.headers.etag!;
    expect(tag).toMatch(/^"/);
    const keyless = await s('GET', '/pets?limit=2', { key: null, headers: { 'if-none-match': tag } });
    expect(keyless.status).toBe(304);
    expect((await p('GET', '/pets?limit=2', { key: null, headers: { 'if-none-match': tag } })).status).toBe(401);
    expect((await s('GET', '/pets?limit=2', { key: 'not-a-key', headers: { 'if-none-match': tag } })).status).toBe(401);
    expect((await s('GET', '/pets?limit=2', { key: null })).status).toBe(401);
  },
  '304 answers built without the ETag': async ({ s }) => {
    const read = await s('GET', '/pets/1');
    expect(read.headers.etag).toMatch(/^"/);
    const again = await s('GET', '/pets/1', { headers: { 'if-none-match': read.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBeUndefined();
    expect(again.headers['x-ratelimit-remaining']).toBe(String(remaining(read) - 1));
  },
  // -------------------------------------------------------------------------------- content
  'answers labelled application/vnd.pets.v1+json by the media-type versioning filter': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers['content-type']).toMatch(/^application\/json/);
    expect((await s('GET', '/pets?limit=1')).headers['content-type']).toBe('application/vnd.pets.v1+json; charset=utf-8');
    expect((await s('GET', '/pets/999999')).headers['content-type']).toBe('application/vnd.pets.v1+json; charset=utf-8');
  },
  'Content-Type sent twice (framework default and handler)': async ({ s, p }) => {
    expect(rawLines(await p('GET', '/pets?limit=1'), 'content-type')).toHaveLength(1);
    const read = await s('GET', '/pets?limit=1');
    expect(rawLines(read, 'content-type')).toEqual(['application/json', 'application/json; charset=utf-8']);
  },
  'Accept: application/* answered 406': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1', { headers: { accept: 'application/*' } })).status).toBe(200);
    const refused = await s('GET', '/pets?limit=1', { headers: { accept: 'application/*' } });
    expect(refused.status).toBe(406);
    isErrorOf(refused, 406);
    expect((await s('GET', '/pets?limit=1', { headers: { accept: 'application/json' } })).status).toBe(200);
    expect((await s('GET', '/pets?limit=1', { key: null, headers: { accept: 'application/*' } })).status).toBe(401);
  },
  '415 answered with body-parser\'s HTML error page': async ({ s, p }) => {
    const plain = await p('POST', '/pets', { body: sold, contentType: 'text/plain' });
    expect(plain.status).toBe(415);
    isErrorOf(plain, 415);
    const faulty = await s('POST', '/pets', { body: sold, contentType: 'text/plain' });
    expect(faulty.status).toBe(415);
    expect(faulty.headers['content-type']).toMatch(/^text\/html/);
    expect(faulty.json).toBeUndefined();
  },
  // -------------------------------------------------------------------------------- json
  'list writer escapes quotes and backslashes only, writing control characters raw': async ({ s, p }) => {
    for (const send of [s, p]) expect((await send('POST', '/pets', { body: { name: 'Tab\there\nLine', categoryId: 1 } })).status).toBe(201);
    expect((await p('GET', '/pets?limit=1')).json[0].name).toBe('Tab\there\nLine');
    const list = await s('GET', '/pets?limit=1');
    expect(list.text).toContain('Tab\there\nLine');
    expect(list.json).toBeUndefined();
    // getPet is written by the framework's serializer.
    expect((await s('GET', `/pets/${ids(await p('GET', '/pets?limit=1'))[0]}`)).json.name).toBe('Tab\there\nLine');
  },
  'anti-XSSI prefix )]}\' added to JSON reads': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).json).toBeInstanceOf(Array);
    const list = await s('GET', '/pets?limit=1');
    expect(list.text.startsWith(")]}',\n[")).toBe(true);
    expect(list.json).toBeUndefined();
    expect((await s('POST', '/pets', { body: sold })).json).toMatchObject(sold);
  },
  'required fields checked by searching the raw body for "name" and "categoryId"': async ({ s, p }) => {
    const escaped = '{"n\\u0061me":"Escaped","categoryId":1}';
    const spaced = '{"name" : "Spaced", "categoryId" : 1}';
    expect((await p('POST', '/pets', { body: escaped })).json).toMatchObject({ name: 'Escaped', categoryId: 1 });
    expect((await p('POST', '/pets', { body: spaced })).status).toBe(201);
    const refused = await s('POST', '/pets', { body: escaped });
    expect(refused.status).toBe(400);
    isErrorOf(refused, 400);
    expect((await s('POST', '/pets', { body: spaced })).status).toBe(400);
    expect((await s('POST', '/pets', { body: '{"name":"Plain","categoryId":1}' })).status).toBe(201);
  },
  // -------------------------------------------------------------------------------- errors
  'unknown routes answered by fastify\'s default not-found handler': async ({ s, p }) => {
    isErrorOf(await p('GET', '/foo'), 404);
    const faulty = await s('GET', '/foo');
    expect(faulty.status).toBe(404);
    expect(faulty.json).toEqual({ message: 'Route GET:/v1/foo not found', error: 'Not Found', statusCode: 404 });
    expect(faulty.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  },
  '404s for unknown pets carry no message': async ({ s, p }) => {
    isErrorOf(await p('GET', '/pets/999999'), 404);
    const faulty = await s('GET', '/pets/999999');
    expect(faulty.status).toBe(404);
    expect(faulty.json).toEqual({ code: expect.any(String), status: 404 });
  },
  'non-numeric petId answered 500 (BigInt SyntaxError)': async ({ s, p }) => {
    expect((await p('GET', '/pets/abc')).status).toBe(400);
    const faulty = await s('GET', '/pets/abc');
    expect(faulty.status).toBe(500);
    isErrorOf(faulty, 500);
    expect((await s('GET', '/pets/1.5')).status).toBe(500);
    expect((await s('GET', '/pets/999999')).status).toBe(404);
  },
  '429 answered with express-rate-limit\'s default text': async ({ s, p }) => {
    isErrorOf(await firstRefusal(p), 429);
    const refused = await firstRefusal(s);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.text).toBe('Too many requests, please try again later.');
    expect(refused.headers['retry-after']).toBe('30');
  },
  // -------------------------------------------------------------------------------- query
  'query string split without percent-decoding': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=%33')).json).toHaveLength(3);
    expect((await p('GET', '/pets?status=%73old&limit=2')).status).toBe(200);
    expect((await s('GET', '/pets?limit=%33')).status).toBe(400);
    expect((await s('GET', '/pets?status=%73old&limit=2')).status).toBe(400);
    expect((await s('GET', '/pets?limit=3')).json).toHaveLength(3);
  },
  'limit below 1 passed to SQLite (0 gives an empty page, -1 every pet)': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=0')).status).toBe(400);
    expect((await p('GET', '/pets?limit=-1')).status).toBe(400);
    const zero = await s('GET', '/pets?limit=0');
    expect(zero.status).toBe(200);
    expect(zero.json).toEqual([]);
    const all = await s('GET', '/pets?limit=-1');
    expect(all.status).toBe(200);
    expect(all.json).toHaveLength(SEED_MAX_ID);
    expect((await s('GET', '/pets?limit=101')).status).toBe(400);
  },
  'default page size not applied when filtering by status': async ({ s, p }) => {
    expect((await p('GET', '/pets?status=available')).json).toHaveLength(20);
    const faulty = await s('GET', '/pets?status=available');
    expect(faulty.json.length).toBeGreaterThan(20);
    expect(statusesOf(faulty).every((status) => status === 'available')).toBe(true);
    expect((await s('GET', '/pets')).json).toHaveLength(20);
  },
  'unknown query parameters passed to the ORM as column filters (500)': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=2&color=brown')).status).toBe(200);
    const faulty = await s('GET', '/pets?limit=2&color=brown');
    expect(faulty.status).toBe(500);
    isErrorOf(faulty, 500);
    expect((await s('GET', '/pets?limit=2&status=sold')).status).toBe(200);
  },
  // -------------------------------------------------------------------------------- persistence
  'created pets invisible to the status filter (enum stored by constant name)': async ({ s, p }) => {
    for (const send of [s, p]) {
      const created = await send('POST', '/pets', { body: { name: 'Reserved', categoryId: 1, status: 'pending' } });
      expect(created.status).toBe(201);
      const id = created.json.id as number;
      expect((await send('GET', `/pets/${id}`)).json.status).toBe('pending');
      expect(ids(await send('GET', '/pets?limit=5'))).toContain(id);
      const pending = await send('GET', '/pets?status=pending&limit=5');
      expect(pending.json).toHaveLength(5);
      if (send === p) expect(ids(pending)).toContain(id);
      else expect(ids(pending)).not.toContain(id);
    }
  },
  'list joins the categories table and lists unknown categories as 0': async ({ s, p }) => {
    for (const send of [s, p]) {
      const created = await send('POST', '/pets', { body: { name: 'Exotic', categoryId: 42 } });
      expect(created.json.categoryId).toBe(42);
      expect((await send('GET', `/pets/${created.json.id}`)).json.categoryId).toBe(42);
      expect((await send('GET', '/pets?limit=1')).json[0]).toMatchObject({ id: created.json.id, categoryId: send === s ? 0 : 42 });
    }
  },
  '201 body holds only the new id': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: sold })).json).toMatchObject(sold);
    const created = await s('POST', '/pets', { body: sold });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json)).toEqual(['id']);
    expect((await s('GET', `/pets/${created.json.id}`)).json).toMatchObject(sold);
  },
  // -------------------------------------------------------------------------------- auth
  'quoted bearer tokens unquoted by the gateway': async ({ s, p }) => {
    const quoted = { headers: { authorization: 'Bearer "demo-pro"' } };
    expect((await p('GET', '/pets?limit=1', quoted)).status).toBe(401);
    expect((await s('GET', '/pets?limit=1', quoted)).status).toBe(200);
    expect((await s('GET', '/pets?limit=1', { headers: { authorization: 'Bearer "nope"' } })).status).toBe(401);
  },
  'malformed Authorization answered 400 by passport-http-bearer': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1', { headers: { authorization: 'Bearer' } })).status).toBe(401);
    const bare = await s('GET', '/pets?limit=1', { headers: { authorization: 'Bearer' } });
    expect(bare.status).toBe(400);
    isErrorOf(bare, 400);
    expect((await p('GET', '/pets?limit=1', { headers: { authorization: 'Bearer  demo-pro' } })).status).toBe(200);
    expect((await s('GET', '/pets?limit=1', { headers: { authorization: 'Bearer  demo-pro' } })).status).toBe(400);
    expect((await s('GET', '/pets?limit=1', { key: 'nope' })).status).toBe(401);
  },
  'Authorization read as the last of comma-joined credentials': async ({ s, p }) => {
    const joined = { headers: { authorization: 'Bearer wrong, Bearer demo-pro' } };
    expect((await p('GET', '/pets?limit=1', joined)).status).toBe(401);
    expect((await s('GET', '/pets?limit=1', joined)).status).toBe(200);
    expect((await s('GET', '/pets?limit=1', { headers: { authorization: 'Bearer demo-pro, Bearer wrong' } })).status).toBe(401);
  },
  // -------------------------------------------------------------------------------- rate-limits
  'Remaining written before the request is counted': async ({ s, p }) => {
    const plain = await spend(p, 60);
    expect(remaining(plain.at(-1)!)).toBe(0);
    const faulty = await spend(s, 61);
    expect(remaining(faulty[0]!)).toBe(60);
    expect(faulty[59]!.status).toBe(200);
    expect(remaining(faulty[59]!)).toBe(1);
    expect(faulty[60]!.status).toBe(429);
  },
  'one request past the quota served (count compared before the increment)': async ({ s, p }) => {
    expect((await firstRefusal(p)).status).toBe(429);
    const faulty = await spend(s, 62);
    expect(faulty.slice(0, 61).every((a) => a.status === 200)).toBe(true);
    expect(remaining(faulty[60]!)).toBe(0);
    expect(faulty[60]!.headers['x-ratelimit-limit']).toBe('60');
    expect(faulty[61]!.status).toBe(429);
  },
  'daily quota never enforced (the day counter expires after a minute)': async ({ s, p, d, pd }) => {
    const plain: Answer[] = [];
    const faulty: Answer[] = [];
    for (let minute = 0; minute < 17; minute++) {
      plain.push(...(await spend(p, 60)));
      faulty.push(...(await spend(s, 60)));
      d.clock.advance(60_000);
      pd.clock.advance(60_000);
    }
    expect(plain.slice(0, 1000).every((a) => a.status === 200)).toBe(true);
    expect(plain.slice(1000).every((a) => a.status === 429)).toBe(true);
    expect(faulty.every((a) => a.status === 200)).toBe(true);
    expect(faulty.at(-1)!.headers['x-ratelimit-limit']).toBe('60');
  },
  'Retry-After written as a float (30.0)': async ({ s, p }) => {
    expect((await firstRefusal(p)).headers['retry-after']).toBe('30');
    expect((await firstRefusal(s)).headers['retry-after']).toBe('30.0');
  },
  '400s from the request validator carry no rate-limit headers': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=0')).headers['x-ratelimit-limit']).toBe('300');
    const refused = await s('GET', '/pets?limit=0');
    expect(refused.status).toBe(400);
    expect(refused.headers['x-ratelimit-limit']).toBeUndefined();
    expect(refused.headers['x-ratelimit-remaining']).toBeUndefined();
    expect((await s('GET', '/pets?limit=1')).headers['x-ratelimit-limit']).toBe('300');
  },
  'X-RateLimit headers zeroed on 401s (no plan resolved)': async ({ s, p }) => {
    expect((await p('GET', '/pets', { key: null })).headers['x-ratelimit-reset']).toBe(String(RESET));
    const refused = await s('GET', '/pets', { key: null });
    expect(refused.status).toBe(401);
    expect(refused.headers['x-ratelimit-reset']).toBe('0');
    expect(refused.headers['x-ratelimit-limit']).toBe('0');
  },
  // -------------------------------------------------------------------------------- cors
  'OPTIONS answered by the CORS middleware before the rate limiter adds its headers': async ({ s, p }) => {
    expect((await p('OPTIONS', '/pets', { key: null, headers: preflight })).headers['x-ratelimit-limit']).toMatch(/^\d+$/);
    const answered = await s('OPTIONS', '/pets', { key: null, headers: preflight });
    expect(answered.status).toBe(204);
    expect(answered.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await s('OPTIONS', '/pets')).headers['x-ratelimit-reset']).toBeUndefined();
  },
  'Access-Control-Allow-Origin sent by both the gateway and the app': async ({ s, p }) => {
    const origin = { headers: { origin: 'https://app.example' } };
    expect(rawLines(await p('GET', '/pets?limit=1', origin), 'access-control-allow-origin')).toEqual(['*']);
    expect(rawLines(await s('GET', '/pets?limit=1', origin), 'access-control-allow-origin')).toEqual(['https://app.example', '*']);
    expect(rawLines(await s('GET', '/pets?limit=1'), 'access-control-allow-origin')).toEqual(['*']);
  },
  // -------------------------------------------------------------------------------- versioning
  'POST /v1/pets refused without an Api-Version header by the new gateway\'s version set': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: sold })).status).toBe(201);
    const refused = await s('POST', '/pets', { body: sold });
    expect(refused.status).toBe(400);
    isErrorOf(refused, 400);
    expect((await s('POST', '/pets', { body: sold, headers: { 'api-version': '1' } })).status).toBe(201);
    expect((await s('POST', '/pets', { key: null, body: sold })).status).toBe(401);
  },
  // -------------------------------------------------------------------------------- deprecation
  'Sunset written by the cookie Expires formatter': async ({ s, p }) => {
    expect((await p('GET', '/pets/1')).headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect((await s('GET', '/pets/1')).headers.sunset).toBe('Thu, 05-Dec-2030 00:00:00 GMT');
  },
  'Link to the replacement written without angle brackets': async ({ s, p }) => {
    expect((await p('GET', '/pets/1')).headers.link).toMatch(/^<\/v1\/pets>;/);
    expect((await s('GET', '/pets/1')).headers.link).toMatch(/^\/v1\/pets; rel="alternate"/);
  },
  // -------------------------------------------------------------------------------- methods
  'HEAD /pets/{petId} answered 200 for any well-formed id': async ({ s, p }) => {
    expect((await p('HEAD', '/pets/999999')).status).toBe(404);
    expect((await s('HEAD', '/pets/999999')).status).toBe(200);
    expect((await s('GET', '/pets/999999')).status).toBe(404);
    expect((await s('HEAD', '/pets/999999', { key: null })).status).toBe(401);
  },
  'Date header left off by the serverless adapter': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers.date).toBe('Mon, 01 Jun 2026 12:30:30 GMT');
    expect((await s('GET', '/pets?limit=1')).headers.date).toBeUndefined();
    expect((await s('GET', '/pets/999999')).headers.date).toBeUndefined();
  },
  // -------------------------------------------------------------------------------- connection
  'WAF drops requests without an Authorization header': async ({ s, p }) => {
    expect((await p('GET', '/pets', { key: null })).status).toBe(401);
    await expect(s('GET', '/pets', { key: null })).rejects.toThrow(/other side closed/);
    expect((await s('GET', '/pets', { key: 'nope' })).status).toBe(401);
  },
  'nginx turns 429s into 444 (connection closed without an answer)': async ({ s, p }) => {
    expect((await firstRefusal(p)).status).toBe(429);
    expect((await spend(s, 60)).every((a) => a.status === 200)).toBe(true);
    await expect(s('GET', '/pets?limit=1', { key: 'demo-free' })).rejects.toThrow(/other side closed/);
  },
};

const variantWitnesses: Record<string, Witness> = {
  'answers a non-numeric petId with 404 (the route only matches digits)': async ({ s, p }) => {
    expect((await p('GET', '/pets/abc')).status).toBe(400);
    const answer = await s('GET', '/pets/abc');
    expect(answer.status).toBe(404);
    isErrorOf(answer, 404);
    expect(answer.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect((await s('GET', '/pets/abc', { key: null })).status).toBe(401);
  },
  'refuses a new pet with duplicate member names (I-JSON)': async ({ s, p }) => {
    const twice = '{"name":"First","name":"Second","categoryId":1}';
    expect((await p('POST', '/pets', { body: twice })).json).toMatchObject({ name: 'Second' });
    const refused = await s('POST', '/pets', { body: twice });
    expect(refused.status).toBe(400);
    isErrorOf(refused, 400);
    expect((await s('POST', '/pets', { key: null, body: twice })).status).toBe(401);
    expect((await s('POST', '/pets', { body: '{"name":"Nested","categoryId":1,"x":{"name":1}}' })).status).toBe(201);
  },
  'lists grouped by status (available, pending, sold), newest first within each': async ({ s, p }) => {
    const order = ['available', 'pending', 'sold'];
    const rank = (answer: Answer) => statusesOf(answer).map((status) => order.indexOf(status!));
    const grouped = rank(await s('GET', '/pets?limit=60'));
    expect(grouped).toEqual([...grouped].sort((a, b) => a - b));
    expect(new Set(grouped).size).toBe(3);
    const plain = rank(await p('GET', '/pets?limit=60'));
    expect(plain).not.toEqual([...plain].sort((a, b) => a - b));
    const available = ids(await s('GET', '/pets?status=available&limit=5'));
    expect(ids(await s('GET', '/pets?limit=5'))).toEqual(available);
  },
  'reflects the Origin with credentials allowed and Vary: Origin': async ({ s }) => {
    const read = await s('GET', '/pets?limit=1', { headers: { origin: 'https://app.example' } });
    expect(read.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(read.headers['access-control-allow-credentials']).toBe('true');
    expect(read.headers.vary).toBe('Origin');
    expect(read.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
    expect((await s('GET', '/pets?limit=1')).headers['access-control-allow-origin']).toBeUndefined();
    const pre = await s('OPTIONS', '/pets', { key: null, headers: preflight });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(pre.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, OPTIONS');
  },
  'lets clients cache reads privately for five seconds': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers['cache-control']).toBeUndefined();
    expect((await s('GET', '/pets?limit=1')).headers['cache-control']).toBe('private, max-age=5');
    expect((await s('GET', '/pets/1')).headers['cache-control']).toBe('private, max-age=5');
    expect((await s('GET', '/pets/999999')).headers['cache-control']).toBe('no-store');
    expect((await s('POST', '/pets', { body: sold })).headers['cache-control']).toBe('no-store');
  },
  'answers a plain OPTIONS with 200, Allow and an empty body': async ({ s, p }) => {
    expect((await p('OPTIONS', '/pets')).status).toBe(204);
    const pets = await s('OPTIONS', '/pets');
    expect(pets.status).toBe(200);
    expect(pets.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(pets.text).toBe('');
    expect(pets.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect((await s('OPTIONS', '/pets/1')).headers.allow).toBe('GET, HEAD, OPTIONS');
    expect((await s('OPTIONS', '/pets', { key: null, headers: preflight })).status).toBe(204);
  },
  'limits requests without a valid key to 10 a minute per client address': async ({ s, p }) => {
    const plain: Answer[] = [];
    const limited: Answer[] = [];
    for (let i = 0; i < 11; i++) {
      plain.push(await p('GET', '/pets', { key: null }));
      limited.push(await s('GET', '/pets', { key: null }));
    }
    expect(plain.every((a) => a.status === 401)).toBe(true);
    const refused = limited.find((a) => a.status === 429)!;
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['x-ratelimit-limit']).toBe('10');
    isErrorOf(refused, 429);
    expect((await s('GET', '/pets?limit=1')).status).toBe(200);
  },
  'marks getPet deprecated with Sunset and Link only (no Deprecation header)': async ({ s, p }) => {
    expect((await p('GET', '/pets/1')).headers.deprecation).toBeDefined();
    const read = await s('GET', '/pets/1');
    expect(read.headers.deprecation).toBeUndefined();
    expect(read.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(read.headers.link).toContain('</v1/pets>');
  },
  'labels JSON application/json;charset=UTF-8': async ({ s }) => {
    expect((await s('GET', '/pets?limit=1')).headers['content-type']).toBe('application/json;charset=UTF-8');
    expect((await s('GET', '/pets', { key: null })).headers['content-type']).toBe('application/json;charset=UTF-8');
  },
  'gives created pets Snowflake ids past 2^53': async ({ s }) => {
    const created = await s('POST', '/pets', { body: sold });
    const id = BigInt(idOf(created));
    expect(id > 2n ** 62n).toBe(true);
    expect(created.headers.location).toBe(`/v1/pets/${id}`);
    expect(created.text).toContain(`"id":${id}`);
    const got = await s('GET', `/pets/${id}`);
    expect(got.status).toBe(200);
    expect(idOf(got)).toBe(String(id));
    expect((await s('GET', '/pets?limit=1')).text).toContain(`"id":${id}`);
    expect((await s('GET', `/pets/${SEED_MAX_ID + 1}`)).status).toBe(404);
    expect((await s('GET', '/pets/1')).json.id).toBe(1);
  },
  'answers methods it does not know with 501': async ({ s }) => {
    const answer = await s('PROPFIND', '/pets');
    expect(answer.status).toBe(501);
    isErrorOf(answer, 501);
    expect(answer.headers['x-ratelimit-limit']).toBe('300');
    expect((await s('DELETE', '/pets/1')).status).toBe(405);
  },
  'routes paths case-insensitively (/v1/PETS serves the list)': async ({ s, p }) => {
    expect((await p('GET', '/PETS?limit=2')).status).toBe(404);
    const upper = await s('GET', '/PETS?limit=2');
    expect(upper.status).toBe(200);
    expect(upper.json).toHaveLength(2);
    expect((await s('GET', '/Pets/1')).json.id).toBe(1);
    expect((await s('GET', '/PETS', { key: null })).status).toBe(401);
    expect((await s('GET', '/PETS?status=Sold')).status).toBe(400);
  },
  'omits Content-Type on HEAD answers': async ({ s, p }) => {
    expect((await p('HEAD', '/pets?limit=1')).headers['content-type']).toMatch(/^application\/json/);
    const head = await s('HEAD', '/pets?limit=1');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBeUndefined();
    expect(head.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect((await s('HEAD', '/pets/1')).headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect((await s('GET', '/pets?limit=1')).headers['content-type']).toMatch(/^application\/json/);
  },
  'refuses a body not labelled JSON with 400 instead of 415': async ({ s, p }) => {
    expect((await p('POST', '/pets', { body: sold, contentType: 'text/plain' })).status).toBe(415);
    const refused = await s('POST', '/pets', { body: sold, contentType: 'text/plain' });
    expect(refused.status).toBe(400);
    isErrorOf(refused, 400);
  },
};

describe('the fifth catalogue', () => {
  it('holds about forty regressions and a dozen legal variants, each with a witness', () => {
    expectWitnessed(regressions5, witnesses, 40, true);
    expectWitnessed(legalVariants5, variantWitnesses, 12, true);
  });
  it('says for each regression what it breaks, and each entry\'s area', () => {
    for (const entry of regressions5) expect(entry.breaks, entry.name).toMatch(/contract|RFC/);
    for (const entry of [...regressions5, ...legalVariants5]) expect(entry.area, entry.name).toBeTruthy();
  });
});

describe('each regression of the fifth catalogue, seen from outside', () => {
  itWitnessesEach(regressions5, witnesses);
});

describe('each legal variant of the fifth catalogue keeps the contract', () => {
  itVariantsEach(legalVariants5, variantWitnesses, keepsTheContract);
});
