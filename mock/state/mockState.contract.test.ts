import { statePartsContract } from '../redis/testing/statePartsContract.ts';
import { testFixtures, testKeys } from '../redis/testing/testState.ts';
import { MockState } from './mockState.ts';

statePartsContract('the in-memory state (MockState)', {
  open: async (clock, options) => MockState.create({ fixtures: testFixtures, keys: testKeys, clock, ban: { threshold: 3, seconds: 120 }, requestLogSize: 5, maxAnonymousBuckets: 100, ...options }),
});
