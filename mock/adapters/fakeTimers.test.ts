import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPetsHandlers } from './msw.ts';

const api = 'http://127.0.0.1:4010/v1';
const { handlers, mock } = await createPetsHandlers();
const server = setupServer(...handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  vi.useRealTimers();
  await mock.reset();
});
afterAll(() => server.close());

const as = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

describe('the mock under a test\'s fake timers', () => {
  it('answers the control handle and the handlers after vi.useFakeTimers()', async () => {
    vi.useFakeTimers();
    expect((await mock.freezeClock()).frozen).toBe(true);
    await mock.setKey('ui-test', { plan: 'free' });
    const list = await fetch(`${api}/pets?limit=2`, { headers: as('ui-test') });
    expect(list.status).toBe(200);
    const created = await fetch(`${api}/pets`, { method: 'POST', headers: as('ui-test'), body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }) });
    expect(created.status).toBe(201);
    const pet = await created.json();
    expect(await (await fetch(`${api}/pets?limit=1`, { headers: as('ui-test') })).json()).toEqual([pet]);
    expect((await fetch(`${api}/pets/${pet.id}`, { headers: { ...as('ui-test'), prefer: 'code=404' } })).status).toBe(404);
    expect((await fetch(`${api}/pets`)).status).toBe(401);
    expect((await mock.requests()).map((r) => r.status)).toEqual([200, 201, 200, 404, 401]);
    await mock.reset();
    expect((await fetch(`${api}/pets/${pet.id}`, { headers: as('demo-pro') })).status).toBe(404);
    // Nothing the mock did waited on the fake clock.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps its own clock: a faked Date moves the UI\'s time, the handle moves the mock\'s', async () => {
    vi.useFakeTimers({ now: Date.UTC(2000, 0, 1) });
    expect(new Date((await mock.clock()).nowMs).getUTCFullYear()).toBeGreaterThan(2000);
    await mock.freezeClock('2026-06-01T12:30:45Z');
    await mock.setKey('one-a-minute', { plan: 'free', perMinute: 1 });
    await fetch(`${api}/pets?limit=1`, { headers: as('one-a-minute') });
    vi.advanceTimersByTime(3_600_000);
    const throttled = await fetch(`${api}/pets?limit=1`, { headers: as('one-a-minute') });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('15');
    expect(throttled.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2026, 5, 1, 12, 31) / 1000));
  });

  it('holds answers back by latency and Prefer: delay on real timers, which the test need not advance', async () => {
    const slow = await createPetsHandlers({ latency: { minMs: 1, maxMs: 1 } });
    server.use(...slow.handlers);
    try {
      vi.useFakeTimers();
      expect((await fetch(`${api}/pets?limit=1`, { headers: as('demo-pro') })).status).toBe(200);
      expect((await fetch(`${api}/pets?limit=1`, { headers: { ...as('demo-pro'), prefer: 'delay=2' } })).headers.get('preference-applied')).toBe('delay=2');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      server.resetHandlers();
      await slow.mock.close();
    }
  });

  it('schedules nothing of its own on process.nextTick, setImmediate, queueMicrotask or setTimeout, which Jest fakes in its sandbox', async () => {
    // Jest fakes these for the modules a test loads (the mock, fastify), not for Node's own
    // internals (streams): so a request may use Node's scheduling, never a module's. MSW's own
    // queueMicrotask is MSW's (its docs have Jest users leave queueMicrotask real).
    const callers: string[] = [];
    const originals = { nextTick: process.nextTick, setImmediate: globalThis.setImmediate, queueMicrotask: globalThis.queueMicrotask, setTimeout: globalThis.setTimeout };
    const record = <F extends (...args: never[]) => unknown>(fn: F, name: string) => function (this: unknown, ...args: Parameters<F>) {
      const caller = new Error().stack!.split('\n')[2] ?? '';
      if (!/[( ]node:|\/node_modules\/(msw|@mswjs)\//.test(caller)) callers.push(`${name} from ${caller.trim()}`);
      return fn.apply(this, args);
    };
    const fresh = await createPetsHandlers();
    process.nextTick = record(originals.nextTick, 'process.nextTick') as typeof process.nextTick;
    globalThis.setImmediate = record(originals.setImmediate, 'setImmediate') as typeof setImmediate;
    globalThis.queueMicrotask = record(originals.queueMicrotask, 'queueMicrotask');
    globalThis.setTimeout = record(originals.setTimeout, 'setTimeout') as typeof setTimeout;
    try {
      await fresh.mock.freezeClock('2026-06-01T12:30:45Z');
      await fresh.mock.setKey('ui-test', { plan: 'pro' });
      await fresh.mock.setPets([{ id: 1, name: 'Rex', categoryId: 1 }]);
      await fresh.mock.pets();
      server.use(...fresh.handlers);
      expect((await fetch(`${api}/pets`, { method: 'POST', headers: as('ui-test'), body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }) })).status).toBe(201);
      expect((await fetch(`${api}/pets?limit=1&offset=5`, { headers: { ...as('ui-test'), prefer: 'delay=1' } })).status).toBe(200);
      await fresh.mock.reset();
    } finally {
      Object.assign(process, { nextTick: originals.nextTick });
      Object.assign(globalThis, { setImmediate: originals.setImmediate, queueMicrotask: originals.queueMicrotask, setTimeout: originals.setTimeout });
      await fresh.mock.close();
    }
    expect(callers).toEqual([]);
  });
});
