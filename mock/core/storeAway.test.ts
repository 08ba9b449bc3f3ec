// A shared store that stops answering is asked once per request: the 503 that follows does not
// wait on it again for its rate-limit headers (apiPipeline's storeAway).
import { describe, expect, it } from 'vitest';
import { generatePets } from '../../fixtures/generatePets.ts';
import { defaultKeysFile } from '../../fixtures/loadFixtures.ts';
import { ManualClock } from '../state/clock.ts';
import { loadKeysFile } from '../state/loadKeysFile.ts';
import { MockState } from '../state/mockState.ts';
import { StoreUnavailableError } from '../errors/storeUnavailableError.ts';
import { testSpec } from '../testing.ts';
import { createMockCore } from './createMockCore.ts';

describe('a store that stops answering', () => {
  it('is asked once when the fault rules it changed cannot be read, and the 503 says so', async () => {
    const state = MockState.create({ fixtures: generatePets({ count: 5 }), keys: await loadKeysFile(defaultKeysFile), clock: new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 30)) });
    let asked = 0;
    const away = () => new StoreUnavailableError('redis://127.0.0.1:6379', 'Command timed out', { mayHaveRun: false });
    // As a replica that saw the rules change on another, then lost Redis: reading them fails, and so would every admission.
    Object.assign(state.faults, { refresh: () => (asked++, Promise.reject(away())) });
    Object.assign(state, { admit: () => (asked++, Promise.reject(away())) });
    const core = createMockCore({ spec: await testSpec(), state });
    const answer = await core.answer({ method: 'GET', url: '/v1/pets?limit=2', headers: { authorization: 'Bearer demo-pro' } });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body!)).toMatchObject({ code: 'STORE_UNAVAILABLE', status: 503 });
    expect(answer.headers['retry-after']).toBeDefined();
    expect(asked).toBe(1);
  });
});
