// `import { createPetsHandlers } from 'pet-adoption-toolkit/msw'`: the mock as MSW request handlers.
import { http, HttpResponse, type HttpHandler, type HttpResponseResolver } from 'msw';
import { createPetsMockCore, type PetsMockOptions } from './petsMockCore.ts';
import type { PetsMock } from './petsMock.ts';
import { toFastifyPath } from '../api/routeSchema.ts';
import { InProcessResetError } from './dispatchInProcess.ts';

export type { PetsMockOptions } from './petsMockCore.ts';
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
  const core = await createPetsMockCore(options);
  const { address } = core;

  const resolver: HttpResponseResolver = async ({ request }) => {
    const arrivedAfter = core.arrival();
    const method = request.method.toUpperCase();
    const body = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    let answer;
    try {
      answer = await core.handle({ method, url: request.url, headers, body, arrivedAfter });
    } catch (error) {
      // A fault rule reset the connection: the page's fetch fails as it would (TypeError: Failed to fetch).
      if (error instanceof InProcessResetError) return HttpResponse.error();
      throw error;
    }
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };

  // One handler per operation, so MSW's own listing (server.listHandlers(), onUnhandledRequest) names
  // them; then the rest of the API's paths (404 and 405 as the server answers them), then the control API.
  const handlers: HttpHandler[] = core.spec.operations.map((op) => http[op.method === 'trace' ? 'all' : op.method](`${address.baseUrl}${toFastifyPath(op.path)}`, resolver));
  handlers.push(http.all(address.baseUrl, resolver), http.all(`${address.baseUrl}/*`, resolver));
  if (options.control !== false) handlers.push(http.all(address.controlUrl, resolver), http.all(`${address.controlUrl}/*`, resolver));

  return { handlers, mock: { ...core.control, baseUrl: address.baseUrl, close: () => core.close() } };
}
