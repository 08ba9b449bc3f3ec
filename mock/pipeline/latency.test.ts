import { afterEach, describe, expect, it } from 'vitest';
import { parseLatency } from './latency.ts';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;
afterEach(() => mock?.app.close());

describe('parseLatency', () => {
  it('reads MS and MIN-MAX', () => {
    expect(parseLatency('200')).toEqual({ minMs: 200, maxMs: 200 });
    expect(parseLatency('100-500')).toEqual({ minMs: 100, maxMs: 500 });
  });

  it.each(['fast', '-5', '500-100', '1.5'])('refuses %s', (value) => {
    expect(() => parseLatency(value)).toThrow(/Latency/);
  });
});

describe('latency', () => {
  // Lower bounds only: a delay is a floor, never a timed assertion on how fast the mock is.
  it('holds every API answer back by --latency', async () => {
    mock = await testMock({ latency: { minMs: 120, maxMs: 120 } });
    const started = performance.now();
    await mock.call({ url: '/v1/pets' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
  });

  it('holds one answer back by Prefer: delay, without holding up the others', async () => {
    mock = await testMock();
    const started = performance.now();
    const slow = mock.call({ url: '/v1/pets', headers: { prefer: 'delay=300' } }).then(() => performance.now() - started);
    const fast = mock.call({ url: '/v1/pets' }).then(() => performance.now() - started);
    const [slowMs, fastMs] = await Promise.all([slow, fast]);
    expect(slowMs).toBeGreaterThanOrEqual(295);
    expect(fastMs).toBeLessThan(slowMs);
  });

  it('refuses a delay that is not a whole number of milliseconds up to a minute', async () => {
    mock = await testMock();
    for (const delay of ['soon', '-1', '60001']) {
      const res = await mock.call({ url: '/v1/pets', headers: { prefer: `delay=${delay}` } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_PREFER_HEADER' });
    }
  });

  it('does not slow down the control API', async () => {
    mock = await testMock({ latency: { minMs: 500, maxMs: 500 } });
    const finished: string[] = [];
    await Promise.all([
      mock.call({ url: '/v1/pets' }).then(() => finished.push('api')),
      mock.app.inject({ url: '/__mock/clock' }).then(() => finished.push('control')),
    ]);
    expect(finished).toEqual(['control', 'api']);
  });
});
