import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processSignals } from './cliIo.ts';

afterEach(() => vi.useRealTimers());

/** A process whose parent id a test changes, and whose signals a test emits. */
function fakeProcess(ppid = 100) {
  const emitter = new EventEmitter();
  return Object.assign(emitter, { ppid });
}

describe('processSignals', () => {
  it('passes SIGINT and SIGTERM on to the listeners', () => {
    const target = fakeProcess();
    const signals = processSignals(target);
    const heard: string[] = [];
    signals.on('SIGINT', () => heard.push('int'));
    signals.on('SIGTERM', () => heard.push('term'));
    target.emit('SIGINT');
    target.emit('SIGTERM');
    expect(heard).toEqual(['int', 'term']);
  });

  it('tells the SIGTERM listeners once the process that started it is gone, and only once', () => {
    vi.useFakeTimers();
    const target = fakeProcess();
    const signals = processSignals(target, 500);
    const heard: string[] = [];
    signals.on('SIGTERM', () => heard.push('term'));
    vi.advanceTimersByTime(2_000);
    expect(heard).toEqual([]);
    target.ppid = 1;
    vi.advanceTimersByTime(500);
    vi.advanceTimersByTime(5_000);
    expect(heard).toEqual(['term']);
  });

  it('stops watching once no SIGTERM listener is left', () => {
    vi.useFakeTimers();
    const target = fakeProcess();
    const signals = processSignals(target, 500);
    const listener = vi.fn();
    signals.on('SIGTERM', listener);
    signals.off('SIGTERM', listener);
    expect(vi.getTimerCount()).toBe(0);
    target.ppid = 1;
    vi.advanceTimersByTime(1_000);
    expect(listener).not.toHaveBeenCalled();
  });
});
