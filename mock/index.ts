// The mock's public entry point: `import { buildMock } from 'pet-adoption-toolkit/mock'`.
export { buildMock, API_PREFIX, CONTROL_PREFIX, type MockOptions, type MockState } from './app.ts';
export { startMockServer, type MockServer, type ServerOptions } from './server.ts';
export { ManualClock, type Clock } from './clock.ts';
export { errorCatalogue, type ErrorCode } from './errors.ts';
export type { ApiKeyConfig } from './keyRing.ts';
export type { Latency } from './plugins/latencyPlugin.ts';
