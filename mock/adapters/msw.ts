// `import { createPetsHandlers } from 'pet-adoption-toolkit/msw'`: the mock as MSW request handlers.
import type { HttpHandler } from 'msw';
import { openInProcessMock, type PetsMockOptions } from './inProcessMock.ts';
import type { PetsMock } from './petsMock.ts';
import { mswHandlers } from './mswHandlers.ts';

export type { PetsMockOptions } from './inProcessMock.ts';
export type { PetsMock } from './petsMock.ts';
export { MockControlError, type PetsMockControl, type LoggedRequest, type RequestFilter, type ClockState, type KeySettings, type FaultRule, type Fault, type ClientReport, type ClientFinding } from './petsMockControl.ts';

export interface PetsHandlers {
  /** Handlers for every operation of the spec under `baseUrl`, for any other path under it, and for the control API beside it. */
  handlers: HttpHandler[];
  /** The control handle of this mock: its own state, shared by nothing else. */
  mock: PetsMock;
}

/**
 * A full mock of the Pet Adoption API, in-process, for `setupServer(...handlers)` (msw/node) in
 * Vitest or Jest: the answers of `npm start` (auth, per-plan rate limits, validation from the spec,
 * `Prefer`, deprecation headers, latency) with no port and no process. Each call builds its own
 * mock, so test files never share state.
 */
export async function createPetsHandlers(options: PetsMockOptions = {}): Promise<PetsHandlers> {
  const core = await openInProcessMock(options);
  return { handlers: mswHandlers(core, { control: options.control !== false }), mock: { ...core.control, baseUrl: core.address.baseUrl, close: () => core.close() } };
}
