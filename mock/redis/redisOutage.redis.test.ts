import { once } from 'node:events';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { buildMock } from '../buildMock.ts';
import { testSpec } from '../testing.ts';
import { ManualClock } from '../state/clock.ts';
import { planLimits } from '../rateLimits/plans.ts';
import { connectRedis, redactRedisUrl, type RedisLogger } from './connectRedis.ts';
import type { RedisState } from './openRedisState.ts';
import { StoreUnavailableError } from '../errors/storeUnavailableError.ts';
import { openReplica, startRedisServer, testFixtures, testKeys, testStart, uniquePrefix, type TestRedisServer } from './testing/redisServer.ts';

const servers: TestRedisServer[] = [];
const open: RedisState[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((replica) => replica.close()));
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function server(extraArgs: string[] = []): Promise<TestRedisServer> {
  const started = await startRedisServer(extraArgs);
  servers.push(started);
  return started;
}

function recordingLogger(): RedisLogger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info: ${m}`), warn: (m) => lines.push(`warn: ${m}`) };
}

const request = { token: 'demo-free', anonymous: { bucketId: 'ip:1', limits: planLimits.free } };

/** Every kind of call the mock makes, each expected to fail with StoreUnavailableError. */
function everyCall(replica: RedisState): Array<Promise<unknown>> {
  return [
    replica.store.create({ name: 'x', categoryId: 1 }),
    replica.store.get(1),
    replica.store.list({ limit: 20 }),
    replica.store.all(),
    replica.store.count(),
    replica.runStep({ kind: 'page', limit: 1, status: undefined }),
    replica.admit({ token: 'demo-free', ip: '10.0.0.1' }, true, { kind: 'get', id: 1 }),
    replica.limiter.admit(request, true),
    replica.keys.find('demo-free'),
    replica.keys.set({ key: 'k', plan: 'pro' }),
    replica.clock.state(),
    replica.clock.advance(1),
    replica.log.list(),
    replica.reset(),
  ];
}

describe('when Redis goes away', () => {
  it('fails every call at once with StoreUnavailableError, logs the outage once, and serves again by itself when Redis returns', async () => {
    const redis = await server();
    const logger = recordingLogger();
    const replica = await openReplica(redis, uniquePrefix(), { logger });
    open.push(replica);
    await replica.store.create({ name: 'Seven', categoryId: 1 });
    await replica.store.create({ name: 'Eight', categoryId: 1 });

    await redis.stop();
    for (let round = 0; round < 3; round++) {
      const results = await Promise.allSettled(everyCall(replica));
      for (const result of results) {
        expect(result.status).toBe('rejected');
        const error = (result as PromiseRejectedResult).reason;
        expect(error).toBeInstanceOf(StoreUnavailableError);
        expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', statusCode: 503, retryAfterSeconds: 1 });
        expect(error.message).toContain(`redis://127.0.0.1:${redis.port}`);
      }
      // The log write of a request is lost, not thrown.
      replica.log.add({ at: testStart, method: 'GET', url: '/v1/pets', status: 503, key: null, ms: 1 });
    }
    await replica.log.flush();
    expect(logger.lines.filter((l) => l.startsWith('warn'))).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/^warn: Redis at redis:\/\/127\.0\.0\.1:\d+\/? is unreachable .*503 STORE_UNAVAILABLE/);

    // This server has no persistence: it returns empty, and the replica seeds it again.
    await redis.start();
    await replica.connection.whenAvailable();
    expect(logger.lines.filter((l) => l.startsWith('info'))).toEqual([expect.stringMatching(/is back/)]);
    expect(await replica.store.get(1)).toEqual(testFixtures[0]);
    expect((await replica.limiter.admit(request, true)).key).toMatchObject({ plan: 'free' });
    // Ids 7 and 8 were issued before the outage: the sequence resumes above them.
    expect((await replica.store.create({ name: 'Nine', categoryId: 1 })).id).toBe(9);
    expect(logger.lines).toHaveLength(2);
  });

  it('closes at once while Redis is away', async () => {
    const redis = await server();
    const replica = await openReplica(redis, uniquePrefix());
    await redis.stop();
    replica.log.add({ at: testStart, method: 'GET', url: '/v1/pets', status: 503, key: null, ms: 1 });
    await replica.close();
    await expect(replica.store.count()).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('reports a fault of the mock itself as what it is, not as Redis being away', async () => {
    const redis = await server();
    const replica = await openReplica(redis, uniquePrefix());
    open.push(replica);
    await expect(replica.connection.run(() => Promise.reject(new TypeError('a bug')))).rejects.toThrow(TypeError);
    await expect(replica.connection.run((client) => client.hget(replica.connection.key('pets:seq'), 'x'))).rejects.toThrow(/WRONGTYPE/);
    expect(replica.connection.available).toBe(true);
  });

  it('gives up on a Redis that stops answering after the command timeout, instead of hanging', async () => {
    const redis = await server();
    const logger = recordingLogger();
    const replica = await openReplica(redis, uniquePrefix(), { commandTimeoutMs: 1_500, logger });
    open.push(replica);
    redis.pause();
    try {
      await expect(replica.limiter.admit(request, true)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(replica.store.create({ name: 'x', categoryId: 1 })).rejects.toThrow(/unreachable: Command timed out/);
    } finally {
      redis.resume();
    }
    expect((await replica.limiter.admit(request, true)).decision.allowed).toBe(true);
    expect(logger.lines).toEqual([expect.stringMatching(/^warn: .*Command timed out/), expect.stringMatching(/^info: .*is back/)]);
  });

  it('keeps the data of a Redis that stays up while one replica stops, for a replica started later', async () => {
    const redis = await server();
    const prefix = uniquePrefix();
    const first = await openReplica(redis, prefix);
    const pet = await first.store.create({ name: 'Survivor', categoryId: 2 });
    await first.close();
    const later = await openReplica(redis, prefix, { clock: new ManualClock(testStart) });
    open.push(later);
    expect(later.seeded).toBe(false);
    expect(await later.store.get(pet.id)).toEqual(pet);
  });
});

describe('what a client is told while Redis is away', () => {
  /** A whole mock on `redis`, logging at debug into `lines`, closed after the test. */
  async function mockOn(redis: TestRedisServer, lines: string[], commandTimeoutMs?: number) {
    const app = await buildMock({
      spec: await testSpec(),
      pets: testFixtures,
      keys: testKeys,
      clock: new ManualClock(testStart),
      redis: { url: redis.url, prefix: uniquePrefix(), ...(commandTimeoutMs ? { commandTimeoutMs } : {}) },
      logLevel: 'debug',
      logStream: { write: (text: string) => lines.push(text) },
    });
    onTestFinished(() => app.close());
    const call = (token: string | null, url = '/v1/pets?limit=1') => app.inject({ url, headers: token === null ? {} : { authorization: `Bearer ${token}` } });
    return { app, call, client: (app.mock as RedisState).connection.client };
  }

  it('answers 503 with a message for people, Retry-After and the limit it still knows, and logs the Redis client\'s reason instead', async () => {
    const redis = await server();
    const lines: string[] = [];
    const { app, call, client } = await mockOn(redis, lines);
    // Looked up before the outage: this replica remembers demo-pro's plan, and that not-a-key is refused.
    expect((await call('demo-pro')).statusCode).toBe(200);
    expect((await call('not-a-key')).statusCode).toBe(401);
    const lost = once(client, 'close');
    await redis.stop();
    await lost;

    const human = 'The mock\'s shared store (Redis) is unreachable; the request was not applied. Retry after 1 s; if it persists, check the Redis server the mock is configured with.';
    const answers = { keyed: await call('demo-pro'), anonymous: await call(null), refusedKey: await call('not-a-key'), unseenKey: await call('never-seen-key'), outsideApi: await call('demo-pro', '/no-such-path'), control: await app.inject({ url: '/__mock/requests' }) };
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.statusCode, name).toBe(503);
      expect(answer.json(), name).toEqual({ code: 'STORE_UNAVAILABLE', status: 503, message: human });
      expect(answer.body, name).not.toMatch(/enableOfflineQueue|Stream|redis:\/\//);
      expect(answer.headers['retry-after'], name).toBe('1');
      // The counts live in Redis: a 503 never guesses them.
      expect(answer.headers, name).not.toHaveProperty('x-ratelimit-remaining');
      expect(answer.headers, name).not.toHaveProperty('x-ratelimit-reset');
    }
    // A URL that cannot be decoded is a bad request whether or not the store is there: 400, with
    // what can still be said of the window.
    const undecodable = await call('demo-pro', '/v1/pets/%zz');
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.json()).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(undecodable.headers['x-ratelimit-limit']).toBe('300');
    expect(undecodable.headers).not.toHaveProperty('x-ratelimit-remaining');
    // The limit, where this replica knows whose quota the request spends: the key's plan, or the
    // Free plan of the address's bucket (no key, or a key it saw refused); none for a token it never saw.
    expect(answers.keyed.headers['x-ratelimit-limit']).toBe('300');
    expect(answers.outsideApi.headers['x-ratelimit-limit']).toBe('300');
    expect(answers.anonymous.headers['x-ratelimit-limit']).toBe('60');
    expect(answers.refusedKey.headers['x-ratelimit-limit']).toBe('60');
    expect(answers.unseenKey.headers).not.toHaveProperty('x-ratelimit-limit');
    expect(answers.control.headers).not.toHaveProperty('x-ratelimit-limit');

    // The server log has the internal reason: once as a warning for the outage, and per request at debug.
    expect(lines.filter((line) => /"level":40.*is unreachable/.test(line))).toHaveLength(1);
    const debug = lines.filter((line) => line.includes('answered 503 STORE_UNAVAILABLE'));
    expect(debug).toHaveLength(6);
    for (const line of debug) expect(line).toMatch(new RegExp(`"level":20.*The mock's shared state \\(redis://127\\.0\\.0\\.1:${redis.port}\\) is unreachable: `));
  });

  it('says a request may have been applied when Redis stopped answering it, rather than refusing it', async () => {
    const redis = await server();
    const { call } = await mockOn(redis, [], 1_500);
    expect((await call('demo-pro')).statusCode).toBe(200);
    redis.pause();
    try {
      const answer = await call('demo-pro');
      expect(answer.statusCode).toBe(503);
      expect(answer.json().message).toBe('The mock\'s shared store (Redis) stopped answering while the request was in progress; it may or may not have been applied. Retry after 1 s (read back what it would have changed before repeating a create); if it persists, check the Redis server the mock is configured with.');
      expect(answer.headers['x-ratelimit-limit']).toBe('300');
    } finally {
      redis.resume();
    }
  });
});

describe('connecting', () => {
  it('fails the start with a message naming the Redis and what to do when nothing listens there', async () => {
    const redis = await server();
    await redis.stop();
    await expect(openReplica(redis, uniquePrefix())).rejects.toThrow(new RegExp(`Cannot connect to Redis at redis://127\\.0\\.0\\.1:${redis.port}.*ECONNREFUSED.*Start Redis or fix --redis`));
  });

  it('logs in with the password in the URL, uses its database index, and never shows the password', async () => {
    const redis = await server(['--requirepass', 's3cret']);
    const url = `redis://:s3cret@127.0.0.1:${redis.port}/3`;
    const replica = await openReplica(redis, uniquePrefix(), { url });
    open.push(replica);
    expect(replica.connection.where).toBe(`redis://:***@127.0.0.1:${redis.port}/3`);
    const other = await connectRedis({ url: `redis://:s3cret@127.0.0.1:${redis.port}/0` });
    try {
      expect(await other.client.dbsize()).toBe(0);
      await other.client.select(3);
      expect(await other.client.exists(replica.connection.key('pets'))).toBe(1);
    } finally {
      await other.close();
    }
    await expect(connectRedis({ url: `redis://:wrong@127.0.0.1:${redis.port}` })).rejects.toThrow(/Cannot connect to Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+.*WRONGPASS/);
  });

  it('speaks TLS to a rediss:// URL, trusting the CA it is given and no other', async () => {
    const redis = await startRedisServer([], { tls: true });
    servers.push(redis);
    expect(redis.url).toMatch(/^rediss:/);
    const replica = await openReplica(redis, uniquePrefix(), { tls: { ca: redis.ca! } });
    open.push(replica);
    expect(await replica.store.get(1)).toEqual(testFixtures[0]);
    await expect(openReplica(redis, uniquePrefix())).rejects.toThrow(/Cannot connect to Redis at rediss:\/\/127\.0\.0\.1:\d+.*certificate/);
  });

  it('refuses a URL it cannot use, saying what to give instead', async () => {
    await expect(connectRedis({ url: 'http://127.0.0.1:6379' })).rejects.toThrow('has the scheme "http:". Use redis:// (or rediss:// for TLS).');
    await expect(connectRedis({ url: 'redis://127.0.0.1:6379/cache' })).rejects.toThrow(/path "\/cache", which is not a database index/);
    await expect(connectRedis({ url: 'redis://127.0.0.1:6379?enableOfflineQueue=true' })).rejects.toThrow(/has a query string/);
    await expect(connectRedis({ url: 'localhost:6379' })).rejects.toThrow(/Use redis:\/\//);
    await expect(connectRedis({ url: 'not a url' })).rejects.toThrow(/is not a URL/);
  });

  it('redacts the password of any Redis URL', () => {
    expect(redactRedisUrl('rediss://user:pw@cache.example:6380/1')).toBe('rediss://user:***@cache.example:6380/1');
    expect(redactRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactRedisUrl('redis://:p@ss@cache:6379/0')).toBe('redis://:***@cache:6379/0');
    expect(redactRedisUrl('redis://user@cache:6379')).toBe('redis://user@cache:6379');
  });
});
