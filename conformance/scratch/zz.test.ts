import { it } from 'vitest';
import { runOnFreshDeployment, runSuite } from '../testing/runSuite.ts';
import { inProcessDeployment, type Req, type Transform } from '../testing/deployment.ts';
import { categoriesPast2To53 } from '../testing/legalChoices.ts';
import type { ConformanceResult } from '../index.ts';
import type { MockOptions } from '../../mock/index.ts';
import { appendFileSync } from 'node:fs';

const failures = (r: ConformanceResult) => r.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => `${c.id}: ${f.case ?? ''} ${f.message.slice(0, 330)}`)));
const show = (label: string, r: ConformanceResult) => appendFileSync('/tmp/zz.out', '\n' + `### ${label}: exit ${r.exitCode} ${r.report.reason ?? ''} reqs=${r.report.requests.total} 429s=${r.report.exchanges.filter((e) => e.status === 429).length}\n  ` + [...new Set(failures(r))].slice(0, 8).join('\n  ') + '\n');

const perMin: Record<string, number> = { 'demo-free': 60, 'demo-pro': 300 };
const keyOf = (req: Req) => { const m = /^(\S+) +(demo-free|demo-pro)$/.exec(req.headers.authorization ?? ''); return m && m[1]!.toLowerCase() === 'bearer' ? m[2] : undefined; };

/** Token bucket: capacity = per-minute limit, refills limit/60 per second. Reset = when the bucket is full again; Retry-After = when the next token comes. */
function tokenBucket(): Transform {
  const b = new Map<string, { tokens: number; at: number }>();
  return async (req, forward, env) => {
    const key = keyOf(req);
    if (!key) return forward(req);
    const now = env.now();
    const cap = perMin[key]!;
    const rate = cap / 60_000; // tokens per ms
    const s = b.get(key) ?? { tokens: cap, at: now };
    s.tokens = Math.min(cap, s.tokens + (now - s.at) * rate);
    s.at = now;
    b.set(key, s);
    const fullAt = () => String(Math.ceil((now + (cap - s.tokens) / rate) / 1000));
    if (s.tokens < 1) {
      const res = await forward({ ...req, headers: { ...req.headers, authorization: 'Bearer demo-enterprise' } });
      return { status: 429, headers: { ...res.headers, 'content-type': 'application/json', 'retry-after': String(Math.max(1, Math.ceil((1 - s.tokens) / rate / 1000))), 'x-ratelimit-limit': String(cap), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': fullAt() }, body: JSON.stringify({ code: 'RATE_LIMITED', message: 'slow down', status: 429 }) };
    }
    s.tokens -= 1;
    const h = { 'x-ratelimit-limit': String(cap), 'x-ratelimit-remaining': String(Math.floor(s.tokens)), 'x-ratelimit-reset': fullAt() };
    const res = await forward({ ...req, headers: { ...req.headers, authorization: 'Bearer demo-enterprise' } });
    return { ...res, headers: { ...res.headers, ...h } };
  };
}

/** Sliding-window counter (Cloudflare / Upstash style): count = prev * (1 - elapsed/60s) + current; Reset = end of the current fixed minute. */
function slidingCounter(): Transform {
  const b = new Map<string, { start: number; cur: number; prev: number }>();
  return async (req, forward, env) => {
    const key = keyOf(req);
    if (!key) return forward(req);
    const now = env.now();
    const cap = perMin[key]!;
    const start = now - (now % 60_000);
    let s = b.get(key) ?? { start, cur: 0, prev: 0 };
    if (s.start !== start) s = { start, cur: 0, prev: s.start === start - 60_000 ? s.cur : 0 };
    b.set(key, s);
    const used = () => s.prev * (1 - (now - start) / 60_000) + s.cur;
    const reset = String(Math.ceil((start + 60_000) / 1000));
    const res = await forward({ ...req, headers: { ...req.headers, authorization: 'Bearer demo-enterprise' } });
    if (used() + 1 > cap) return { status: 429, headers: { ...res.headers, 'content-type': 'application/json', 'retry-after': String(Math.ceil((start + 60_000 - now) / 1000)), 'x-ratelimit-limit': String(cap), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, body: JSON.stringify({ code: 'RATE_LIMITED', message: 'slow down', status: 429 }) };
    s.cur++;
    return { ...res, headers: { ...res.headers, 'x-ratelimit-limit': String(cap), 'x-ratelimit-remaining': String(Math.max(0, Math.floor(cap - used()))), 'x-ratelimit-reset': reset } };
  };
}

/** A clock that moves a little with every read, as real time does during a run. */
function tickingClock(stepMs: number) {
  let t = Date.UTC(2026, 5, 1, 12, 30, 30);
  return { now: () => (t += stepMs), advance: (ms: number) => void (t += ms) };
}

async function runWith(transform: Transform, options: Record<string, unknown>, mockOptions: MockOptions = {}, clock?: { now(): number; advance(ms: number): void }, skewMs = 0) {
  const d = await inProcessDeployment(transform, mockOptions, clock);
  try {
    return await runSuite(d, { ...(skewMs ? { now: () => d.clock.now() + skewMs } : {}), ...options });
  } finally {
    await d.close();
  }
}
const opts = { probeRateLimit: true, apiKey2: 'demo-free' };
const pass: Transform = (req, forward) => forward(req);


const isoDate = (ms: number) => new Date(ms).toUTCString();
/** Serves DELETE /pets/{id} with a valid key (an admin endpoint the contract does not show); the pet is gone after. */
function servesDelete(): Transform {
  const gone = new Set<string>();
  return async (req, forward) => {
    const url = new URL(req.url, 'http://x');
    const id = /^\/v1\/pets\/(\d+)\/?$/.exec(url.pathname)?.[1];
    const valid = /^Bearer demo-(free|pro)$/.test(req.headers.authorization ?? '');
    if (req.method === 'DELETE' && id && valid) {
      const res = await forward({ ...req, method: 'GET', url: `/v1/pets/${id}` });
      if (res.status !== 200 || gone.has(id)) return res.status === 200 ? { ...res, status: 404, body: JSON.stringify({ code: 'NOT_FOUND', message: 'gone', status: 404 }) } : res;
      gone.add(id);
      return { status: 204, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k.startsWith('x-ratelimit') || k === 'date')), body: '' };
    }
    const res = await forward(req);
    if (req.method === 'GET' && id && gone.has(id) && res.status === 200) return { ...res, status: 404, body: JSON.stringify({ code: 'NOT_FOUND', message: 'gone', status: 404 }) };
    if (req.method === 'GET' && url.pathname === '/v1/pets' && res.status === 200) return { ...res, body: JSON.stringify((JSON.parse(res.body) as { id: number }[]).filter((p) => !gone.has(String(p.id)))) };
    return res;
  };
}
/** petId read as JSON Schema reads an integer (ajv coerceTypes, Number()): 12.0, +12, 12e0 and ' 12' are 12. */
function coercedPetId(): Transform {
  return async (req, forward) => {
    const url = new URL(req.url, 'http://x');
    const m = /^\/v1\/pets\/([^/]+)$/.exec(url.pathname);
    if (req.method !== 'GET' || !m) return forward(req);
    const n = Number(decodeURIComponent(m[1]!));
    return Number.isSafeInteger(n) ? forward({ ...req, url: `/v1/pets/${n}${url.search}` }) : forward(req);
  };
}
/** After a 429, the key is banned for 10 minutes and every request with it is refused 403. */
function banWith403(): Transform {
  let bannedUntil = 0;
  return async (req, forward, env) => {
    const keyed = /^Bearer demo-pro$/i.test(req.headers.authorization ?? '');
    if (keyed && env.now() < bannedUntil) {
      const res = await forward({ ...req, headers: {}, url: '/v1/pets?limit=1', method: 'GET', body: '' });
      return { status: 403, headers: { ...res.headers, 'content-type': 'application/json' }, body: JSON.stringify({ code: 'KEY_BANNED', message: 'banned', status: 403 }) };
    }
    const res = await forward(req);
    if (keyed && res.status === 429) bannedUntil = env.now() + 600_000;
    return res;
  };
}
/** Date stamped by a front proxy whose clock runs 2 s behind the limiter's. */
const dateLag = (ms: number): Transform => async (req, forward, env) => { const res = await forward(req); return { ...res, headers: { ...res.headers, date: isoDate(env.now() - ms) } }; };
const noDate: Transform = async (req, forward) => { const res = await forward(req); const h = { ...res.headers }; delete h.date; return { ...res, headers: h }; };

it.skip('battery2', async () => {
  show('token bucket (fixed transform), manual clock', await runOnFreshDeployment(tokenBucket(), opts));
  show('serves DELETE with key', await runOnFreshDeployment(servesDelete(), opts));
  for (const seed of [2, 3, 4]) show(`serves DELETE with key seed ${seed}`, await runOnFreshDeployment(servesDelete(), { ...opts, seed }));
  show('petId coerced like JSON Schema', await runOnFreshDeployment(coercedPetId(), opts));
  show('ban as 403', await runOnFreshDeployment(banWith403(), opts));
  show('categories past 2^53, empty store', await runOnFreshDeployment(categoriesPast2To53(), opts, { pets: [] }));
  show('empty store (control)', await runOnFreshDeployment(pass, opts, { pets: [] }));
  show('Date 2 s behind', await runOnFreshDeployment(dateLag(2000), opts));
  show('no Date header', await runOnFreshDeployment(noDate, opts));
  show('skew +30s free key + ban after 3', await runWith(pass, { apiKey: 'demo-free' }, { ban: { threshold: 3, seconds: 600 } }, undefined, 30_000));
  show('skew +30s pro + free2 + ban after 3', await runWith(pass, opts, { ban: { threshold: 3, seconds: 600 } }, undefined, 30_000));
}, 600_000);

it.skip('battery3', async () => {
  for (const seed of [1,2,3,4,5,6,7,8]) show(`petId coerced seed ${seed} full`, await runOnFreshDeployment(coercedPetId(), { ...opts, seed, depth: 'full' }));
});
it('sweep legal', async () => {
  const { legalVariants } = await import('../testing/regressions.ts');
  const { legalChoices, slidingWindow } = await import('../testing/legalChoices.ts');
  const all = [...legalVariants.map((v) => ({ name: v.name, make: v.make, mockOptions: v.mockOptions })), { name: 'legalChoices', make: () => legalChoices.transform, mockOptions: legalChoices.mockOptions }, { name: 'slidingWindow', make: slidingWindow, mockOptions: undefined }, { name: 'categoriesPast2To53', make: categoriesPast2To53, mockOptions: undefined }];
  for (const v of all) for (const seed of [1, 2, 3, 4, 5]) for (const depth of ['quick', 'full'] as const) {
    const r = await runOnFreshDeployment(v.make(), { ...opts, seed, depth }, v.mockOptions);
    if (r.exitCode !== 0) show(`${v.name} seed ${seed} ${depth}`, r);
  }
}, 1_200_000);
it.skip('battery', async () => {
  show('token bucket, manual clock', await runOnFreshDeployment(tokenBucket(), opts));
  show('token bucket, ticking clock 5ms', await runWith(tokenBucket(), opts, {}, tickingClock(5)));
  show('token bucket, free key, ticking', await runWith(tokenBucket(), { apiKey: 'demo-free' }, {}, tickingClock(5)));
  show('sliding counter, ticking 5ms', await runWith(slidingCounter(), opts, {}, tickingClock(5)));
  show('sliding counter, free key ticking', await runWith(slidingCounter(), { apiKey: 'demo-free' }, {}, tickingClock(5)));
  show('mock, ticking 5ms (control)', await runWith(pass, opts, {}, tickingClock(5)));
  for (const skew of [-30_000, 30_000, -300_000, 300_000]) show(`clock skew client ${skew > 0 ? '+' : ''}${skew / 1000}s`, await runWith(pass, opts, {}, undefined, skew));
  for (const skew of [-30_000, 30_000]) show(`clock skew client ${skew / 1000}s, free key`, await runWith(pass, { apiKey: 'demo-free' }, {}, undefined, skew));
}, 600_000);
