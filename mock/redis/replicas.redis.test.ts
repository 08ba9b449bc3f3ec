// Several mocks on one Redis behave as one (issue 13): whole apps built with `redis`, called in-process.
import { once } from 'node:events';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildMock } from '../buildMock.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import type { RedisState } from './openRedisState.ts';
import { startRedisServer, testFixtures, testKeys, testStart, uniquePrefix, useRedisServer, type TestRedisServer } from './testing/redisServer.ts';

const redis = useRedisServer<FastifyInstance>();
const apps = redis.open;

interface Replica {
  app: FastifyInstance;
  clock: ManualClock;
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options?: { key?: string | null; body?: unknown }): Promise<LightMyRequestResponse>;
}

/** One mock on `redis` under `prefix`, with its own base clock (as a process has), stopped after the test. */
async function replica(redis: TestRedisServer, prefix: string, extra: { logStream?: { write(text: string): unknown }; replicaId?: string; accessLog?: (text: string) => void } = {}): Promise<Replica> {
  const clock = new ManualClock(testStart);
  const app = await buildMock({
    spec: await testSpec(),
    pets: testFixtures,
    keys: testKeys,
    clock,
    redis: { url: redis.url, prefix, ...(extra.replicaId ? { replicaId: extra.replicaId } : {}) },
    ...(extra.logStream ? { logLevel: 'warn', logStream: extra.logStream } : {}),
    ...(extra.accessLog ? { accessLog: extra.accessLog } : {}),
  });
  apps.push(app);
  return {
    app,
    clock,
    call: (method, url, { key = 'demo-enterprise', body } = {}) => app.inject({
      method,
      url,
      headers: key === null ? {} : { authorization: `Bearer ${key}` },
      ...(body === undefined ? {} : { payload: body as object }),
    }),
  };
}

async function twoReplicas(): Promise<[Replica, Replica]> {
  const prefix = uniquePrefix();
  return [await replica(redis.server, prefix), await replica(redis.server, prefix)];
}

describe('two mocks on one Redis', () => {
  it('serves a pet created through one replica from the other at once, in its pages too', async () => {
    const [a, b] = await twoReplicas();
    // B caches its page first: A's write must invalidate it.
    expect((await b.call('GET', '/v1/pets?limit=100')).json()).toEqual([...testFixtures].reverse());
    const created = await a.call('POST', '/v1/pets', { body: { name: 'Shared', categoryId: 4, status: 'pending' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: 7, name: 'Shared', categoryId: 4, status: 'pending' });
    expect((await b.call('GET', '/v1/pets/7')).json()).toEqual(created.json());
    expect((await b.call('GET', '/v1/pets?limit=100')).json()).toEqual([created.json(), ...[...testFixtures].reverse()]);
    expect((await b.call('GET', '/v1/pets?status=pending')).json().map((p: { id: number }) => p.id)).toEqual([7, 4]);
  });

  it('gives 200 concurrent creates split across both replicas 200 distinct ids', async () => {
    const [a, b] = await twoReplicas();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).call('POST', '/v1/pets', { body: { name: `Pet ${i}`, categoryId: 1 } })));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(200).fill(201));
    const ids = answers.map((r) => r.json().id as number).sort((x, y) => x - y);
    expect(ids).toEqual(Array.from({ length: 200 }, (_, i) => 7 + i));
    expect((await a.call('GET', '/__mock/pets')).json()).toHaveLength(206);
  });

  it('counts demo-free once across both replicas: exactly 60 a minute on a frozen clock, then 429 from either, until an advance on one lifts it on the other', async () => {
    const [a, b] = await twoReplicas();
    expect((await a.call('POST', '/__mock/clock', { body: { freeze: true } })).json()).toMatchObject({ frozen: true });
    // The base clocks run on; the frozen mock clock does not.
    a.clock.advance(5 * 60_000);
    b.clock.advance(5 * 60_000);
    const answers = await Promise.all(Array.from({ length: 70 }, (_, i) => (i % 2 ? a : b).call('GET', '/v1/pets?limit=1', { key: 'demo-free' })));
    const ok = answers.filter((r) => r.statusCode === 200);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(ok).toHaveLength(60);
    expect(refused).toHaveLength(10);
    // Each allowed request saw its own count, whichever replica answered: 59 down to 0, once each.
    expect(ok.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    const resets = new Set(answers.map((r) => r.headers['x-ratelimit-reset']));
    expect(resets.size).toBe(1);
    for (const r of refused) {
      expect(r.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.headers['x-ratelimit-limit']).toBe('60');
    }
    expect((await a.call('GET', '/v1/pets?limit=1', { key: 'demo-free' })).statusCode).toBe(429);

    expect((await b.call('POST', '/__mock/clock', { body: { advanceSeconds: 60 } })).statusCode).toBe(200);
    const after = await a.call('GET', '/v1/pets?limit=1', { key: 'demo-free' });
    expect(after.statusCode).toBe(200);
    expect(after.headers['x-ratelimit-remaining']).toBe('59');
    expect((await b.call('GET', '/__mock/clock')).json()).toEqual((await a.call('GET', '/__mock/clock')).json());
  });

  it('shares a ban: a key banned through one replica is refused by the other', async () => {
    const [a, b] = await twoReplicas();
    for (let i = 0; i < 60; i++) await a.call('GET', '/v1/pets?limit=1', { key: 'demo-free' });
    // The default ban: 20 refused requests in one throttled spell.
    for (let i = 0; i < 20; i++) await (i % 2 ? a : b).call('GET', '/v1/pets?limit=1', { key: 'demo-free' });
    const banned = await b.call('GET', '/v1/pets?limit=1', { key: 'demo-free' });
    expect(banned.json()).toMatchObject({ code: 'API_KEY_BANNED', status: 429 });
    expect((await a.call('GET', '/v1/pets?limit=1', { key: 'demo-free' })).json()).toMatchObject({ code: 'API_KEY_BANNED' });
  });

  it('accepts a key added through one replica on the other, and refuses it there once deleted', async () => {
    const [a, b] = await twoReplicas();
    expect((await b.call('GET', '/v1/pets', { key: 'team-a-key' })).statusCode).toBe(401);
    expect((await a.call('PUT', '/__mock/keys/team-a-key', { body: { plan: 'pro' } })).statusCode).toBe(201);
    const answer = await b.call('GET', '/v1/pets', { key: 'team-a-key' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-ratelimit-limit']).toBe('300');
    expect((await b.call('DELETE', '/__mock/keys/team-a-key')).statusCode).toBe(204);
    expect((await a.call('GET', '/v1/pets', { key: 'team-a-key' })).statusCode).toBe(401);
  });

  it('shows every replica\'s requests in GET /__mock/requests on either', async () => {
    const [a, b] = await twoReplicas();
    await a.call('GET', '/v1/pets?limit=2');
    await b.call('GET', '/v1/pets/999');
    // The answer does not wait for its log entry: wait for both replicas' entries to be stored.
    await Promise.all([a, b].map((r) => (r.app.mock as RedisState).log.flush()));
    const { requests } = (await b.call('GET', '/__mock/requests?path=/v1/*')).json() as { requests: { path: string; status: number }[] };
    expect(requests.map((r) => [r.path, r.status])).toEqual([['/v1/pets', 200], ['/v1/pets/999', 404]]);
  });

  it('finds one run\'s requests by ?runId= on either replica, with the client address and the replica that answered, in the request log and the access log', async () => {
    const prefix = uniquePrefix();
    const lines: string[] = [];
    const [a, b] = [await replica(redis.server, prefix, { replicaId: 'web-a', accessLog: (text) => lines.push(text) }), await replica(redis.server, prefix, { replicaId: 'web-b' })];
    const run = (id: string) => ({ 'x-conformance-run-id': id });
    await a.app.inject({ url: '/v1/pets?limit=1', headers: { authorization: 'Bearer demo-pro', ...run('run-1') } });
    await b.app.inject({ url: '/v1/pets/999', headers: { authorization: 'Bearer demo-pro', ...run('run-1') } });
    await b.app.inject({ url: '/v1/pets', headers: run('run-2') });
    await Promise.all([a, b].map((r) => (r.app.mock as RedisState).log.flush()));
    for (const app of [a, b].map((r) => r.app)) {
      const answer = await app.inject({ url: '/__mock/requests?runId=run-1' });
      expect(answer.json().requests.map((r: { path: string; status: number; client: string; runId: string; replica: string }) => [r.path, r.status, r.client, r.runId, r.replica])).toEqual([
        ['/v1/pets', 200, '127.0.0.1', 'run-1', 'web-a'],
        ['/v1/pets/999', 404, '127.0.0.1', 'run-1', 'web-b'],
      ]);
    }
    expect((await a.call('GET', '/__mock/requests?runId=run-2&status=401')).json().requests).toMatchObject([{ path: '/v1/pets', replica: 'web-b', key: null }]);
    expect((await a.call('GET', '/__mock/requests?runId=')).json()).toMatchObject({ code: 'INVALID_CONTROL_REQUEST', status: 400 });
    // Closing the app writes the access-log lines it has gathered.
    await a.app.close();
    expect(lines.join('')).toMatch(/ GET \/v1\/pets\?limit=1 200 \d+\.\dms demo…\(8\) 127\.0\.0\.1 run=run-1 replica=web-a\n/);
  });

  it('resets every replica from any: pets, keys, counters, the log and the clock', async () => {
    const [a, b] = await twoReplicas();
    await a.call('POST', '/v1/pets', { body: { name: 'Temporary', categoryId: 1 } });
    await a.call('PUT', '/__mock/keys/temp', { body: { plan: 'free' } });
    await a.call('POST', '/__mock/clock', { body: { advanceSeconds: 3600, freeze: true } });
    await a.call('GET', '/v1/pets', { key: 'demo-free' });
    const reset = await b.call('POST', '/__mock/reset');
    expect(reset.json()).toMatchObject({ pets: testFixtures.length, nextId: 8 });
    expect((await a.call('GET', '/v1/pets/7')).statusCode).toBe(404);
    expect((await a.call('GET', '/v1/pets', { key: 'temp' })).statusCode).toBe(401);
    expect((await a.call('GET', '/__mock/clock')).json()).toMatchObject({ frozen: false, offsetSeconds: 0 });
    expect((await a.call('GET', '/v1/pets', { key: 'demo-free' })).headers['x-ratelimit-remaining']).toBe('59');
  });

  it('keeps the data for a replica started after both stopped, without reseeding', async () => {
    const prefix = uniquePrefix();
    const [a, b] = [await replica(redis.server, prefix), await replica(redis.server, prefix)];
    expect((a.app.mock as RedisState).seeded !== (b.app.mock as RedisState).seeded).toBe(true);
    await a.call('POST', '/v1/pets', { body: { name: 'Survivor', categoryId: 2 } });
    await b.call('DELETE', '/__mock/keys/demo-pro');
    await Promise.all(apps.splice(0).map((app) => app.close()));

    const c = await replica(redis.server, prefix);
    expect((c.app.mock as RedisState).seeded).toBe(false);
    expect((await c.call('GET', '/v1/pets/7')).json()).toMatchObject({ name: 'Survivor' });
    expect((await c.call('GET', '/v1/pets', { key: 'demo-pro' })).statusCode).toBe(401);
  });

  it('seeds an empty Redis once when several replicas start together', async () => {
    const prefix = uniquePrefix();
    const started = await Promise.all(Array.from({ length: 4 }, () => replica(redis.server, prefix)));
    expect(started.filter((r) => (r.app.mock as RedisState).seeded)).toHaveLength(1);
    expect((await started[3]!.call('GET', '/__mock/pets')).json()).toEqual(testFixtures);
  });

  it('grades a client from the requests of every replica: a retry through one after a 429 through the other', async () => {
    const [a, b] = await twoReplicas();
    // demo-free's minute, spread over both replicas, then a 429 from A and, a second later on both
    // processes' clocks, an early retry to B.
    for (let i = 0; i < 60; i++) await (i % 2 === 0 ? a : b).call('GET', '/v1/pets?limit=1', { key: 'demo-free' });
    expect((await a.call('GET', '/v1/pets?limit=1', { key: 'demo-free' })).statusCode).toBe(429);
    a.clock.advance(1000);
    b.clock.advance(1000);
    await b.call('GET', '/v1/pets?limit=1', { key: 'demo-free' });
    const report = (await b.app.inject({ url: '/__mock/client-report?key=demo-free' })).json();
    expect(report.passed).toBe(false);
    expect(report.findings.map((f: { rule: string }) => f.rule)).toContain('client.retry-after');
    await a.app.inject({ method: 'POST', url: '/__mock/reset' });
    expect((await b.app.inject({ url: '/__mock/client-report' })).json()).toEqual({ passed: true, findings: [], deprecatedUse: [] });
  });
});

describe('a replica while Redis is away', () => {
  it('answers API and control requests 503 STORE_UNAVAILABLE with Retry-After, logs it once, and serves again when Redis returns', async () => {
    const redis = await startRedisServer();
    try {
      const lines: string[] = [];
      const a = await replica(redis, uniquePrefix(), { logStream: { write: (text: string) => lines.push(text) } });
      await a.call('POST', '/v1/pets', { body: { name: 'Before', categoryId: 1 } });
      // Once the replica's connection has seen Redis go: a command written before that would be
      // lost on a dead socket, which is "stopped answering", not "unreachable".
      const lost = once((a.app.mock as RedisState).connection.client, 'close');
      await redis.stop();
      await lost;

      for (const [method, url] of [['GET', '/v1/pets'], ['GET', '/v1/pets/1'], ['POST', '/v1/pets'], ['GET', '/__mock/requests'], ['POST', '/__mock/reset']] as const) {
        const answer = await a.call(method, url, method === 'POST' && url === '/v1/pets' ? { body: { name: 'During', categoryId: 1 } } : {});
        expect(answer.statusCode, `${method} ${url}`).toBe(503);
        expect(answer.json()).toMatchObject({ code: 'STORE_UNAVAILABLE', status: 503 });
        expect(answer.json().message).toMatch(/unreachable/);
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      expect(lines.filter((line) => line.includes('unreachable'))).toHaveLength(1);

      // Back, and empty (the test server keeps nothing): reseeded, ids above every id issued.
      await redis.start();
      await (a.app.mock as RedisState).connection.whenAvailable();
      expect((await a.call('GET', '/v1/pets/1')).json()).toEqual(testFixtures[0]);
      expect((await a.call('POST', '/v1/pets', { body: { name: 'After', categoryId: 1 } })).json().id).toBe(8);
      expect(lines.filter((line) => line.includes('is back'))).toHaveLength(0);
    } finally {
      await Promise.all(apps.splice(0).map((app) => app.close()));
      await redis.stop();
    }
  });
});
