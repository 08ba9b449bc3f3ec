import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMock } from '../buildMock.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import type { RedisState } from './openRedisState.ts';
import { monitorRedis, type RedisMonitor } from './testing/monitorRedis.ts';
import { openReplica, startRedisServer, testFixtures, testKeys, testStart, uniquePrefix, type TestRedisServer } from './testing/redisServer.ts';

// What each request costs in Redis, counted with MONITOR: the commands a replica sends (those a
// script runs inside Redis are marked "lua" and are not round trips). docs/scaling.md quotes these.

let server: TestRedisServer;
let monitor: RedisMonitor;
let replica: RedisState;
let seen: string[][] = [];

beforeAll(async () => {
  server = await startRedisServer();
  replica = await openReplica(server, uniquePrefix());
  monitor = await monitorRedis(server.url);
  monitor.onCommand(({ args, source }) => {
    if (source !== 'lua') seen.push(args);
  });
});
afterAll(async () => {
  monitor?.close();
  await replica?.close();
  await server?.stop();
});

/** The commands `step` sent, in order (a script call shows as 'script'). */
async function commandsOf(step: () => unknown): Promise<string[]> {
  await monitor.caughtUp(replica.connection.client);
  seen = [];
  await step();
  await monitor.caughtUp(replica.connection.client);
  // ioredis sends a script's text (EVAL) the first time on a connection, its SHA (EVALSHA) after.
  return seen.filter((args) => !/^echo$/i.test(args[0]!)).map((args) => (/^eval(sha)?$/i.test(args[0]!) ? 'script' : args[0]!.toLowerCase()));
}

describe('Redis round trips per request', () => {
  const request = { token: 'demo-free', ip: '10.0.0.1' };

  it('admits a request (key lookup, clock and both rate windows) in one script call', async () => {
    expect(await commandsOf(() => replica.admit(request, true))).toEqual(['script']);
    expect(await commandsOf(() => replica.admit(request, false))).toEqual(['script']);
  });

  it('admits a request and runs its create, read or page in the same script call', async () => {
    const created = await replica.admit(request, true, { kind: 'create', input: { name: 'x', categoryId: 1 } });
    expect(created.step).toEqual({ kind: 'create', pet: { id: 7, name: 'x', categoryId: 1 } });
    expect(await commandsOf(() => replica.admit(request, true, { kind: 'get', id: 7 }))).toEqual(['script']);
    expect(await commandsOf(() => replica.admit(request, true, { kind: 'page', limit: 20, status: 'available' }))).toEqual(['script']);
    expect(await commandsOf(() => replica.admit(request, true, { kind: 'create', input: { name: 'y', categoryId: 1 } }))).toEqual(['script']);
  });

  it('runs no operation for a request it refuses, or that presents no valid key', async () => {
    const unknown = await replica.admit({ token: 'no-such-key', ip: '10.0.0.2' }, true, { kind: 'create', input: { name: 'z', categoryId: 1 } });
    expect(unknown.step).toBeUndefined();
    expect(unknown.key).toBeUndefined();
    expect(await replica.store.get(9)).toBeUndefined();
  });

  it('records a request in the shared log, with its client, run id and replica, in one script call the answer does not wait for', async () => {
    expect(await commandsOf(async () => {
      replica.log.add({ at: testStart, method: 'GET', url: '/v1/pets', status: 200, key: null, ms: 1, client: '10.0.0.7', runId: 'run-1' });
      await replica.log.flush();
    })).toEqual(['script']);
  });
});

describe('a whole API request on Redis', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildMock({ spec: await testSpec(), pets: testFixtures, keys: testKeys, clock: new ManualClock(testStart), redis: { url: server.url, prefix: uniquePrefix() } });
    // The first request of a replica reads the fault rules once: not what is measured here.
    await app.inject({ url: '/v1/pets', headers: { authorization: 'Bearer demo-enterprise' } });
    await (app.mock as RedisState).log.flush();
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The commands a request sends: the ones its answer waited for, then the request log's. */
  const costOf = (options: InjectOptions) => commandsOf(async () => {
    const response = await app.inject({ ...options, headers: { authorization: 'Bearer demo-enterprise', ...options.headers } });
    expect(response.statusCode).toBeLessThan(500);
    await (app.mock as RedisState).log.flush();
  });

  it.each<[string, InjectOptions]>([
    ['a page of pets', { url: '/v1/pets?limit=20' }],
    ['the same page again, from the replica\'s copy', { url: '/v1/pets?limit=20' }],
    ['a pet by id', { url: '/v1/pets/2' }],
    ['a page with a Prefer that forces no answer (a delay)', { url: '/v1/pets?limit=3', headers: { prefer: 'delay=0, return=minimal' } }],
    ['a pet that does not exist', { url: '/v1/pets/999' }],
    ['a create', { method: 'POST', url: '/v1/pets', payload: { name: 'Rex', categoryId: 2 } }],
    ['a create with an invalid body', { method: 'POST', url: '/v1/pets', payload: { name: 'Rex', categoryId: '2' } }],
    ['a request without a key', { url: '/v1/pets', headers: { authorization: '' } }],
    ['a request with an unknown key', { method: 'POST', url: '/v1/pets', payload: { name: 'Rex', categoryId: 2 }, headers: { authorization: 'Bearer nobody' } }],
  ])('answers %s after one round trip, and logs it with one more', async (_name, options) => {
    expect(await costOf(options)).toEqual(['script', 'script']);
  });

  it('admits a create from a key this replica has not seen before reading its body, then creates: one round trip more, once', async () => {
    const create = { method: 'POST' as const, url: '/v1/pets', payload: { name: 'Rex', categoryId: 2 }, headers: { authorization: 'Bearer demo-pro' } };
    expect(await costOf(create)).toEqual(['script', 'script', 'script']);
    expect(await costOf(create)).toEqual(['script', 'script']);
  });
});
