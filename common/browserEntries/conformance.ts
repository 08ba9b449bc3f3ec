// `pet-adoption-toolkit/conformance` for a browser bundler: see nodeOnlyEntry.
import { nodeOnlyEntry } from './nodeOnlyEntry.ts';

export const { runConformance, ConformanceOptionsError, checkIds, TransportError, httpTransport, startProxy, proxyReportPath } = nodeOnlyEntry<typeof import('../../conformance/index.ts')>(
  'pet-adoption-toolkit/conformance runs the conformance suite in Node, not in a browser: run `npx pets-conformance` against the deployment instead.',
);
