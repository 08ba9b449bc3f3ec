// witness.mjs - for each FAULT (and GRAY), starts deployment-c.mjs with it and without it, runs a probe that
// says whether the fault's behaviour shows, and prints `ok <name>` when it shows on the faulty server and not
// on the clean one, `MISSING <name>` otherwise. For the clean server and each LEGAL variant it runs a small
// sanity check (list, create/read back, 401, 404, limit bounds, rate-limit headers) and prints `ok <name>`.
//   node witness.mjs [name ...]
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';

const FILE = new URL('./deployment-c.mjs', import.meta.url).pathname;
const cases = JSON.parse(readFileSync(new URL('./cases.json', import.meta.url)))['deployment-c.mjs'];

const freePort = () => new Promise((res) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); }); });
const children = new Set(); // every server this script started, stopped when it exits
process.on('exit', () => { for (const c of children) c.kill(); });
async function start(env = {}, tries = 3) {
  try { return await start1(env); } catch (e) { if (tries > 1) return start(env, tries - 1); throw e; }
}
async function start1(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [FILE], { env: { ...process.env, FAULT: '', LEGAL: '', GRAY: '', ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  await new Promise((res, rej) => {
    let out = '', err = '';
    child.stdout.on('data', (d) => { out += d; if (out.includes('\n')) res(); });
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (c) => rej(new Error(`exit ${c}: ${err.slice(0, 300)}`)));
    setTimeout(() => rej(new Error('no listen line')), 5000);
  }).catch((e) => { child.kill(); throw e; });
  return { port, stop: () => child.kill() };
}
// One request; returns {status, headers, body (utf8 string), raw (Buffer), error?}.
function request(port, method, path, { headers = {}, body, agent = false } = {}) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => { const raw = Buffer.concat(chunks); resolve({ status: res.statusCode, headers: res.headers, body: raw.toString('utf8'), raw }); });
      res.on('error', (e) => resolve({ status: res.statusCode, headers: res.headers, body: '', raw: Buffer.alloc(0), error: e }));
    });
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: '', raw: Buffer.alloc(0), error: e }));
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    for (const [k, v] of Object.entries(headers)) req.setHeader(k, v);
    req.end(body);
  });
}
const K = { Authorization: 'Bearer demo-pro' };
const json = (r) => { try { return JSON.parse(r.body); } catch { return undefined; } };
const rem = (r) => Number(r.headers['x-ratelimit-remaining']);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let uniq = 0;
function api(port) {
  const keep = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const a = {
    port,
    req: (m, p, o = {}) => request(port, m, p, { ...o, headers: { ...K, ...(o.headers || {}) } }),
    anon: (m, p, o = {}) => request(port, m, p, o),
    get: (p, h = {}) => a.req('GET', p, { headers: h }),
    create: (obj, h = {}) => a.req('POST', '/v1/pets', { headers: { 'Content-Type': 'application/json', ...h }, body: typeof obj === 'string' ? obj : JSON.stringify(obj) }),
    idOf: (r) => (/"id":(-?\d+)/.exec(r.body) || [])[1],
    async seedId() { return a.idOf(await a.get('/v1/pets?limit=1')); },
    // sends list requests on one keep-alive connection until a 429; returns {last200, r429}
    async exhaust() {
      let last = null;
      for (let i = 0; i < 400; i++) {
        const r = await request(port, 'GET', '/v1/pets?limit=1', { headers: K, agent: keep });
        if (r.status === 429) return { last, r429: r };
        last = r;
      }
      return { last, r429: null };
    },
    close: () => keep.destroy(),
  };
  return a;
}
const name = () => `Witness-${process.pid}-${++uniq}`;
const isImfDate = (v) => /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(v || '');
const preflight = (a) => a.anon('OPTIONS', '/v1/pets', { headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' } });
const nextLink = (r) => (/<([^>]+)>;\s*rel="next"/.exec(r.headers.link || '') || [])[1];

// probe(a) -> true when the named behaviour shows.
const PROBES = {
  'pending-reset-on-create': async (a) => json(await a.create({ name: name(), categoryId: 1, status: 'pending' }))?.status !== 'pending',
  'filtered-list-enveloped': async (a) => !Array.isArray(json(await a.get('/v1/pets?status=available'))),
  'int8-category-as-string': async (a) => { const c = await a.create({ name: name(), categoryId: 3000000001 }); return typeof json(await a.get(`/v1/pets/${a.idOf(c)}`))?.categoryId === 'string'; },
  'list-category-double': async (a) => { await a.create(`{"name":"${name()}","categoryId":9007199254740993}`); return !(await a.get('/v1/pets?limit=5')).body.includes('9007199254740993'); },
  'snowflake-ids-rounded': async (a) => (await a.get(`/v1/pets/${a.idOf(await a.create({ name: name(), categoryId: 2 }))}`)).status === 404,
  'category-null-accepted': async (a) => (await a.create({ name: name(), categoryId: null })).status === 201,
  'status-empty-string-accepted': async (a) => (await a.create({ name: name(), categoryId: 1, status: '' })).status === 201,
  'name-array-accepted': async (a) => (await a.create({ name: ['Rex'], categoryId: 1 })).status === 201,
  'category-safe-int-only': async (a) => (await a.create('{"name":"Max","categoryId":9223372036854775807}')).status === 400,
  'category-no-lower-bound': async (a) => (await a.create('{"name":"Min","categoryId":-9223372036854775809}')).status === 201,
  'limit-zero-default': async (a) => (await a.get('/v1/pets?limit=0')).status === 200,
  'limit-unchecked-with-status': async (a) => (await a.get('/v1/pets?status=available&limit=150')).status === 200,
  'ct-with-charset-415': async (a) => (await a.create({ name: name(), categoryId: 1 }, { 'Content-Type': 'application/json; charset=utf-8' })).status === 415,
  'json-trailing-garbage-accepted': async (a) => (await a.create('{"name":"T","categoryId":1} trailing')).status === 201,
  'missing-name-500-with-status': async (a) => (await a.create({ categoryId: 1, status: 'sold' })).status === 500,
  'unsupported-media-status-mismatch': async (a) => { const r = await a.create('{"name":"x","categoryId":1}', { 'Content-Type': 'text/plain' }); return r.status >= 400 && json(r)?.status !== r.status; },
  '429-body-no-code': async (a) => { const { r429 } = await a.exhaust(); return !!r429 && typeof json(r429)?.code !== 'string'; },
  'multi-error-body-shape': async (a) => { const b = json(await a.create({})); return typeof b?.code !== 'string' || typeof b?.message !== 'string'; },
  'query-error-code-number': async (a) => typeof json(await a.get('/v1/pets?limit=abc'))?.code !== 'string',
  'query-400-text-plain': async (a) => !/^application\/json/.test((await a.get('/v1/pets?limit=abc')).headers['content-type']),
  'key-case-folded': async (a) => (await a.get('/v1/pets', { Authorization: 'Bearer DEMO-PRO' })).status === 200,
  'bearer-without-token-500': async (a) => (await a.get('/v1/pets', { Authorization: 'Bearer' })).status === 500,
  'store-orders-unauthenticated': async (a) => (await a.anon('GET', '/v1/store/orders')).status === 200,
  'x-api-key-fallback': async (a) => (await a.anon('GET', '/v1/pets', { headers: { 'X-API-Key': 'demo-pro' } })).status === 200,
  'reset-stuck-in-past': async (a) => {
    const r1 = await a.get('/v1/pets?limit=1');
    await sleep(Math.max(0, Number(r1.headers['x-ratelimit-reset']) * 1000 - Date.now()) + 1500);
    const r2 = await a.get('/v1/pets?limit=1');
    return Number(r2.headers['x-ratelimit-reset']) * 1000 < Date.now();
  },
  'getpet-not-counted': async (a) => { const id = await a.seedId(); const r1 = await a.get(`/v1/pets/${id}`); const r2 = await a.get(`/v1/pets/${id}`); return rem(r2) >= rem(r1); },
  'off-by-one-429-early': async (a) => { const { last, r429 } = await a.exhaust(); return !!r429 && rem(last) > 0; },
  'limit-state-per-connection': async (a) => { const r1 = await a.get('/v1/pets?limit=1'); const r2 = await a.get('/v1/pets?limit=1'); return rem(r2) >= rem(r1); },
  'reset-iso-on-429': async (a) => { const { r429 } = await a.exhaust(); return !!r429 && !/^\d+$/.test(r429.headers['x-ratelimit-reset']); },
  'head-drops-ratelimit-headers': async (a) => (await a.req('HEAD', '/v1/pets')).headers['x-ratelimit-limit'] === undefined,
  'retry-after-decimal': async (a) => { const { r429 } = await a.exhaust(); const v = r429?.headers['retry-after']; return !!r429 && !/^\d+$/.test(v) && !isImfDate(v); },
  'weighted-list-cost': async (a) => { const r1 = await a.get('/v1/pets?limit=1'); const r2 = await a.get('/v1/pets?limit=100'); return rem(r1) - rem(r2) > 1; },
  'fresh-window-remaining-full': async (a) => { const r = await a.get('/v1/pets?limit=1'); return rem(r) >= Number(r.headers['x-ratelimit-limit']); },
  'next-page-skips-one': async (a) => {
    const p1 = await a.get('/v1/pets?limit=5'); const p2 = await a.get(nextLink(p1));
    const ten = json(await a.get('/v1/pets?limit=10')).map((p) => p.id).join();
    return [...json(p1), ...json(p2)].slice(0, 10).map((p) => p.id).join() !== ten;
  },
  'limit-dropped-on-cursor': async (a) => { const p1 = await a.get('/v1/pets?limit=5'); return json(await a.get(nextLink(p1))).length > 5; },
  'status-index-stale': async (a) => { const n = name(); await a.create({ name: n, categoryId: 4, status: 'sold' }); return !json(await a.get('/v1/pets?status=sold&limit=100')).some((p) => p.name === n); },
  'concurrent-create-lost': async (a) => {
    const rs = await Promise.all([1, 2, 3, 4, 5, 6].map(() => a.create({ name: name(), categoryId: 6 })));
    const gets = await Promise.all(rs.map((r) => a.get(`/v1/pets/${a.idOf(r)}`)));
    return gets.some((g) => g.status === 404);
  },
  'name-trimmed-in-store': async (a) => { const c = await a.create({ name: '  Rex  ', categoryId: 1 }); return json(await a.get(`/v1/pets/${a.idOf(c)}`))?.name !== '  Rex  '; },
  'replica-lag-404': async (a) => (await a.get(`/v1/pets/${a.idOf(await a.create({ name: name(), categoryId: 1 }))}`)).status === 404,
  'head-content-length-zero': async (a) => (await a.req('HEAD', '/v1/pets')).headers['content-length'] !== (await a.get('/v1/pets')).headers['content-length'],
  'head-405-on-item': async (a) => (await a.req('HEAD', `/v1/pets/${await a.seedId()}`)).status === 405,
  'allow-lists-post-on-item': async (a) => {
    const id = await a.seedId(); const d = await a.req('DELETE', `/v1/pets/${id}`);
    const p = await a.req('POST', `/v1/pets/${id}`, { headers: { 'Content-Type': 'application/json' }, body: '{"name":"x","categoryId":1}' });
    return /\bPOST\b/.test(d.headers.allow || '') && p.status === 405;
  },
  '405-no-allow': async (a) => { const r = await a.req('DELETE', '/v1/pets'); return r.status === 405 && r.headers.allow === undefined; },
  'content-length-chars': async (a) => { const r = await a.get('/v1/pets?limit=100'); return r.error !== undefined || json(r) === undefined; },
  'list-etag-ignores-creates': async (a) => {
    const r1 = await a.get('/v1/pets'); await a.create({ name: name(), categoryId: 1 });
    return (await a.get('/v1/pets', { 'If-None-Match': r1.headers.etag })).status === 304;
  },
  'inm-weak-not-matched': async (a) => { const r1 = await a.get('/v1/pets'); return (await a.get('/v1/pets', { 'If-None-Match': 'W/' + r1.headers.etag })).status !== 304; },
  'gzip-ignores-qvalue': async (a) => (await a.get('/v1/pets?limit=100', { 'Accept-Encoding': 'gzip;q=0, identity' })).headers['content-encoding'] === 'gzip',
  'preflight-requires-auth': async (a) => { const r = await preflight(a); return r.status < 200 || r.status > 299; },
  'preflight-wildcard-omits-authorization': async (a) => !/authorization/i.test((await preflight(a)).headers['access-control-allow-headers'] || ''),
  'sunset-iso-date': async (a) => !isImfDate((await a.get(`/v1/pets/${await a.seedId()}`)).headers.sunset),
  // GRAY
  'dup-auth-first-wins': async (a) => (await a.get('/v1/pets', { Authorization: ['Bearer demo-pro', 'Bearer nope'] })).status === 200,
  'status-null-as-absent': async (a) => (await a.create({ name: name(), categoryId: 1, status: null })).status === 201,
  'limit-float-truncated': async (a) => (await a.get('/v1/pets?limit=2.5')).status === 200,
  'unknown-status-empty-list': async (a) => (await a.get('/v1/pets?status=adopted')).status === 200,
  'float-lexeme-rejected': async (a) => (await a.create('{"name":"F","categoryId":7.0}')).status === 400,
  'petid-non-numeric-400': async (a) => (await a.get('/v1/pets/abc')).status === 400,
  'unknown-fields-rejected': async (a) => (await a.create({ name: name(), categoryId: 1, colour: 'brown' })).status === 400,
};

// Sanity for the clean server and the LEGAL variants: returns a list of problems.
async function sanity(a) {
  const p = [];
  const isErr = (r, s) => { const b = json(r); if (r.status !== s || typeof b?.code !== 'string' || typeof b?.message !== 'string' || b?.status !== s) p.push(`expected Error ${s}, got ${r.status} ${r.body.slice(0, 80)}`); };
  const rl = (r, what) => { for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) if (!/^\d+$/.test(r.headers[h] || '')) p.push(`${what}: ${h}`); };
  const l = await a.get('/v1/pets');
  if (l.status !== 200 || !Array.isArray(json(l)) || json(l).length !== 20) p.push(`list ${l.status}`);
  if (!/^application\/json/.test(l.headers['content-type'] || '')) p.push('list content-type');
  rl(l, 'list');
  const n = name();
  const c = await a.create(`{"name":"${n}","categoryId":9223372036854775807,"status":"sold"}`);
  if (c.status !== 201 || !c.body.includes('"categoryId":9223372036854775807') || json(c)?.name !== n) p.push(`create ${c.status} ${c.body}`);
  rl(c, 'create');
  const g = await a.get(`/v1/pets/${a.idOf(c)}`);
  if (g.status !== 200 || g.body !== c.body) p.push(`read back ${g.status} ${g.body}`);
  if (!json(await a.get('/v1/pets?status=sold&limit=100')).some((x) => x.name === n)) p.push('created pet not in filtered list');
  isErr(await a.anon('GET', '/v1/pets'), 401);
  isErr(await a.get('/v1/pets', { Authorization: 'Bearer demo-nope' }), 401);
  isErr(await a.get('/v1/pets/987654321987'), 404);
  isErr(await a.get('/v1/pets?limit=0'), 400);
  isErr(await a.get('/v1/pets?limit=101'), 400);
  if ((await a.get('/v1/pets?limit=100')).status !== 200 || json(await a.get('/v1/pets?limit=1')).length !== 1) p.push('limit bounds');
  isErr(await a.create({ name: 'x' }), 400);
  isErr(await a.create({ name: 'x', categoryId: '1' }), 400);
  isErr(await a.create({ name: 'x', categoryId: 1, status: 'lost' }), 400);
  isErr(await a.create('{"name":'), 400);
  const h = await a.req('HEAD', '/v1/pets');
  if (h.status !== 200 || h.raw.length) p.push('HEAD');
  rl(h, 'HEAD');
  if (json(await a.get('/v1/pets?status=pending&limit=100')).some((x) => x.status !== 'pending')) p.push('filter');
  return p;
}

const only = process.argv.slice(2);
const want = (n) => !only.length || only.includes(n);
const jobs = [];
for (const n of cases.FAULT) if (want(n)) jobs.push({ kind: 'FAULT', n });
for (const n of cases.GRAY) if (want(n)) jobs.push({ kind: 'GRAY', n });
if (want('clean')) jobs.push({ kind: 'CLEAN', n: 'clean' });
for (const n of cases.LEGAL) if (want(n)) jobs.push({ kind: 'LEGAL', n });
jobs.sort((x, y) => (y.n === 'reset-stuck-in-past') - (x.n === 'reset-stuck-in-past'));

async function runOne({ kind, n }) {
  if (kind === 'FAULT' || kind === 'GRAY') {
    const probe = PROBES[n];
    if (!probe) return `MISSING ${n} (no probe)`;
    let s1, s2;
    try { [s1, s2] = await Promise.all([start(), start({ [kind]: n })]); } catch (e) { s1?.stop(); s2?.stop(); return `MISSING ${n} (${e.message})`; }
    const a1 = api(s1.port), a2 = api(s2.port);
    try {
      const [clean, faulty] = await Promise.all([probe(a1), probe(a2)]);
      return clean === false && faulty === true ? `ok ${n}` : `MISSING ${n} (clean=${clean} ${kind.toLowerCase()}=${faulty})`;
    } catch (e) { return `MISSING ${n} (${e.message})`; } finally { a1.close(); a2.close(); s1.stop(); s2.stop(); }
  }
  let s;
  try { s = await start(kind === 'LEGAL' ? { LEGAL: n } : {}); } catch (e) { return `MISSING ${n} (${e.message})`; }
  const a = api(s.port);
  try {
    const problems = await sanity(a);
    return problems.length ? `MISSING ${n} (${kind.toLowerCase()}: ${problems.join('; ')})` : `ok ${n}${kind === 'LEGAL' ? ' (legal)' : ' (clean sanity)'}`;
  } catch (e) { return `MISSING ${n} (${e.message})`; } finally { a.close(); s.stop(); }
}
// unknown name refused with exit 2
if (want('unknown-name')) {
  const code = await new Promise((res) => spawn(process.execPath, [FILE], { env: { ...process.env, FAULT: 'no-such-fault', PORT: '1' }, stdio: 'ignore' }).on('exit', res));
  console.log(code === 2 ? 'ok unknown-name-exit-2' : `MISSING unknown-name-exit-2 (exit ${code})`);
}
let bad = 0;
const queue = jobs.slice();
await Promise.all(Array.from({ length: 8 }, async () => {
  for (let j; (j = queue.shift());) { const line = await runOne(j); if (!line.startsWith('ok')) bad++; console.log(line); }
}));
process.exit(bad ? 1 : 0);
