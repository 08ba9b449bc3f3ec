// A profile's keyless limit on the shared store: the Lua admission counts an address at the limits
// the replica hands it (anonymousBucket.ts), as the in-memory limiter does.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildMock } from '../buildMock.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import { startRedisServer, testFixtures, testKeys, testStart, uniquePrefix, type TestRedisServer } from '../redis/testing/redisServer.ts';

let server: TestRedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('a mock on Redis given a profile', () => {
  it('counts requests without a valid key at the profile\'s keyless limits, per minute then per day, across its replicas', async () => {
    const clock = new ManualClock(testStart);
    const prefix = uniquePrefix();
    const spec = await testSpec();
    const replica = () => buildMock({ spec, pets: testFixtures, keys: testKeys, clock, redis: { url: server.url, prefix }, profile: { keylessLimit: { perMinute: 2, perDay: 3 } } });
    const [a, b] = await Promise.all([replica(), replica()]);
    onTestFinished(() => Promise.all([a.close(), b.close()]).then(() => undefined));
    const keyless = (app: typeof a) => app.inject({ method: 'GET', url: '/v1/pets' });
    const first = await keyless(a);
    expect([first.statusCode, first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual([401, '2', '1']);
    expect((await keyless(b)).headers['x-ratelimit-remaining']).toBe('0');
    expect((await keyless(a)).statusCode).toBe(429);
    await a.mock.clock.advance(60);
    // One left of the day, two of the minute: the day binds.
    const dayBinds = await keyless(b);
    expect([dayBinds.statusCode, dayBinds.headers['x-ratelimit-limit'], dayBinds.headers['x-ratelimit-remaining']]).toEqual([401, '3', '0']);
    expect((await keyless(a)).statusCode).toBe(429);
    // A key is counted at its plan's limits still.
    expect((await a.inject({ method: 'GET', url: '/v1/pets', headers: { authorization: 'Bearer demo-pro' } })).headers['x-ratelimit-limit']).toBe('300');
  });
});
