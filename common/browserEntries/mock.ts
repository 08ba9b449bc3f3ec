// `pet-adoption-toolkit/mock` for a browser bundler: see nodeOnlyEntry.
import { nodeOnlyEntry } from './nodeOnlyEntry.ts';

export const { buildMock, openMock, petsMockPlugin, API_PREFIX, CONTROL_PREFIX, MockState, StoreUnavailableError, startMockServer, ManualClock, errorCatalogue, main } = nodeOnlyEntry<typeof import('../../mock/index.ts')>(
  'pet-adoption-toolkit/mock builds the mock server in Node, not in a browser: in a Vite dev server use pet-adoption-toolkit/vite, or run `npx pets-mock` beside the page.',
);
