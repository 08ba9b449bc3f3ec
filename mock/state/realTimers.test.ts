import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureRealTimers, realTimers } from './realTimers.ts';

afterEach(() => vi.useRealTimers());

describe('realTimers', () => {
  it('keeps the real time and timers while a test fakes them', async () => {
    vi.useFakeTimers({ now: Date.UTC(2000, 0, 1) });
    expect(new Date(realTimers.now()).getUTCFullYear()).toBeGreaterThan(2000);
    // Fire though the test never advances its fake timers.
    await new Promise((resolve) => realTimers.setTimeout(resolve, 1));
    await new Promise<void>((resolve) => realTimers.setImmediate(resolve));
  });

  it('finds the real ones behind the fakes, as a module first loaded under fake timers does', async () => {
    vi.useFakeTimers({ now: Date.UTC(2000, 0, 1) });
    expect(Date.now()).toBe(Date.UTC(2000, 0, 1));
    const captured = captureRealTimers();
    expect(new Date(captured.now()).getUTCFullYear()).toBeGreaterThan(2000);
    const fired = vi.fn();
    captured.clearTimeout(captured.setTimeout(fired, 1));
    await new Promise((resolve) => captured.setTimeout(resolve, 1));
    await new Promise<void>((resolve) => captured.setImmediate(resolve));
    expect(fired).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
  it('runs setImmediate\'s callbacks on the real setTimeout where there is no setImmediate (a browser)', async () => {
    const { setImmediate: _absent, ...browserLike } = globalThis as typeof globalThis & { setImmediate?: unknown };
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const captured = captureRealTimers({ ...browserLike, setTimeout: globalThis.setTimeout } as typeof globalThis);
    await new Promise<void>((resolve) => captured.setImmediate(resolve));
  });
});
