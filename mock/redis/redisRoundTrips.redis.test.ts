import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planLimits } from '../state/plans.ts';
import type { RedisState } from './openRedisState.ts';
import { openReplica, startRedisServer, testStart, uniquePrefix, type TestRedisServer } from './testing/redisServer.ts';

// What each request costs in Redis, counted with MONITOR: the commands a replica sends (those a
// script runs inside Redis are marked "lua" and are not round trips). docs/scaling.md quotes these.

let server: TestRedisServer;
let client: Redis;
let monitor: Redis;
let replica: RedisState;
let seen: string[][] = [];

beforeAll(async () => {
  server = await startRedisServer();
  replica = await openReplica(server, uniquePrefix());
  // monitor() opens a connection of its own: both are closed after the file, or the first would
  // go on reconnecting through the files that run after it in the same worker.
  client = new Redis(server.url);
  monitor = await client.monitor();
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (!source.includes('lua')) seen.push(args);
  });
});
afterAll(async () => {
  monitor?.disconnect();
  client?.disconnect();
  await replica?.close();
  await server?.stop();
});

/** The commands `step` sent, in order (a script call shows as 'script'); ends on a marker so no event is still on its way. */
async function commandsOf(step: () => Promise<unknown>): Promise<string[]> {
  seen = [];
  await step();
  const marker = `marker-${Math.random()}`;
  const markerSeen = new Promise<void>((resolve) => monitor.on('monitor', (_t: string, args: string[]) => args[1] === marker && resolve()));
  await replica.connection.client.echo(marker);
  await markerSeen;
  // ioredis sends a script's text (EVAL) the first time on a connection, its SHA (EVALSHA) after.
  return seen.filter((args) => args[1] !== marker).map((args) => (/^eval(sha)?$/i.test(args[0]!) ? 'script' : args[0]!.toLowerCase()));
}

describe('Redis round trips per request', () => {
  const request = { token: 'demo-free', anonymousBucketId: 'ip:1', anonymousLimits: planLimits.free };

  it('admits a request (key lookup, clock and both rate windows) in one script call', async () => {
    expect(await commandsOf(() => replica.limiter.admit(request, true))).toEqual(['script']);
  });

  it('creates a pet, reads one and serves a list page in one command each', async () => {
    expect(await commandsOf(() => replica.store.create({ name: 'x', categoryId: 1 }))).toEqual(['script']);
    expect(await commandsOf(() => replica.store.get(1))).toEqual(['hget']);
    expect(await commandsOf(() => replica.store.listJson({ limit: 20, status: 'available' }))).toEqual(['script']);
  });

  it('records a request in the shared log, with its client, run id and replica, in one script call the answer does not wait for', async () => {
    expect(await commandsOf(async () => {
      replica.log.add({ at: testStart, method: 'GET', url: '/v1/pets', status: 200, key: null, ms: 1, client: '10.0.0.7', runId: 'run-1' });
      await replica.log.flush();
    })).toEqual(['script']);
  });
});
