import { describe, expect, it } from 'vitest';
import type { ClientObservation } from './clientObservation.ts';
import { deprecatedUse } from './deprecatedUse.ts';

const removal = Date.UTC(2030, 11, 5);
const getPet = { operationId: 'getPet', method: 'GET', path: '/pets/{petId}', removal, instead: 'GET /pets with the status filter' };
const seen = (client: string, at: number, operationId: ClientObservation['operationId'] = 'getPet', status = 200): ClientObservation =>
  ({ at, method: 'GET', url: operationId === 'getPet' ? '/v1/pets/1' : '/v1/pets', operationId, status, client: `key:${client}`, clientLabel: client, auth: 'bearer' });

describe('deprecatedUse', () => {
  it('is empty for clients that never call a deprecated operation', () => {
    expect(deprecatedUse([[seen('a', 0, 'listPets')]], [getPet], 0)).toEqual([]);
  });

  it('counts every request whatever its answer, from the first to the last answered', () => {
    const [use] = deprecatedUse([[seen('a', 2000, 'getPet', 401), seen('a', 1000, 'getPet', 404), seen('a', 3000, 'listPets')]], [getPet], 0);
    expect(use).toMatchObject({ client: 'a', requests: 2, first: new Date(1000).toISOString(), last: new Date(2000).toISOString() });
  });

  it('gives the whole days left rounded up, 0 from the removal on', () => {
    const days = (now: number) => deprecatedUse([[seen('a', 0)]], [getPet], now)[0]!.daysLeft;
    expect(days(removal - 1)).toBe(1);
    expect(days(removal - 86_400_000)).toBe(1);
    expect(days(removal - 86_400_001)).toBe(2);
    expect(days(removal)).toBe(0);
    expect(days(removal + 5 * 86_400_000)).toBe(0);
  });

  it('keeps one entry per client, in the order the clients are given', () => {
    expect(deprecatedUse([[seen('b', 5)], [seen('a', 1)]], [getPet], 0).map((u) => u.client)).toEqual(['b', 'a']);
  });
});
