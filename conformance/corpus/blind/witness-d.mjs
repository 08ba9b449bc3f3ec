#!/usr/bin/env node
// witness.mjs: shows each FAULT of deployment-d.mjs against a clean server.
// For each fault: starts a fresh server with the fault and a fresh clean one, sends the same few
// requests to both, and prints `ok <name>` when the fault's signature shows on the faulty server and
// not on the clean one, `MISSING <name>` otherwise. LEGAL and GRAY variants: checks that the server
// starts and answers a list. Usage: node witness.mjs [name ...]
import { spawn } from 'node:child_process';
import net from 'node:net';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { REGISTRY } from './deployment-d.mjs';

const FILE = fileURLToPath(new URL('./deployment-d.mjs', import.meta.url));
let nextPort = 5600 + (process.pid % 50) * 40;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function start(env) {
  const port = nextPort++;
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [FILE], { env: { ...process.env, FAULT: '', LEGAL: '', GRAY: '', ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const t = setTimeout(() => reject(new Error(`server ${JSON.stringify(env)} did not start`)), 5000);
    proc.stdout.on('data', (d) => { out += d; if (out.includes('\n')) { clearTimeout(t); resolve({ port, proc }); } });
    proc.stderr.on('data', () => {});
    proc.on('exit', (code) => { clearTimeout(t); reject(new Error(`server exited ${code}`)); });
  });
}
function stop(s) { if (s) { s.proc.removeAllListeners('exit'); s.proc.kill(); } }

// A raw HTTP/1.1 client: one connection per request, reads until the server closes, so framing
// errors (Content-Length vs octets sent) stay visible.
function raw(port, method, path, headers = {}, body, { sendBody = true } = {}) {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    const chunks = [];
    let done = false;
    const finish = () => {
      if (done) return; done = true;
      clearTimeout(timer);
      sock.destroy();
      const buf = Buffer.concat(chunks);
      const sep = buf.indexOf('\r\n\r\n');
      const head = buf.subarray(0, sep < 0 ? buf.length : sep).toString('latin1').split('\r\n');
      const status = Number((head[0] || '').split(' ')[1]);
      const h = {};
      for (const line of head.slice(1)) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const k = line.slice(0, i).trim().toLowerCase();
        (h[k] ||= []).push(line.slice(i + 1).trim());
      }
      let b = sep < 0 ? Buffer.alloc(0) : buf.subarray(sep + 4);
      if ((h['transfer-encoding'] || []).join().includes('chunked')) {
        const parts = []; let i = 0;
        while (i < b.length) {
          const e = b.indexOf('\r\n', i); const n = parseInt(b.subarray(i, e).toString(), 16);
          if (!n) break; parts.push(b.subarray(e + 2, e + 2 + n)); i = e + 2 + n + 2;
        }
        b = Buffer.concat(parts);
      }
      resolve(new Resp(status, h, b));
    };
    const timer = setTimeout(finish, 4000);
    sock.on('data', (d) => chunks.push(d));
    sock.on('end', finish);
    sock.on('close', finish);
    sock.on('error', finish);
    const bodyBuf = body === undefined ? null : Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    let req = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`;
    const hs = { ...headers };
    if (bodyBuf && !Object.keys(hs).some((k) => k.toLowerCase() === 'content-length')) hs['Content-Length'] = String(bodyBuf.length);
    if (bodyBuf && !Object.keys(hs).some((k) => k.toLowerCase() === 'content-type')) hs['Content-Type'] = 'application/json';
    for (const [k, v] of Object.entries(hs)) req += `${k}: ${v}\r\n`;
    sock.write(req + '\r\n');
    if (bodyBuf && sendBody) sock.write(bodyBuf);
  });
}
class Resp {
  constructor(status, h, body) { this.status = status; this.headers = h; this.body = body; }
  h(name) { const v = this.headers[name.toLowerCase()]; return v ? v.join(', ') : undefined; }
  count(name) { return (this.headers[name.toLowerCase()] || []).length; }
  get decoded() { return this.h('content-encoding') === 'gzip' ? zlib.gunzipSync(this.body) : this.body; }
  get text() { return this.decoded.toString('utf8'); }
  get json() { try { return JSON.parse(this.text); } catch { return undefined; } }
}

const A = { Authorization: 'Bearer demo-pro' };
const isErr = (j, st) => !!j && typeof j === 'object' && typeof j.code === 'string' && typeof j.message === 'string' && j.status === st;
const rem = (r) => Number(r.h('x-ratelimit-remaining'));
const get = (port, path, extra = {}) => raw(port, 'GET', path, { ...A, ...extra });
const post = (port, body, extra = {}) => raw(port, 'POST', '/v1/pets', { ...A, ...extra }, body);
async function avoidBoundary(margin = 4000) {
  const into = Date.now() % 60000;
  if (into > 60000 - margin) await sleep(60000 - into + 300);
}
async function exhaust(port) {
  for (let i = 0; i < 1500; i++) {
    const r = await get(port, '/v1/pets?limit=1');
    if (r.status === 429 || r.status === 400) return r;
  }
  return null;
}
async function created(port, body) {
  const r = await post(port, body);
  const id = /"id":(-?\d+)/.exec(r.text)?.[1];
  return { r, id, read: id ? await get(port, `/v1/pets/${id}`) : null };
}
const PREFLIGHT = { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' };

// Signature of each fault: true when the faulty behaviour is seen.
const CHECKS = {
  'missing-key-401-plain-text': async (p) => { const r = await raw(p, 'GET', '/v1/pets'); return r.status === 401 && !(/^application\/json/.test(r.h('content-type') || '') && isErr(r.json, 401)); },
  'invalid-key-401-no-ratelimit-headers': async (p) => { const r = await raw(p, 'GET', '/v1/pets', { Authorization: 'Bearer not-a-key' }); return r.status === 401 && !r.h('x-ratelimit-remaining'); },
  'auth-scheme-ignored': async (p) => (await raw(p, 'GET', '/v1/pets', { Authorization: 'Token demo-pro' })).status === 200,
  'key-case-insensitive': async (p) => (await raw(p, 'GET', '/v1/pets', { Authorization: 'Bearer DEMO-PRO' })).status === 200,
  'trailing-slash-skips-auth': async (p) => (await raw(p, 'GET', '/v1/pets/')).status === 200,
  'store-orders-outside-gateway': async (p) => (await raw(p, 'GET', '/v1/store/orders')).status === 200,
  'preflight-requires-auth': async (p) => { const r = await raw(p, 'OPTIONS', '/v1/pets', PREFLIGHT); return !(r.status >= 200 && r.status < 300); },
  'preflight-allow-headers-wildcard': async (p) => { const r = await raw(p, 'OPTIONS', '/v1/pets', PREFLIGHT); return !/authorization/i.test(r.h('access-control-allow-headers') || ''); },
  'pro-plan-business-limits': async (p) => (await get(p, '/v1/pets')).h('x-ratelimit-limit') !== '300',
  'post-counted-twice': async (p) => { await avoidBoundary(); const a = await get(p, '/v1/pets'); await post(p, { name: 'Twice', categoryId: 1 }); const c = await get(p, '/v1/pets'); return rem(a) - rem(c) === 3; },
  'not-found-not-counted': async (p) => { await avoidBoundary(); const a = await get(p, '/v1/pets/999999'); const b = await get(p, '/v1/pets/999999'); return rem(a) === rem(b); },
  'post-remaining-stale': async (p) => { await avoidBoundary(); const a = await get(p, '/v1/pets'); const b = await post(p, { name: 'Stale', categoryId: 1 }); return rem(b) === rem(a); },
  'ratelimit-headers-repeated-on-404': async (p) => (await get(p, '/v1/pets/999999')).count('x-ratelimit-remaining') > 1,
  'no-ratelimit-headers-on-304': async (p) => { const a = await get(p, '/v1/pets/1'); const b = await get(p, '/v1/pets/1', { 'If-None-Match': a.h('etag') }); return b.status === 304 && !b.h('x-ratelimit-remaining'); },
  'no-ratelimit-headers-on-unrouted-404': async (p) => { const r = await get(p, '/v1/pets/abc'); return r.status === 404 && !r.h('x-ratelimit-remaining'); },
  '429-ratelimit-headers-from-day-window': async (p) => { const r = await exhaust(p); return r.h('x-ratelimit-limit') !== '300' || r.h('x-ratelimit-remaining') !== '0'; },
  '429-error-status-400': async (p) => { const r = await exhaust(p); return !isErr(r.json, r.status) || r.json.status !== 429; },
  'retry-after-milliseconds': async (p) => { const r = await exhaust(p); return Number(r.h('retry-after')) > 60; },
  'post-429-no-retry-after': async (p) => { await exhaust(p); const r = await post(p, { name: 'Late', categoryId: 1 }); return r.status === 429 && !r.h('retry-after'); },
  'reset-http-date-on-429': async (p) => { const r = await exhaust(p); return !/^\d+$/.test(r.h('x-ratelimit-reset') || ''); },
  'window-anchored-to-first-request': async (p) => {
    await avoidBoundary(5000);
    await get(p, '/v1/pets');
    await sleep(60000 - (Date.now() % 60000) + 1000);
    const b = await get(p, '/v1/pets');
    return rem(b) !== 299;
  },
  'malformed-json-framework-error': async (p) => { const r = await post(p, '{"name": "Rex", '); return r.status >= 400 && !isErr(r.json, r.status); },
  'payload-too-large-html': async (p) => { const r = await raw(p, 'POST', '/v1/pets', { ...A, 'Content-Type': 'application/json', 'Content-Length': '70000' }, Buffer.alloc(70000, 32), { sendBody: false }); return r.status >= 400 && !/^application\/json/.test(r.h('content-type') || ''); },
  'json-charset-param-415': async (p) => (await post(p, { name: 'Rex', categoryId: 1 }, { 'Content-Type': 'application/json; charset=utf-8' })).status === 415,
  '405-without-allow': async (p) => { const r = await raw(p, 'DELETE', '/v1/pets/1', A); return r.status === 405 && !r.h('allow'); },
  '404-message-null': async (p) => { const r = await get(p, '/v1/pets/999999'); return r.status === 404 && typeof r.json?.message !== 'string'; },
  'null-body-500': async (p) => (await post(p, 'null')).status === 500,
  'query-validation-error-shape': async (p) => { const r = await get(p, '/v1/pets?limit=0'); return r.status >= 400 && !isErr(r.json, r.status); },
  'status-null-accepted': async (p) => (await post(p, { name: 'Nully', categoryId: 2, status: null })).status === 201,
  'category-precision-loss': async (p) => { const c = await created(p, '{"name":"Big","categoryId":9007199254740993}'); return !c.read.text.includes('"categoryId":9007199254740993'); },
  'category-int64-overflow-accepted': async (p) => (await post(p, '{"name":"Huge","categoryId":9223372036854775808}')).status === 201,
  'negative-category-as-unsigned': async (p) => { const c = await created(p, '{"name":"Neg","categoryId":-3}'); return !c.read.text.includes('"categoryId":-3'); },
  'invalid-status-persisted-on-400': async (p) => { const r = await post(p, { name: 'Bogus', categoryId: 1, status: 'bogus' }); const l = await get(p, '/v1/pets?limit=100'); return r.status === 400 && l.text.includes('bogus'); },
  'status-not-persisted': async (p) => { const c = await created(p, { name: 'Sold', categoryId: 1, status: 'sold' }); return c.read.json?.status !== 'sold'; },
  'id-from-row-count': async (p) => { const a = await get(p, '/v1/pets?limit=100'); await post(p, { name: 'Newcomer', categoryId: 1 }); const b = await get(p, '/v1/pets?limit=100'); return b.json.length === a.json.length; },
  'body-decoded-latin1': async (p) => { const c = await created(p, { name: 'Zoë Ünal', categoryId: 1 }); return c.read.json?.name !== 'Zoë Ünal'; },
  'pending-filter-ignored': async (p) => (await get(p, '/v1/pets?status=pending&limit=100')).json.some((x) => x.status !== 'pending'),
  'status-filter-skips-default-limit': async (p) => (await get(p, '/v1/pets?status=available')).json.length > 20,
  'limit-compared-as-string': async (p) => (await get(p, '/v1/pets?limit=5')).status === 400,
  'next-link-drops-status': async (p) => {
    const a = await get(p, '/v1/pets?status=pending&limit=5');
    const next = /<([^>]+)>;\s*rel="next"/.exec(a.h('link') || '')?.[1];
    if (!next) return false;
    const b = await get(p, next);
    return b.json.some((x) => x.status !== 'pending');
  },
  'head-content-length-zero': async (p) => { const a = await get(p, '/v1/pets/1'); const b = await raw(p, 'HEAD', '/v1/pets/1', A); return b.h('content-length') !== a.h('content-length'); },
  'gzip-content-length-uncompressed': async (p) => { const r = await get(p, '/v1/pets?limit=100', { 'Accept-Encoding': 'gzip' }); return Number(r.h('content-length')) !== r.body.length; },
  'content-length-counts-chars': async (p) => { const r = await get(p, '/v1/pets/33'); return Number(r.h('content-length')) !== r.body.length; },
  'list-etag-ignores-content': async (p) => { const a = await get(p, '/v1/pets?limit=100'); await post(p, { name: 'Fresh', categoryId: 1 }); const b = await get(p, '/v1/pets?limit=100', { 'If-None-Match': a.h('etag') }); return b.status === 304; },
  '304-without-etag': async (p) => { const a = await get(p, '/v1/pets/1'); const b = await get(p, '/v1/pets/1', { 'If-None-Match': a.h('etag') }); return b.status === 304 && !b.h('etag'); },
  'if-none-match-list-unparsed': async (p) => { const a = await get(p, '/v1/pets/1'); const b = await get(p, '/v1/pets/1', { 'If-None-Match': `"stale", ${a.h('etag')}` }); return b.status === 200; },
  'response-latin1-encoded': async (p) => { const r = await get(p, '/v1/pets/33'); try { new TextDecoder('utf-8', { fatal: true }).decode(r.body); return false; } catch { return true; } },
  'sunset-date-shifted': async (p) => (await get(p, '/v1/pets/1')).h('sunset') !== 'Thu, 05 Dec 2030 00:00:00 GMT',
  'pet-zero-500': async (p) => (await get(p, '/v1/pets/0')).status === 500,
};

async function listWorks(p) {
  const r = await get(p, '/v1/pets');
  const j = r.json;
  return r.status === 200 && Array.isArray(j) && j.length > 0 && j.every((x) => x.id !== undefined && typeof x.name === 'string' && x.categoryId !== undefined);
}

async function witnessFault(name) {
  const check = CHECKS[name];
  if (!check) return `MISSING ${name} (no check)`;
  let f, c;
  try {
    [f, c] = await Promise.all([start({ FAULT: name }), start({})]);
    const [fs, cs] = await Promise.all([check(f.port), check(c.port)]);
    return fs && !cs ? `ok ${name}` : `MISSING ${name} (fault:${fs} clean:${cs})`;
  } catch (e) {
    return `MISSING ${name} (${e.message})`;
  } finally { stop(f); stop(c); }
}
async function witnessVariant(kind, name) {
  let s;
  try { s = await start({ [kind]: name }); return (await listWorks(s.port)) ? `ok ${kind.toLowerCase()} ${name}` : `MISSING ${kind.toLowerCase()} ${name}`; }
  catch (e) { return `MISSING ${kind.toLowerCase()} ${name} (${e.message})`; }
  finally { stop(s); }
}

async function unknownNameExits2() {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [FILE], { env: { ...process.env, PORT: String(nextPort++), FAULT: 'no-such-fault' }, stdio: 'ignore' });
    proc.on('exit', (code) => resolve(code === 2 ? 'ok unknown-name-exits-2' : `MISSING unknown-name-exits-2 (exit ${code})`));
  });
}

const only = process.argv.slice(2);
const jobs = [];
for (const n of Object.keys(REGISTRY.FAULT)) if (!only.length || only.includes(n)) jobs.push({ n, run: () => witnessFault(n) });
for (const kind of ['LEGAL', 'GRAY']) for (const n of Object.keys(REGISTRY[kind])) if (!only.length || only.includes(n)) jobs.push({ n, run: () => witnessVariant(kind, n) });
if (!only.length) jobs.push({ n: 'exit2', run: unknownNameExits2 });
// The slow (minute-boundary) check first, so it overlaps the rest.
jobs.sort((a, b) => (b.n === 'window-anchored-to-first-request') - (a.n === 'window-anchored-to-first-request'));

const results = new Array(jobs.length);
let idx = 0, bad = 0;
async function worker() {
  while (idx < jobs.length) {
    const i = idx++;
    results[i] = await jobs[i].run();
    console.log(results[i]);
    if (!results[i].startsWith('ok')) bad++;
  }
}
const t0 = Date.now();
await Promise.all(Array.from({ length: 8 }, worker));
console.log(`${jobs.length - bad}/${jobs.length} ok in ${Math.round((Date.now() - t0) / 1000)} s`);
process.exit(bad ? 1 : 0);
