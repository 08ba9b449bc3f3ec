import { createMemoryStores } from './createMemoryStores.ts';
import { stateStoresContract } from './testing/stateStoresContract.ts';
import { testFixtures, testKeys } from './testing/testState.ts';

stateStoresContract('the in-memory stores', {
  open: async (clock) => createMemoryStores({ fixtures: testFixtures, keys: testKeys, clock, ban: { threshold: 3, seconds: 120 }, requestLogSize: 5, maxAnonymousBuckets: 100 }),
});
