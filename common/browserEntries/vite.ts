// `pet-adoption-toolkit/vite` for a browser bundler: see nodeOnlyEntry.
import { nodeOnlyEntry } from './nodeOnlyEntry.ts';

const { default: petsMock } = nodeOnlyEntry<typeof import('../../mock/adapters/vite.ts')>(
  "pet-adoption-toolkit/vite is a Vite plugin, which runs in Vite's Node process, not in a browser: import it in vite.config.ts only, and have the page call the API it serves (such as /api/v1).",
);
export default petsMock;
