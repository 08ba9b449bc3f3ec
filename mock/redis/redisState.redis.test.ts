import { afterAll, beforeAll } from 'vitest';
import { openReplica, startRedisServer, uniquePrefix, type TestRedisServer } from './testing/redisServer.ts';
import { statePartsContract } from './testing/statePartsContract.ts';

let server: TestRedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

statePartsContract('the Redis-backed state (RedisState)', {
  open: (clock, options) => openReplica(server, uniquePrefix(), { clock, ban: { threshold: 3, seconds: 120 }, requestLogSize: 5, ...options }),
});
