// `pet-adoption-toolkit/playwright` for a browser bundler: see nodeOnlyEntry.
import { nodeOnlyEntry } from './nodeOnlyEntry.ts';

export const { routePetsMock, MockControlError } = nodeOnlyEntry<typeof import('../../mock/adapters/playwright.ts')>(
  'pet-adoption-toolkit/playwright runs in the Node process that drives Playwright, not in a browser page: call routePetsMock from the test file, and in a Vite dev server use pet-adoption-toolkit/vite.',
);
