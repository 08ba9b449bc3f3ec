// `import { createPetsHandlers } from 'pet-adoption-toolkit/msw'` in a browser bundle: the mock as
// MSW handlers for `setupWorker` (msw/browser), on the framework-free core.
import type { HttpHandler } from 'msw';
import { createBrowserPetsMock, type BrowserPetsMockOptions } from './browserPetsMock.ts';
import { mswHandlers } from './mswHandlers.ts';
import type { PetsMock } from './petsMock.ts';

export type { BrowserPetsMockOptions as PetsMockOptions } from './browserPetsMock.ts';
export type { PetsMock } from './petsMock.ts';
export { MockControlError, type PetsMockControl, type LoggedRequest, type RequestFilter, type ClockState, type KeySettings, type FaultRule, type Fault, type ClientReport, type ClientFinding } from './petsMockControl.ts';

export interface PetsHandlers {
  /** Handlers for every operation of the spec under `baseUrl`, for any other path under it, and for the control API beside it. */
  handlers: HttpHandler[];
  /** The control handle of this mock: its own state, shared by nothing else. */
  mock: PetsMock;
}

/**
 * A full mock of the Pet Adoption API in the page, for `setupWorker(...handlers)`: the answers of
 * `npx pets-mock` (auth, per-plan rate limits, validation from the spec, `Prefer`, fault rules,
 * deprecation headers), with the same control handle as in Node. A relative `baseUrl` (`/v1`) is
 * read against the page's address.
 */
export async function createPetsHandlers(options: BrowserPetsMockOptions = {}): Promise<PetsHandlers> {
  const host = await createBrowserPetsMock(options);
  return { handlers: mswHandlers(host, { control: options.control !== false }), mock: { ...host.control, baseUrl: host.address.baseUrl, close: () => host.close() } };
}
