// Fault rules on Redis (redisFaultRules.ts): whole apps built with `redis`, called in-process.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildMock } from '../buildMock.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import type { RedisState } from './openRedisState.ts';
import { monitorRedis } from './testing/monitorRedis.ts';
import { testFixtures, testKeys, testStart, uniquePrefix, useRedisServer } from './testing/redisServer.ts';

const redis = useRedisServer<{ close(): Promise<unknown> }>();

interface Replica {
  app: FastifyInstance;
  call(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<LightMyRequestResponse>;
}

/** One mock on the test Redis under `prefix`, closed after the test. */
async function replica(prefix: string): Promise<Replica> {
  const app = await buildMock({ spec: await testSpec(), pets: testFixtures, keys: testKeys, clock: new ManualClock(testStart), redis: { url: redis.server.url, prefix } });
  redis.open.push(app);
  return {
    app,
    call: (method, url, body) => app.inject({ method, url, headers: { authorization: 'Bearer demo-enterprise' }, ...(body === undefined ? {} : { payload: body as object }) }),
  };
}

async function twoReplicas(): Promise<[Replica, Replica]> {
  const prefix = uniquePrefix();
  return [await replica(prefix), await replica(prefix)];
}

const newPet = { name: 'Rex', categoryId: 1 };

describe('fault rules on Redis', () => {
  it('are shared by the replicas: a rule added through one takes requests to the other, its count spent across both', async () => {
    const [a, b] = await twoReplicas();
    expect((await a.call('POST', '/__mock/faults', { operationId: 'createPet', status: 503, times: 3 })).statusCode).toBe(201);
    const statuses = [];
    for (const r of [b, a, b, a]) statuses.push((await r.call('POST', '/v1/pets', newPet)).statusCode);
    expect(statuses).toEqual([503, 503, 503, 201]);
    expect((await b.call('GET', '/__mock/faults')).json().faults).toEqual([expect.objectContaining({ id: 'fault-1', fired: 3, left: 0 })]);
    expect((await a.call('GET', '/__mock/requests?status=503')).json().requests.map((r: { fault: string }) => r.fault)).toEqual(['fault-1', 'fault-1', 'fault-1']);
  });

  it('stop on every replica once removed through one, and are cleared by a reset through any', async () => {
    const [a, b] = await twoReplicas();
    await a.call('POST', '/__mock/faults', { status: 500 });
    expect((await b.call('GET', '/v1/pets')).statusCode).toBe(500);
    expect((await b.call('DELETE', '/__mock/faults/fault-1')).statusCode).toBe(204);
    expect((await a.call('GET', '/v1/pets')).statusCode).toBe(200);
    await b.call('POST', '/__mock/faults', { status: 502 });
    expect((await a.call('GET', '/v1/pets')).statusCode).toBe(502);
    await a.call('POST', '/__mock/reset');
    expect((await b.call('GET', '/v1/pets')).statusCode).toBe(200);
    expect((await b.call('GET', '/__mock/faults')).json().faults).toEqual([]);
    expect((await b.call('DELETE', '/__mock/faults/fault-2')).json().code).toBe('FAULT_NOT_FOUND');
  });

  it('draw one sequence whichever replica takes each request: the same requests fail as on one mock in memory', async () => {
    const [a, b] = await twoReplicas();
    const rule = { status: 500, probability: 0.3, seed: 11 };
    await a.call('POST', '/__mock/faults', rule);
    const shared: number[] = [];
    for (let i = 0; i < 30; i++) shared.push((await (i % 2 ? a : b).call('GET', '/v1/pets?limit=1')).statusCode);
    const memory = await buildMock({ spec: await testSpec(), pets: testFixtures, keys: testKeys, clock: new ManualClock(testStart) });
    redis.open.push(memory);
    await memory.inject({ method: 'POST', url: '/__mock/faults', payload: rule });
    const alone: number[] = [];
    for (let i = 0; i < 30; i++) alone.push((await memory.inject({ url: '/v1/pets?limit=1', headers: { authorization: 'Bearer demo-enterprise' } })).statusCode);
    expect(shared).toEqual(alone);
    expect(shared).toContain(500);
    expect(shared).toContain(200);
  });

  it('hold a stalled answer on the replica that took it until the clock, moved through it, passes its end', async () => {
    const [a, b] = await twoReplicas();
    await a.call('POST', '/__mock/faults', { operationId: 'getPet', action: 'stall', stallMs: 60_000, status: 504 });
    const held = b.call('GET', '/v1/pets/1');
    for (let turn = 0; turn < 100 && (await b.call('GET', '/__mock/faults')).json().faults[0].holding === 0; turn++);
    expect((await b.call('GET', '/__mock/faults')).json().faults[0]).toMatchObject({ holding: 1, fired: 1 });
    await b.call('POST', '/__mock/clock', { advanceSeconds: 60 });
    expect((await held).statusCode).toBe(504);
  });
});

describe('what fault rules cost a request on Redis', () => {
  it('is no round trip while no rule matches, one script call to draw and the operation on its own when one does, and one read of the rules after they change', async () => {
    const [a] = await twoReplicas();
    const state = a.app.mock as RedisState;
    const monitor = await monitorRedis(redis.server.url);
    let seen: string[][] = [];
    monitor.onCommand(({ args, source }) => {
      if (source !== 'lua') seen.push(args);
    });
    const caughtUp = () => monitor.caughtUp(state.connection.client);
    /** The commands one list request sent, the request log's included, sorted (a script call shows as 'script'). */
    const commandsOfList = async () => {
      await caughtUp();
      seen = [];
      await a.call('GET', '/v1/pets?limit=1');
      await state.log.flush();
      await caughtUp();
      return seen.filter((args) => args[0] !== 'echo').map((args) => (/^eval(sha)?$/i.test(args[0]!) ? 'script' : args[0]!.toLowerCase())).sort();
    };
    try {
      // The first list reads the page; the ones after find it cached (redisPetRepository.ts).
      await commandsOfList();
      const before = await commandsOfList();
      expect(before).toContain('script');
      await a.call('POST', '/__mock/faults', { operationId: 'createPet', status: 503 });
      expect(await commandsOfList()).toEqual([...before, 'script'].sort());
      expect(await commandsOfList()).toEqual(before);
      // A rule that matches the list but, at this probability, does not fire: the rules read once,
      // then one script call to draw, and the page read on its own after the admission.
      await a.call('POST', '/__mock/faults', { operationId: 'listPets', status: 500, probability: 0.000001 });
      expect(await commandsOfList()).toEqual([...before, 'script', 'script', 'script'].sort());
      expect(await commandsOfList()).toEqual([...before, 'script', 'script'].sort());
    } finally {
      monitor.close();
    }
  });
});
