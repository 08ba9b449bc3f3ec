// Witnesses for regressions3.ts: each regression's bug seen from outside with a few hand-written
// requests (the same requests answered rightly by the plain mock), and each legal variant still
// answering valid requests with the contract's statuses. In-process, no network, no sleeps: time
// moves by clock.advance. The sender and helpers shared with the other catalogues' witnesses are in
// witnessHelpers.ts.
import { describe, expect, it } from 'vitest';
import { legalVariants3, regressions3 } from './regressions3.ts';
import { expectWitnessed, itVariantsEach, itWitnessesEach, readingIds, remaining, sold, spend, type Answer, type Context, type Send, type Witness } from './witnessHelpers.ts';

/** The id of a created pet as its digits. */
const { idOf, keepsTheContract } = readingIds((answer) => /"id"\s*:\s*(\d+)/.exec(answer.text)?.[1] ?? '');
const statusesOf = (answer: Answer) => (answer.json as { status?: string }[]).map((pet) => pet.status);
const bearer = (value: string) => ({ key: null, headers: { authorization: value } });
const imfFixdate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;
const traceparent = (flags: string) => ({ traceparent: `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-${flags}` });
/** Sends a request to an absolute URL on the deployment (a Location), as a client following it would. */
const follow = async ({ d }: Pick<Context, 'd'>, location: string) => d.transport.send({ method: 'GET', url: new URL(location, `${d.baseUrl}/pets`).href, headers: { authorization: 'Bearer demo-pro' } }, 10_000);
/** The first 429 of a Free key, after spending its minute. */
const firstRefusal = async (send: Send) => (await spend(send, 61)).at(-1)!;

const witnesses: Record<string, Witness> = {
  // -------------------------------------------------------------------------------- framing
  'Content-Length counted in UTF-16 code units': async ({ s, p }) => {
    const body = { name: 'Ünïcødé 🐾', categoryId: 1 };
    expect((await p('POST', '/pets', { body })).json.name).toBe(body.name);
    const faulty = await s('POST', '/pets', { body });
    expect(faulty.status).toBe(201);
    expect(Number(faulty.headers['content-length'])).toBe(faulty.bytes.length);
    expect(faulty.json).toBeUndefined();
    // An ASCII answer is whole.
    expect((await s('GET', '/pets/1')).json).toMatchObject({ id: 1 });
  },
  'HEAD answered with Content-Length: 0': async ({ s, p }) => {
    expect((await p('HEAD', '/pets?limit=2')).headers['content-length']).toBeUndefined();
    expect((await s('GET', '/pets?limit=2')).bytes.length).toBeGreaterThan(0);
    const head = await s('HEAD', '/pets?limit=2');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('0');
  },
  'list streamed chunked with a Content-Length added': async ({ s, p }) => {
    const plain = await p('GET', '/pets?limit=2');
    expect(plain.headers['transfer-encoding']).toBeUndefined();
    const faulty = await s('GET', '/pets?limit=2');
    expect(faulty.headers['transfer-encoding']).toBe('chunked');
    expect(Number(faulty.headers['content-length'])).toBe(faulty.bytes.length);
  },
  'first request after 5 s idle answered 502 by the load balancer': async ({ s, p, d, pd }) => {
    for (const [send, deployment] of [[p, pd], [s, d]] as const) {
      expect((await send('GET', '/pets?limit=1')).status).toBe(200);
      deployment.clock.advance(6_000);
    }
    expect((await p('GET', '/pets?limit=1')).status).toBe(200);
    const faulty = await s('GET', '/pets?limit=1');
    expect(faulty.status).toBe(502);
    expect(faulty.headers['content-type']).toBe('text/html');
    expect(faulty.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await s('GET', '/pets?limit=1')).status).toBe(200);
  },
  'HEAD answered with a body poisons the next request': async ({ s, p }) => {
    expect((await p('HEAD', '/pets/1')).status).toBe(200);
    expect((await p('GET', '/pets/1')).status).toBe(200);
    expect((await s('HEAD', '/pets/1')).status).toBe(200);
    expect((await s('GET', '/pets/1')).status).toBe(502);
    expect((await s('GET', '/pets/1')).status).toBe(200);
    // A create after a HEAD is answered 502, yet it reached the origin.
    await s('HEAD', '/pets?limit=1');
    expect((await s('POST', '/pets', { body: { name: 'Ghost', categoryId: 1 } })).status).toBe(502);
    expect((await s('GET', '/pets?limit=1')).json[0].name).toBe('Ghost');
  },
  // -------------------------------------------------------------------------------- caching
  'ETag computed from the URL, not the content': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=5')).headers.etag).toBeUndefined();
    const etag = (await s('GET', '/pets?limit=5')).headers.etag!;
    expect(etag).toMatch(/^"/);
    await s('POST', '/pets', { body: { name: 'Fresh', categoryId: 1 } });
    // The list has changed, yet the same tag is answered 304.
    expect((await s('GET', '/pets?limit=5')).json[0].name).toBe('Fresh');
    expect((await s('GET', '/pets?limit=5', { headers: { 'if-none-match': etag } })).status).toBe(304);
  },
  'edge answers revalidations without the rate-limit headers': async ({ s, p }) => {
    const etag = (await s('GET', '/pets?limit=5')).headers.etag!;
    const plain = await p('GET', '/pets?limit=5', { headers: { 'if-none-match': etag } });
    expect(plain.headers['x-ratelimit-limit']).toBe('300');
    const faulty = await s('GET', '/pets?limit=5', { headers: { 'if-none-match': etag } });
    expect(faulty.status).toBe(304);
    expect(faulty.headers.etag).toBe(etag);
    expect(faulty.headers['x-ratelimit-limit']).toBeUndefined();
    expect(faulty.headers['x-ratelimit-remaining']).toBeUndefined();
  },
  'CDN caches 404s for a minute, ignoring Authorization': async ({ s, p, d }) => {
    for (const send of [p, s]) expect((await send('GET', '/pets/61')).status).toBe(404);
    for (const send of [p, s]) expect(idOf(await send('POST', '/pets', { body: sold }))).toBe('61');
    expect((await p('GET', '/pets/61')).status).toBe(200);
    expect((await p('GET', '/pets/61', { key: null })).status).toBe(401);
    expect((await s('GET', '/pets/61')).status).toBe(404);
    expect((await s('GET', '/pets/61', { key: null })).status).toBe(404);
    d.clock.advance(61_000);
    expect((await s('GET', '/pets/61')).status).toBe(200);
  },
  'Cache-Control: public, max-age=300 honoured by the CDN per key': async ({ s, p }) => {
    expect((await firstRefusal(p)).status).toBe(429);
    const answers = await spend(s, 70);
    expect(answers[0]!.headers['cache-control']).toBe('public, max-age=300');
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map(remaining))).toEqual(new Set([59]));
  },
  // -------------------------------------------------------------------------------- methods
  '405 without Allow': async ({ s, p }) => {
    expect((await p('DELETE', '/pets')).headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    const faulty = await s('DELETE', '/pets');
    expect(faulty.status).toBe(405);
    expect(faulty.headers.allow).toBeUndefined();
  },
  'Allow lists every method of the controller': async ({ s, p }) => {
    expect((await p('PUT', '/pets/1')).headers.allow).not.toContain('PUT');
    const faulty = await s('PUT', '/pets/1');
    expect(faulty.status).toBe(405);
    expect(faulty.headers.allow!.split(', ')).toContain('PUT');
  },
  // ----------------------------------------------------------------------------------- auth
  '401 without WWW-Authenticate': async ({ s, p }) => {
    expect((await p('GET', '/pets', { key: null })).headers['www-authenticate']).toMatch(/^Bearer/);
    const faulty = await s('GET', '/pets', { key: null });
    expect(faulty.status).toBe(401);
    expect(faulty.headers['www-authenticate']).toBeUndefined();
  },
  'WWW-Authenticate: Basic from the default security config': async ({ s, p }) => {
    expect((await p('GET', '/pets', { key: 'not-a-key' })).headers['www-authenticate']).toMatch(/^Bearer/);
    const faulty = await s('GET', '/pets', { key: 'not-a-key' });
    expect(faulty.status).toBe(401);
    expect(faulty.headers['www-authenticate']).toBe('Basic realm="Realm"');
  },
  'Bearer scheme matched case-sensitively': async ({ s, p }) => {
    for (const header of ['bearer demo-pro', 'BEARER demo-pro']) {
      expect((await p('GET', '/pets?limit=1', bearer(header))).status).toBe(200);
      expect((await s('GET', '/pets?limit=1', bearer(header))).status).toBe(401);
    }
    expect((await s('GET', '/pets?limit=1')).status).toBe(200);
  },
  'token read as the second space-separated word': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1', bearer('Bearer  demo-pro'))).status).toBe(200);
    expect((await s('GET', '/pets?limit=1', bearer('Bearer  demo-pro'))).status).toBe(401);
    expect((await p('GET', '/pets?limit=1', bearer('Bearer demo-pro extra'))).status).toBe(401);
    expect((await s('GET', '/pets?limit=1', bearer('Bearer demo-pro extra'))).status).toBe(200);
  },
  'authorization scheme never checked': async ({ s, p }) => {
    for (const header of ['Token demo-pro', 'Basic demo-pro', 'demo-pro']) {
      expect((await p('GET', '/pets?limit=1', bearer(header))).status).toBe(401);
      expect((await s('GET', '/pets?limit=1', bearer(header))).status).toBe(200);
    }
  },
  'key looked up with SQL LIKE': async ({ s, p }) => {
    for (const header of ['Bearer demo_pro', 'Bearer %']) expect((await p('GET', '/pets?limit=1', bearer(header))).status).toBe(401);
    const oneChanged = await s('GET', '/pets?limit=1', bearer('Bearer demo_pro'));
    expect(oneChanged.status).toBe(200);
    expect(oneChanged.headers['x-ratelimit-limit']).toBe('300');
    expect((await s('GET', '/pets?limit=1', bearer('Bearer %'))).status).toBe(200);
    expect((await s('GET', '/pets?limit=1', bearer('Bearer demo-prx'))).status).toBe(401);
  },
  'DELETE left on by the CRUD scaffold, without authentication': async ({ s, p }) => {
    expect((await p('DELETE', '/pets/1', { key: null })).status).toBeGreaterThanOrEqual(400);
    expect((await p('GET', '/pets/1')).status).toBe(200);
    expect((await s('DELETE', '/pets/1', { key: null })).status).toBe(204);
    expect((await s('GET', '/pets/1')).status).toBe(404);
    expect((await s('GET', '/pets?limit=100')).json.map((pet: { id: number }) => pet.id)).not.toContain(1);
  },
  'HEAD skips authentication': async ({ s, p }) => {
    expect((await p('HEAD', '/pets/1', { key: null })).status).toBe(401);
    expect((await s('HEAD', '/pets/1', { key: null })).status).toBe(200);
    expect((await s('HEAD', '/pets/999999', { key: null })).status).toBe(404);
    expect((await s('GET', '/pets/1', { key: null })).status).toBe(401);
  },
  // ------------------------------------------------------------------------------- location
  'Location without the /v1 prefix': async ({ s, p, d, pd }) => {
    const plain = await p('POST', '/pets', { body: sold });
    expect((await follow({ d: pd }, plain.headers.location!)).status).toBe(200);
    const faulty = await s('POST', '/pets', { body: sold });
    expect(faulty.headers.location).toBe(`/pets/${idOf(faulty)}`);
    expect((await follow({ d }, faulty.headers.location!)).status).toBe(404);
  },
  'Location names the previous id': async ({ s, p, d, pd }) => {
    const plain = await p('POST', '/pets', { body: { name: 'Located', categoryId: 1 } });
    expect(JSON.parse((await follow({ d: pd }, plain.headers.location!)).body).name).toBe('Located');
    const faulty = await s('POST', '/pets', { body: { name: 'Located', categoryId: 1 } });
    expect(faulty.headers.location).toBe(`/v1/pets/${Number(idOf(faulty)) - 1}`);
    expect(JSON.parse((await follow({ d }, faulty.headers.location!)).body).name).not.toBe('Located');
  },
  // -------------------------------------------------------------------------------- formats
  'Date written in ISO 8601': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers.date).toMatch(imfFixdate);
    expect((await s('GET', '/pets?limit=1')).headers.date).toBe('2026-06-01T12:30:30.000Z');
  },
  'Retry-After written as a Go duration': async ({ s, p }) => {
    expect((await firstRefusal(p)).headers['retry-after']).toBe('30');
    const refused = await firstRefusal(s);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('30s');
  },
  'Retry-After counted in minutes': async ({ s, p, d, pd }) => {
    const plain = await firstRefusal(p);
    pd.clock.advance(Number(plain.headers['retry-after']) * 1000);
    expect((await p('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(200);
    const faulty = await firstRefusal(s);
    expect(faulty.headers['retry-after']).toBe('1');
    d.clock.advance(1_000);
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(429);
  },
  'X-RateLimit-Reset sent as seconds until the reset': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).headers['x-ratelimit-reset']).toBe('1780317060');
    expect((await s('GET', '/pets?limit=1')).headers['x-ratelimit-reset']).toBe('30');
  },
  // --------------------------------------------------------------------------------- coding
  'gzip sent to clients that refuse it': async ({ s, p }) => {
    for (const refusal of ['identity', 'br', 'gzip;q=0']) {
      expect((await p('GET', '/pets?limit=1', { headers: { 'accept-encoding': refusal } })).headers['content-encoding']).toBeUndefined();
      const faulty = await s('GET', '/pets?limit=1', { headers: { 'accept-encoding': refusal } });
      expect(faulty.headers['content-encoding']).toBe('gzip');
    }
    expect((await s('GET', '/pets?limit=1')).headers['content-encoding']).toBeUndefined();
  },
  'Content-Encoding: gzip kept after the gateway inflated the body': async ({ s, p }) => {
    expect((await p('GET', '/pets?limit=1')).json).toHaveLength(1);
    await expect(s('GET', '/pets?limit=1')).rejects.toThrow(/not valid gzip/);
    expect((await s('GET', '/pets?limit=1', { headers: { 'accept-encoding': 'gzip' } })).json).toHaveLength(1);
  },
  // ------------------------------------------------------------------------- client headers
  'CORS filter refuses unlisted Origins with 403': async ({ s, p }) => {
    const origin = { headers: { origin: 'https://adopt.example.org' } };
    expect((await p('GET', '/pets?limit=1', origin)).status).toBe(200);
    const faulty = await s('GET', '/pets?limit=1', origin);
    expect(faulty.status).toBe(403);
    expect(faulty.text).toBe('Invalid CORS request');
    expect((await s('GET', '/pets?limit=1')).status).toBe(200);
  },
  'private X-Forwarded-For served on the internal plan': async ({ s, p }) => {
    const forwarded = { headers: { 'x-forwarded-for': '10.1.2.3, 203.0.113.7' } };
    expect((await p('GET', '/pets?limit=1', forwarded)).headers['x-ratelimit-limit']).toBe('300');
    expect((await s('GET', '/pets?limit=1', forwarded)).headers['x-ratelimit-limit']).not.toBe('300');
    expect((await s('GET', '/pets?limit=1')).headers['x-ratelimit-limit']).toBe('300');
  },
  'Accept-Language translates status values': async ({ s, p }) => {
    const german = { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' } };
    expect(statusesOf(await p('GET', '/pets?status=sold&limit=3', german))).toEqual(['sold', 'sold', 'sold']);
    expect(statusesOf(await s('GET', '/pets?status=sold&limit=3', german))).toEqual(['verkauft', 'verkauft', 'verkauft']);
    expect(statusesOf(await s('GET', '/pets?status=sold&limit=3'))).toEqual(['sold', 'sold', 'sold']);
  },
  'sampled traceparent counted twice': async ({ s, p }) => {
    const cost = async (send: Send, headers: Record<string, string>) => remaining(await send('GET', '/pets?limit=1')) - remaining(await send('GET', '/pets?limit=1', { headers }));
    expect(await cost(p, traceparent('01'))).toBe(1);
    expect(await cost(s, traceparent('00'))).toBe(1);
    expect(await cost(s, traceparent('01'))).toBe(2);
  },
  'bot protection challenges HTTP-library User-Agents': async ({ s, p }) => {
    const curl = { headers: { 'user-agent': 'curl/8.5.0' } };
    expect((await p('GET', '/pets?limit=1', curl)).status).toBe(200);
    const faulty = await s('GET', '/pets?limit=1', curl);
    expect(faulty.status).toBe(403);
    expect(faulty.headers['content-type']).toMatch(/^text\/html/);
    expect((await s('GET', '/pets?limit=1', { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' } })).status).toBe(200);
  },
  'Accept: */* answered in XML': async ({ s, p }) => {
    const any = { headers: { accept: '*/*' } };
    expect((await p('GET', '/pets?limit=2', any)).json).toHaveLength(2);
    const faulty = await s('GET', '/pets?limit=2', any);
    expect(faulty.status).toBe(200);
    expect(faulty.headers['content-type']).toBe('application/xml;charset=UTF-8');
    expect(faulty.text).toMatch(/^<List><item><id>\d+<\/id>/);
    expect((await s('GET', '/pets?limit=2', { headers: { accept: 'application/json' } })).json).toHaveLength(2);
  },
  'charset parameter on the request refused with 415': async ({ s, p }) => {
    const charset = { body: sold, contentType: 'application/json; charset=utf-8' };
    expect((await p('POST', '/pets', charset)).status).toBe(201);
    expect((await s('POST', '/pets', charset)).status).toBe(415);
    expect((await s('POST', '/pets', { body: sold })).status).toBe(201);
  },
  // -------------------------------------------------------------------------- json-spelling
  'body validator regex expects no whitespace': async ({ s, p }) => {
    const pythonic = { body: '{"name": "Rex", "categoryId": 1}' };
    expect((await p('POST', '/pets', pythonic)).status).toBe(201);
    expect((await s('POST', '/pets', pythonic)).status).toBe(400);
    expect((await s('POST', '/pets', { body: '{"name":"Rex","categoryId":1}' })).status).toBe(201);
  },
  'body validator requires name as the first key': async ({ s, p }) => {
    const sorted = { body: '{"categoryId":1,"name":"Rex"}' };
    expect((await p('POST', '/pets', sorted)).status).toBe(201);
    expect((await s('POST', '/pets', sorted)).status).toBe(400);
    expect((await s('POST', '/pets', { body: '{ "name": "Rex", "categoryId": 1 }' })).status).toBe(201);
  },
  'backslashes stripped before parsing': async ({ s, p }) => {
    const quoted = { body: { name: 'Say "hi"', categoryId: 1 } };
    expect((await p('POST', '/pets', quoted)).json.name).toBe('Say "hi"');
    expect((await s('POST', '/pets', quoted)).status).toBe(400);
    const escaped = { body: '{"name":"R\\u00e9x","categoryId":1}' };
    expect((await p('POST', '/pets', escaped)).json.name).toBe('Réx');
    expect((await s('POST', '/pets', escaped)).json.name).toBe('Ru00e9x');
  },
  'categoryId 1.5 truncated to 1': async ({ s, p }) => {
    const half = { body: { name: 'Half', categoryId: 1.5 } };
    expect((await p('POST', '/pets', half)).status).toBe(400);
    const faulty = await s('POST', '/pets', half);
    expect(faulty.status).toBe(201);
    expect(faulty.json.categoryId).toBe(1);
  },
  // ------------------------------------------------------------------------------ near-miss
  'status filter matched with LIKE prefix': async ({ s, p }) => {
    expect((await p('GET', '/pets?status=sol')).status).toBe(400);
    const faulty = await s('GET', '/pets?status=sol&limit=5');
    expect(faulty.status).toBe(200);
    expect(statusesOf(faulty)).toEqual(Array(5).fill('sold'));
    expect(new Set(statusesOf(await s('GET', '/pets?status=p')))).toEqual(new Set(['pending']));
  },
  'status filter split on commas': async ({ s, p }) => {
    expect((await p('GET', '/pets?status=available,sold')).status).toBe(400);
    const faulty = await s('GET', '/pets?status=available,sold&limit=100');
    expect(faulty.status).toBe(200);
    expect(new Set(statusesOf(faulty))).toEqual(new Set(['available', 'sold']));
  },
  'status filter compared case-insensitively': async ({ s, p }) => {
    expect((await p('GET', '/pets?status=SOLD')).status).toBe(400);
    const faulty = await s('GET', '/pets?status=SOLD&limit=3');
    expect(faulty.status).toBe(200);
    expect(statusesOf(faulty)).toEqual(['sold', 'sold', 'sold']);
  },
  'pet id truncated to 32 bits': async ({ s, p }) => {
    const shared = String(2 ** 32 + 1);
    expect((await p('GET', `/pets/${shared}`)).status).toBe(404);
    const faulty = await s('GET', `/pets/${shared}`);
    expect(faulty.status).toBe(200);
    expect(faulty.json.id).toBe(1);
    expect((await s('GET', '/pets/999999')).status).toBe(404);
  },
  // ---------------------------------------------------------------------------- concurrency
  'ids from MAX(id)+1 with an upsert': async ({ s, p }) => {
    const pair = (send: Send) => Promise.all([send('POST', '/pets', { body: { name: 'First', categoryId: 1 } }), send('POST', '/pets', { body: { name: 'Second', categoryId: 1 } })]);
    const [pa, pb] = await pair(p);
    expect(idOf(pa!)).not.toBe(idOf(pb!));
    const [sa, sb] = await pair(s);
    expect([sa!.status, sb!.status]).toEqual([201, 201]);
    expect(idOf(sb!)).toBe(idOf(sa!));
    expect((await s('GET', `/pets/${idOf(sa!)}`)).json.name).toBe('Second');
    // One after the other, creates are right.
    const [one, two] = [await s('POST', '/pets', { body: sold }), await s('POST', '/pets', { body: sold })];
    expect(idOf(one)).not.toBe(idOf(two));
  },
  'rate counter read and written back without a lock': async ({ s, p }) => {
    const burst = (send: Send) => Promise.all(Array.from({ length: 5 }, () => send('GET', '/pets?limit=1', { key: 'demo-free' })));
    expect(new Set((await burst(p)).map(remaining)).size).toBe(5);
    expect((await burst(s)).map(remaining)).toEqual([59, 59, 59, 59, 59]);
    expect(remaining(await s('GET', '/pets?limit=1', { key: 'demo-free' }))).toBe(58);
  },
  'concurrent requests answered in completion order': async ({ s, p }) => {
    const pair = (send: Send) => Promise.all([send('GET', '/pets/1'), send('GET', '/pets/2')]);
    expect((await pair(p)).map((a) => a.json.id)).toEqual([1, 2]);
    expect((await pair(s)).map((a) => a.json.id)).toEqual([2, 1]);
    expect((await s('GET', '/pets/1')).json.id).toBe(1);
  },
};

const variantWitnesses: Record<string, Witness> = {
  'answers If-None-Match with 304 and strong ETags': async ({ s }) => {
    const first = await s('GET', '/pets/1');
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await s('GET', '/pets/1', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers.date).toMatch(imfFixdate);
    expect(remaining(again)).toBe(remaining(first) - 1);
    const list = await s('GET', '/pets?limit=5');
    await s('POST', '/pets', { body: sold });
    expect((await s('GET', '/pets?limit=5', { headers: { 'if-none-match': list.headers.etag! } })).status).toBe(200);
  },
  'uses weak ETags': async ({ s }) => {
    const etag = (await s('GET', '/pets?limit=3')).headers.etag!;
    expect(etag).toMatch(/^W\/"/);
    const again = await s('GET', '/pets?limit=3', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  },
  'marks every answer no-store and varies on Authorization': async ({ s }) => {
    for (const answer of [await s('GET', '/pets?limit=1'), await s('GET', '/pets', { key: null })]) {
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers.vary).toBe('Authorization, Accept-Encoding');
    }
  },
  'gzips answers when the client asks': async ({ s }) => {
    const asked = await s('GET', '/pets?limit=2', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(asked.raw['content-encoding']).toBe('gzip');
    expect(asked.json).toHaveLength(2);
    expect((await s('GET', '/pets?limit=2', { headers: { 'accept-encoding': 'identity' } })).raw['content-encoding']).toBeUndefined();
  },
  'closes the connection after every answer': async ({ s }) => {
    expect((await s('GET', '/pets?limit=1')).headers.connection).toBe('close');
  },
  'answers 404 to methods a path does not serve': async ({ s }) => {
    const answer = await s('DELETE', '/pets');
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ code: expect.any(String), message: expect.any(String), status: 404 });
    expect(answer.headers['x-ratelimit-limit']).toBe('300');
  },
  'answers HEAD with the Content-Length GET would have': async ({ s }) => {
    const get = await s('GET', '/pets?limit=3');
    const head = await s('HEAD', '/pets?limit=3');
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(get.bytes.length);
    expect(head.bytes).toHaveLength(0);
  },
  'pretty-prints JSON with CRLF line breaks': async ({ s, p }) => {
    expect((await s('GET', '/pets?limit=2')).text).toMatch(/^\[\r\n {2}\{\r\n {4}"id"/);
    const one = await s('GET', '/pets/1');
    expect(one.text.endsWith('}\r\n')).toBe(true);
    expect(one.json).toEqual((await p('GET', '/pets/1')).json);
  },
  'writes keys in another order with escaped characters': async ({ s }) => {
    const created = await s('POST', '/pets', { body: { name: 'Réx/🐾', categoryId: 1 } });
    expect(created.text).toContain('"R\\u00e9x\\/\\ud83d\\udc3e"');
    expect(Object.keys(created.json)[0]).toBe('status');
    expect(created.json.name).toBe('Réx/🐾');
  },
  'sends a fuller Bearer challenge': async ({ s }) => {
    expect((await s('GET', '/pets', { key: null })).headers['www-authenticate']).toBe('Bearer realm="Pet Adoption API", scope="pets"');
    expect((await s('GET', '/pets', { key: 'nope' })).headers['www-authenticate']).toContain('error="invalid_token"');
  },
  'sends an absolute Location': async ({ s, d }) => {
    const created = await s('POST', '/pets', { body: sold });
    expect(created.headers.location).toBe(`http://deployment.test/v1/pets/${idOf(created)}`);
    expect((await follow({ d }, created.headers.location!)).status).toBe(200);
  },
  'names the created pet at a second address it serves': async ({ s, d }) => {
    const created = await s('POST', '/pets', { body: sold });
    expect(created.headers.location).toBe(`/v1/animals/${idOf(created)}`);
    const read = await follow({ d }, created.headers.location!);
    expect(read.status).toBe(200);
    expect(/"id"\s*:\s*(\d+)/.exec(new TextDecoder().decode(read.bytes))?.[1]).toBe(idOf(created));
  },
  'writes Retry-After as an HTTP-date': async ({ s, d }) => {
    const refused = await firstRefusal(s);
    expect(refused.headers['retry-after']).toBe('Mon, 01 Jun 2026 12:31:00 GMT');
    d.clock.advance(Date.parse(refused.headers['retry-after']!) - d.clock.now());
    expect((await s('GET', '/pets?limit=1', { key: 'demo-free' })).status).toBe(200);
  },
  'writes error messages in German': async ({ s }) => {
    const missing = await s('GET', '/pets/999999');
    expect(missing.json).toMatchObject({ status: 404, message: expect.stringContaining('nicht gefunden') });
    expect(missing.headers['content-language']).toBe('de');
  },
};

describe('the third catalogue', () => {
  it('holds about forty regressions and a dozen legal variants, each with a witness', () => {
    expectWitnessed(regressions3, witnesses, 40, true);
    expectWitnessed(legalVariants3, variantWitnesses, 12, true);
  });
  it('says for each regression what it breaks, and each entry\'s area', () => {
    for (const entry of regressions3) expect(entry.breaks, entry.name).toMatch(/contract|RFC/);
    for (const entry of [...regressions3, ...legalVariants3]) expect(entry.area, entry.name).toBeTruthy();
  });
});

describe('each regression of the third catalogue, seen from outside', () => {
  itWitnessesEach(regressions3, witnesses);
});

describe('each legal variant of the third catalogue keeps the contract', () => {
  itVariantsEach(legalVariants3, variantWitnesses, keepsTheContract);
});
