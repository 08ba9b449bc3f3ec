// The mock in a browser page: the framework-free core over an in-memory state, with the contract
// and the fixtures bundled (no file system), for MSW's setupWorker. No Node module is loaded.
import { bundledSpec } from '../../spec/bundledSpec.ts';
import { fixtureKeys, fixturePets } from '../../fixtures/generated/fixtureData.ts';
import { createMockCore } from '../core/createMockCore.ts';
import { MockState } from '../state/mockState.ts';
import { profiledCore, profiledOptions } from '../profile/profiledCore.ts';
import type { StoredPet as Pet } from '../state/petJson.ts';
import type { MockOptions } from '../core/openMock.ts';
import { MockAddress } from './mockAddress.ts';
import { hostOnCore } from './hostOnCore.ts';
import type { PetsMockHost } from './petsMockHost.ts';

/**
 * The options of `createPetsHandlers` in a browser: buildMock's that need no Node (no Redis, no
 * Prism, no log files), and where the page calls the mock.
 */
export interface BrowserPetsMockOptions extends Pick<MockOptions, 'pets' | 'keys' | 'clock' | 'corsOrigins' | 'bodyLimit' | 'ban' | 'keylessLimits' | 'defaultStatus' | 'latency' | 'strict' | 'ratelimitHeaders' | 'requestLogSize' | 'controlToken' | 'profile'> {
  /** Where the page calls the API: any origin and path, or a path of the page's own origin (`/v1`). Default `http://127.0.0.1:4010/v1`. */
  baseUrl?: string;
  /** Generate the starting pets from this seed instead of the fixtures (as `npx pets-mock --seed`). */
  seed?: number;
  /** Generate this many starting pets (as `npx pets-mock --pets`). */
  count?: number;
  /** Answer the control API at `/__mock` beside the base URL too. The handle works either way. Default: true. */
  control?: boolean;
}

export async function createBrowserPetsMock(given: BrowserPetsMockOptions = {}): Promise<PetsMockHost> {
  // A profile's choices as openMock makes them; it is not checked here (its checker reads files): give one `loadProfile` or `checkProfile` read.
  const options = profiledOptions(given, given.profile);
  const { baseUrl, seed, count, control = true } = options;
  const address = new MockAddress(baseUrl);
  const spec = bundledSpec();
  const pets = options.pets ?? (seed !== undefined || count !== undefined ? await generate(seed, count) : fixturePets);
  // MockState.create refuses the options every backend refuses (state/checkStateOptions.ts).
  const state = MockState.create({ fixtures: pets, keys: options.keys ?? fixtureKeys, clock: options.clock, ban: options.ban, keylessLimits: options.keylessLimits, requestLogSize: options.requestLogSize });
  const core = profiledCore(options.profile, state, createMockCore({
    spec,
    state,
    corsOrigins: options.corsOrigins,
    bodyLimit: options.bodyLimit,
    defaultStatus: options.defaultStatus,
    strict: options.strict,
    keylessUnlisted: options.keylessUnlisted,
    preflight: options.preflight,
    ratelimitHeaders: options.ratelimitHeaders,
    latency: options.latency,
    controlToken: options.controlToken,
  }));
  // Answers that stall rules hold go out when the mock closes, rather than never.
  return hostOnCore(core, { address, control, controlToken: options.controlToken, close: async () => state.faults.stalls.close() });
}

async function generate(seed: number | undefined, count: number | undefined): Promise<Pet[]> {
  // Faker is loaded only when pets are generated: the bundled fixtures need none of it.
  const { generatePets } = await import('../../fixtures/generatePets.ts');
  return generatePets({ ...(seed !== undefined ? { seed } : {}), ...(count !== undefined ? { count } : {}) });
}
