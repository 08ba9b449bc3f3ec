// The mock's public entry point: `import { buildMock } from 'pet-adoption-toolkit/mock'`.
export { buildMock, API_PREFIX, CONTROL_PREFIX, MockState, type MockOptions, type RedisMockOptions } from './buildMock.ts';
export { openMock, type Mock, type MockReload } from './core/openMock.ts';
export { petsMockPlugin, type PetsMockPluginOptions } from './adapters/fastify.ts';
// Types only: the Redis client loads when `redis` is given, never for an in-memory mock or MSW.
export type { RedisState, RedisStateOptions } from './redis/openRedisState.ts';
export { StoreUnavailableError } from './errors/storeUnavailableError.ts';
export { startMockServer, type MockServer, type ServerOptions } from './server/startMockServer.ts';
export { ManualClock, type Clock } from './state/clock.ts';
export { errorCatalogue, type ErrorCode } from './errors/errorCatalogue.ts';
export type { ApiKeyConfig } from './state/keyRing.ts';
export type { Latency } from './pipeline/latency.ts';
export type { Awaitable } from './state/awaitable.ts';
export type { StateParts, PetRepository, KeyDirectory, RateLimits, ControlledClock, RequestJournal, FaultRules } from './state/stateParts.ts';
export type { FaultRule, FaultView } from './state/faultRule.ts';
export { main } from './cli.ts';
