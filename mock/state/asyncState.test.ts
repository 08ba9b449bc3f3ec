import { afterEach, describe, expect, it } from 'vitest';
import { generatePets } from '../../fixtures/generatePets.ts';
import { defaultKeysFile } from '../../fixtures/loadFixtures.ts';
import { buildMock } from '../buildMock.ts';
import { ManualClock } from './clock.ts';
import { loadKeysFile } from './loadKeysFile.ts';
import { MockState } from './mockState.ts';
import { testSpec } from '../testing.ts';
import type { FastifyInstance } from 'fastify';

/** Every method of `part` answers with a promise, as a Redis-backed part will (issue 13). `now()` stays a value. */
function promising<T extends object>(part: T): T {
  return new Proxy(part, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (name === 'now' || name === 'subscribe') return value.bind(target);
      return (...args: unknown[]) => new Promise((resolve, reject) => setImmediate(() => {
        try {
          resolve((value as (...a: unknown[]) => unknown).apply(target, args));
        } catch (error) {
          reject(error);
        }
      }));
    },
  });
}

let app: FastifyInstance;
afterEach(() => app.close());

describe('a state whose parts answer with promises', () => {
  it('serves the API and the control API unchanged', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 0));
    const memory = MockState.create({ fixtures: generatePets({ count: 10 }), keys: await loadKeysFile(defaultKeysFile), clock });
    const state = {
      store: promising(memory.store),
      keys: promising(memory.keys),
      limiter: promising(memory.limiter),
      anonymousLimiter: promising(memory.anonymousLimiter),
      clock: promising(memory.clock),
      log: promising(memory.log),
      faults: promising(memory.faults),
      reset: () => new Promise<void>((resolve) => setImmediate(() => resolve(memory.reset()))),
      admit: promising(memory).admit,
      runStep: promising(memory).runStep,
    };
    app = await buildMock({ spec: await testSpec(), state: state as unknown as MockState });
    const call = (url: string, key = 'demo-free', init: { method?: 'POST'; payload?: object } = {}) => app.inject({ url, headers: { authorization: `Bearer ${key}` }, ...init });

    const list = await call('/v1/pets?limit=3');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((p: { id: number }) => p.id)).toEqual([10, 9, 8]);
    expect(list.headers['x-ratelimit-remaining']).toBe('59');
    const created = await call('/v1/pets', 'demo-free', { method: 'POST', payload: { name: 'Async', categoryId: 1 } });
    expect(created.statusCode).toBe(201);
    expect((await call(`/v1/pets/${created.json().id}`)).json()).toEqual(created.json());
    expect((await call('/v1/pets?limit=20')).json()).toHaveLength(11);
    expect((await call('/v1/pets', 'nope')).statusCode).toBe(401);
    for (let i = 0; i < 56; i++) await call('/v1/pets?limit=1');
    const refused = await call('/v1/pets');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await app.inject({ url: '/nowhere' })).headers['x-ratelimit-limit']).toBe('60');

    expect((await app.inject({ url: '/__mock/requests?status=429' })).json().requests).toHaveLength(1);
    expect((await app.inject({ method: 'PUT', url: '/__mock/keys/team', payload: { plan: 'pro' } })).statusCode).toBe(201);
    expect((await call('/v1/pets', 'team')).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/__mock/clock', payload: { advanceSeconds: 60 } })).statusCode).toBe(200);
    expect((await call('/v1/pets')).statusCode).toBe(200);
    const reset = await app.inject({ method: 'POST', url: '/__mock/reset' });
    expect(reset.json()).toMatchObject({ pets: 10, nextId: 12 });
  });
});
