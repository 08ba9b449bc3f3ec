// The mock of the in-process adapters in Node (MSW's setupServer, Playwright, the Vite plugin):
// openMock's, answering plain requests (hostOnCore.ts), with no server, socket or framework.
import { openMock, type MockOptions } from '../core/openMock.ts';
import { loadSpec } from '../../spec/loadSpec.ts';
import { MockAddress } from './mockAddress.ts';
import { hostOnCore } from './hostOnCore.ts';
import type { PetsMockHost } from './petsMockHost.ts';

export type { PlainRequest, PlainResponse } from './petsMockHost.ts';

export interface PetsMockOptions extends Omit<MockOptions, 'startState' | 'logLevel'> {
  /** Where the frontend calls the API: any origin and path. Default `http://127.0.0.1:4010/v1`. */
  baseUrl?: string;
  /** Generate the starting pets from this seed (as `npm start -- --seed`) instead of the fixtures file. */
  seed?: number;
  /** Generate this many starting pets (as `npm start -- --pets`). */
  count?: number;
  /**
   * Answer the control API at `/__mock` beside the base URL too (as the server does), for pages that
   * reset the mock over HTTP. The handle works either way. Default: true.
   */
  control?: boolean;
  /**
   * Require `Authorization: Bearer <controlToken>` on the control API, as `--control-token` does
   * for the server: a page's own control requests must send it. The handle sends it itself.
   */
  controlToken?: string | undefined;
}

/**
 * One mock, opened as the server opens it (its state, Redis included, and Prism), answering plain
 * requests in-process: no socket and no timer on the way (hostOnCore.ts). MSW in Node, Playwright
 * and the Vite plugin sit on this, as MSW in the browser sits on the same core (browserPetsMock.ts).
 */
export async function openInProcessMock(options: PetsMockOptions = {}): Promise<PetsMockHost> {
  const { baseUrl, seed, count, control = true, ...mockOptions } = options;
  const address = new MockAddress(baseUrl);
  const pets = mockOptions.pets ?? (seed !== undefined || count !== undefined ? await generate(seed, count) : undefined);
  // Dereferenced only: the package's own spec is validated by its tests, and validation costs ten times more.
  const spec = mockOptions.spec ?? (await loadSpec(undefined, { validate: false }));
  const mock = await openMock({
    ...mockOptions,
    spec,
    ...(pets ? { pets } : {}),
    // The handle drives the control API, so it is always built; `control` only decides whether a
    // page's own requests reach it.
    control: true,
    logLevel: false,
  });
  return hostOnCore(mock, { address, control, controlToken: mockOptions.controlToken, close: () => mock.close() });
}

async function generate(seed: number | undefined, count: number | undefined) {
  // Faker is loaded only when pets are generated: the fixtures file needs none of it.
  const { generatePets } = await import('../../fixtures/generatePets.ts');
  return generatePets({ ...(seed !== undefined ? { seed } : {}), ...(count !== undefined ? { count } : {}) });
}
