// `pet-adoption-toolkit/msw` for a browser bundler: see nodeOnlyEntry.
import { nodeOnlyEntry } from './nodeOnlyEntry.ts';

export const { createPetsHandlers, MockControlError } = nodeOnlyEntry<typeof import('../../mock/adapters/msw.ts')>(
  'pet-adoption-toolkit/msw runs in Node only (Vitest, or Jest with jest-fixed-jsdom), not in a browser: in a Vite dev server use pet-adoption-toolkit/vite, or run `npx pets-mock` beside the page.',
);
